"""Hidden checks for assignment a1 (attention). Instructor-only; never released.

Every check draws fresh random inputs and compares the student's function with an independent
oracle built from torch itself: ``F.scaled_dot_product_attention`` for attention,
``nn.MultiheadAttention`` with the student's weight matrices copied in for multi-head attention,
and explicit slicing for the head split. Nothing is compared with the student's other functions.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from gradinglib import (
    CheckFailed,
    describe,
    expect_close,
    expect_equal,
    expect_unchanged,
    forbidden,
    forbidden_name,
    fresh_generator,
    run_cases,
    substituted,
)
from torch import Tensor, nn

_TORCH_SDPA = F.scaled_dot_product_attention
NO_TORCH_ATTENTION = "calls torch's own attention; implement it with matrix products and softmax"
# torch's attention entry points, by owner and name; a student's alias of any of them is caught too.
_TORCH_ATTENTION = [
    (F, "scaled_dot_product_attention"),
    (torch._C._nn, "scaled_dot_product_attention"),
    (F, "multi_head_attention_forward"),
]


def _without_torch_attention(namespace: dict[str, Any]) -> contextlib.ExitStack:
    """While the student's code runs, torch's attention raises, under its own names and any alias."""
    stack = contextlib.ExitStack()
    originals = [getattr(owner, name) for owner, name in _TORCH_ATTENTION]
    for owner, name in _TORCH_ATTENTION:
        stack.enter_context(forbidden(owner, name, NO_TORCH_ATTENTION))
    aliases = [key for key, value in list(namespace.items()) if any(value is f for f in originals)]
    for key in aliases:
        stack.enter_context(forbidden_name(namespace, key, NO_TORCH_ATTENTION))
    return stack


# ----------------------------------------------------------------------------------- oracles


def _ref_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """Output and weights from torch's fused attention in float64; fully masked query rows are zero."""
    q, k, v = q.double(), k.double(), v.double()
    batch = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    q, k, v = (t.expand(*batch, *t.shape[-2:]) for t in (q, k, v))
    eye = torch.eye(k.shape[-2], dtype=q.dtype).expand(*batch, k.shape[-2], k.shape[-2])
    if mask is None:
        return _TORCH_SDPA(q, k, v), _TORCH_SDPA(q, k, eye)
    has_key = mask.any(-1, keepdim=True)
    safe = mask | ~has_key
    out = _TORCH_SDPA(q, k, v, attn_mask=safe).masked_fill(~has_key, 0.0)
    weights = _TORCH_SDPA(q, k, eye, attn_mask=safe).masked_fill(~has_key, 0.0)
    return out, weights


def _ref_split(x: Tensor, n_heads: int) -> Tensor:
    d_head = x.shape[-1] // n_heads
    return torch.stack([x[:, :, i * d_head : (i + 1) * d_head] for i in range(n_heads)], dim=1)


def _ref_merge(x: Tensor) -> Tensor:
    return torch.cat([x[:, i] for i in range(x.shape[1])], dim=-1)


def _ref_mha(x_q: Tensor, x_kv: Tensor, W: dict[str, Tensor], n_heads: int, mask: Tensor | None) -> Tensor:
    """nn.MultiheadAttention (no biases) with the weights copied in; ``x @ W`` is ``Linear(W.T)``."""
    d_model = x_q.shape[-1]
    mha = nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W["W_q"].T, W["W_k"].T, W["W_v"].T]))
        mha.out_proj.weight.copy_(W["W_o"].T)
    if mask is None:
        return mha(x_q, x_kv, x_kv, need_weights=False)[0]
    B, T_q, T_k = x_q.shape[0], x_q.shape[1], x_kv.shape[1]
    mask = mask.expand(B, T_q, T_k)
    attn_mask = (~mask).repeat_interleave(n_heads, 0)  # torch's convention: True = masked out
    out = mha(x_q, x_kv, x_kv, attn_mask=attn_mask, need_weights=False)[0]
    return out.masked_fill(~mask.any(-1, keepdim=True), 0.0)  # torch gives NaN for a query that sees nothing


# ----------------------------------------------------------------------------------- inputs


def _random_mask(g: torch.Generator, *shape: int, fully_masked_rows: bool = False) -> Tensor:
    """Random boolean mask; every query row keeps at least one key unless asked otherwise."""
    mask = torch.rand(*shape, generator=g) < 0.55
    keep = torch.randint(0, shape[-1], shape[:-1], generator=g)
    mask.scatter_(-1, keep.unsqueeze(-1), True)
    if fully_masked_rows:
        mask[..., 0, :] = False
    return mask


def _randn(g: torch.Generator, *shape: int, scale: float = 1.0) -> Tensor:
    return torch.randn(*shape, generator=g) * scale


# ------------------------------------------------------------------------------ part 1: SDPA


def check_sdpa(student: Callable[..., Any]) -> str | None:
    """``scaled_dot_product_attention(q, k, v, mask=None) -> (output, weights)``."""
    g = fresh_generator()
    namespace = getattr(student, "__globals__", {})

    def case(
        q_shape: tuple[int, ...],
        kv_len: int,
        d_v: int,
        mask: Tensor | None,
        label: str,
        scale: float = 1.0,
        grad: bool = False,
        dtype: torch.dtype = torch.float32,
        tolerance: float = 1e-5,
        masked_key_dominates: bool = False,
    ) -> Callable[[], None]:
        def run() -> None:
            q = _randn(g, *q_shape, scale=scale).to(dtype)
            k = _randn(g, *q_shape[:-2], kv_len, q_shape[-1], scale=scale).to(dtype)
            v = _randn(g, *q_shape[:-2], kv_len, d_v).to(dtype)
            if masked_key_dominates:  # key 0, masked out, outscores the others by hundreds
                direction = _randn(g, q_shape[-1])
                q = direction + 0.1 * q
                k[..., 0, :] = 100 * direction
            inputs = {"q": q, "k": k, "v": v} | ({"mask": mask} if mask is not None else {})
            copies = {n: t.clone() for n, t in inputs.items()}
            where = f"{label}: " + describe(**inputs)
            if grad:
                for t in (q, k, v):
                    t.requires_grad_(True)
            with _without_torch_attention(namespace):
                result = student(q, k, v, mask) if mask is not None else student(q, k, v)
            if not isinstance(result, tuple) or len(result) != 2:
                raise CheckFailed(f"should return a tuple (output, weights), got {type(result).__name__} ({where})")
            out, weights = result
            ref_out, ref_weights = _ref_attention(q.detach(), k.detach(), v.detach(), mask)
            expect_close(weights, ref_weights, "the attention weights", where, atol=tolerance, rtol=10 * tolerance)
            expect_close(out, ref_out, "the output", where, atol=tolerance, rtol=10 * tolerance)
            if out.dtype != dtype or weights.dtype != dtype:
                raise CheckFailed(f"returns {out.dtype} / {weights.dtype} for {dtype} inputs; keep the inputs' dtype ({where})")
            expect_unchanged(copies, {n: t.detach() for n, t in inputs.items()}, where)
            if grad:
                _expect_same_gradients(out, (q, k, v), mask, where)

        return run

    padded = _random_mask(g, 3, 1, 6)
    padded[int(torch.randint(0, 3, (1,), generator=g))] = False  # one sequence of length 0
    cases = [
        case((2, 4, 8), 6, 5, None, "no mask, T_q != T_k", grad=True),
        case((1, 1, 16), 1, 3, None, "a single query and key"),
        case((3, 5, 32), 5, 7, None, "wide heads (d_k = 32)"),
        case((5, 8), 5, 3, _random_mask(g, 5, 5), "unbatched (T, d) inputs with a (T_q, T_k) mask"),
        case((2, 3, 5, 8), 7, 4, _random_mask(g, 2, 3, 5, 7), "a per-head mask (B, h, T_q, T_k)", grad=True),
        case((2, 3, 6, 4), 6, 4, torch.tril(torch.ones(6, 6, dtype=torch.bool)), "a causal mask (T, T) broadcast over batch and heads"),
        case((2, 5, 8), 6, 3, _random_mask(g, 2, 1, 6), "a padding mask (B, 1, T_k)"),
        case((2, 4, 8), 5, 3, _random_mask(g, 2, 4, 5, fully_masked_rows=True), "a query whose keys are all masked: expect zero weights and zero output", grad=True),
        case((3, 4, 8), 6, 3, padded, "a padding mask (B, 1, T_k) with an empty sequence: expect zeros for it", grad=True),
        case((2, 3, 8), 4, 2, None, "large scores: the softmax must be numerically stable", scale=30.0, tolerance=1e-3),
        case((2, 3, 8), 5, 2, _random_mask(g, 2, 3, 5), "large scores with a mask", scale=30.0, tolerance=1e-3),
        case((2, 3, 8), 5, 2, torch.arange(5) > 0, "a masked-out key with by far the largest score", masked_key_dominates=True),
        case((2, 4, 8), 6, 3, _random_mask(g, 2, 4, 6), "float64 inputs", dtype=torch.float64, tolerance=1e-9),
    ]
    return run_cases("scaled_dot_product_attention", cases)


def _expect_same_gradients(out: Tensor, inputs: tuple[Tensor, Tensor, Tensor], mask: Tensor | None, where: str) -> None:
    """The gradients of a fixed linear function of the output, with respect to q, k and v."""
    if not out.requires_grad:
        raise CheckFailed(f"the output does not depend differentiably on q, k, v; use torch operations ({where})")
    probe = torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view(out.shape)
    grads = torch.autograd.grad((out * probe).sum(), inputs, allow_unused=True)
    refs = [t.detach().double().requires_grad_(True) for t in inputs]
    ref_grads = torch.autograd.grad((_ref_attention(*refs, mask)[0] * probe.double()).sum(), refs)
    for name, grad, ref in zip("qkv", grads, ref_grads):
        if grad is None:
            raise CheckFailed(f"no gradient reaches {name}; use torch operations ({where})")
        expect_close(grad, ref, f"the gradient with respect to {name}", where, atol=1e-4, rtol=1e-3)


# ----------------------------------------------------------------------------- part 2: masks


def check_masks(causal_mask: Callable[[int], Any], padding_mask: Callable[[Tensor, int], Any]) -> str | None:
    """``causal_mask(T) -> (T, T)`` and ``padding_mask(lengths, T) -> (B, 1, T)``, both boolean."""
    g = fresh_generator()

    def causal(T: int) -> Callable[[], None]:
        def run() -> None:
            expected = torch.ones(T, T).tril().bool()
            expect_equal(causal_mask(T), expected, "causal_mask(T)", f"T={T}")

        return run

    def padding(lengths: list[int], T: int) -> Callable[[], None]:
        def run() -> None:
            expected = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None])[:, None, :]
            lengths_t = torch.tensor(lengths)
            expect_equal(padding_mask(lengths_t, T), expected, "padding_mask(lengths, T)", f"lengths={lengths}, T={T}")
            if lengths_t.tolist() != lengths:
                raise CheckFailed("padding_mask modified lengths in place")

        return run

    T_rand = int(torch.randint(3, 12, (1,), generator=g))
    lengths_rand = torch.randint(0, T_rand + 1, (5,), generator=g).tolist()
    cases = [causal(1), causal(2), causal(5), causal(T_rand), padding([3, 1, 4], 4), padding([0, 2], 3), padding([1], 1), padding(lengths_rand, T_rand)]
    return run_cases("causal_mask / padding_mask", cases)


# ------------------------------------------------------------------- part 3: split and merge


def check_split_merge(split_heads: Callable[[Tensor, int], Any], merge_heads: Callable[[Tensor], Any]) -> str | None:
    """``split_heads(x, n_heads)``: (B, T, d_model) -> (B, h, T, d_head); ``merge_heads`` inverts it."""
    g = fresh_generator()

    def split(B: int, T: int, h: int, d_head: int) -> Callable[[], None]:
        def run() -> None:
            x = _randn(g, B, T, h * d_head)
            copy = x.clone()
            where = describe(x=x, n_heads=h)
            expect_close(split_heads(x, h), _ref_split(x, h), "split_heads(x, n_heads)", where, atol=0, rtol=0)
            expect_unchanged({"x": copy}, {"x": x}, where)

        return run

    def merge(B: int, T: int, h: int, d_head: int) -> Callable[[], None]:
        def run() -> None:
            y = _randn(g, B, h, T, d_head)
            where = describe(x=y)
            expect_close(merge_heads(y), _ref_merge(y), "merge_heads(x)", where, atol=0, rtol=0)

        return run

    cases = [split(2, 5, 4, 3), split(1, 1, 1, 8), split(3, 4, 3, 2), split(2, 3, 2, 2), merge(2, 5, 4, 3), merge(1, 1, 1, 8), merge(3, 4, 3, 2), merge(2, 3, 2, 2)]
    return run_cases("split_heads / merge_heads", cases)


# ---------------------------------------------------------------- part 4: multi-head attention


def _reference_parts() -> dict[str, Callable[..., Any]]:
    """Correct versions of parts 1-3, swapped in while multi_head_attention runs."""

    def scaled_dot_product_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            has_key = mask.any(-1, keepdim=True)
            scores = scores.masked_fill(~mask & has_key, float("-inf"))
            weights = torch.softmax(scores, -1).masked_fill(~has_key, 0.0)
        else:
            weights = torch.softmax(scores, -1)
        return weights @ v, weights

    def causal_mask(T: int) -> Tensor:
        return torch.ones(T, T).tril().bool()

    def padding_mask(lengths: Tensor, T: int) -> Tensor:
        return (torch.arange(T)[None, :] < lengths[:, None])[:, None, :]

    return {
        "scaled_dot_product_attention": scaled_dot_product_attention,
        "causal_mask": causal_mask,
        "padding_mask": padding_mask,
        "split_heads": _ref_split,
        "merge_heads": _ref_merge,
    }


def use_reference_parts(namespace: dict[str, Any]) -> Callable[[], None]:
    """Swap correct parts 1-3 into the notebook for part 4's visible tests; returns the undo."""
    stack = contextlib.ExitStack()
    stack.enter_context(substituted(namespace, _reference_parts()))
    return stack.close


def check_mha(student: Callable[..., Any]) -> str | None:
    """``multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None) -> (B, T_q, d_model)``."""
    g = fresh_generator()
    namespace = getattr(student, "__globals__", {})

    def case(B: int, T_q: int, T_k: int, d_model: int, h: int, mask_kind: str | None, cross: bool) -> Callable[[], None]:
        def run() -> None:
            x_q = _randn(g, B, T_q, d_model)
            x_kv = _randn(g, B, T_k, d_model) if cross else x_q
            W = {n: _randn(g, d_model, d_model, scale=d_model**-0.5) for n in ("W_q", "W_k", "W_v", "W_o")}
            mask = None
            if mask_kind == "causal":
                mask = torch.ones(T_q, T_k).tril().bool()
            elif mask_kind == "per-example":
                mask = _random_mask(g, B, T_q, T_k)
            elif mask_kind == "padding":
                mask = _random_mask(g, B, 1, T_k)
            elif mask_kind == "empty sequence":
                mask = _random_mask(g, B, 1, T_k)
                mask[B - 1] = False
            kind = "cross-attention" if cross else "self-attention"
            inputs = {"x_q": x_q, "x_kv": x_kv} | W | ({"mask": mask} if mask is not None else {})
            copies = {n: t.clone() for n, t in inputs.items()}
            where = f"{kind}, {mask_kind or 'no'} mask: " + describe(**inputs, n_heads=h)
            args = (x_q, x_kv, W["W_q"], W["W_k"], W["W_v"], W["W_o"], h)
            with substituted(namespace, _reference_parts()), _without_torch_attention(namespace):
                out = student(*args, mask) if mask is not None else student(*args)
            expected = _ref_mha(x_q, x_kv, W, h, mask)
            expect_close(out, expected, "the output", where, atol=1e-5, rtol=1e-4)
            expect_unchanged(copies, inputs, where)

        return run

    cases = [
        case(2, 5, 5, 12, 3, None, cross=False),
        case(1, 4, 4, 8, 1, None, cross=False),
        case(2, 6, 6, 16, 4, "causal", cross=False),
        case(3, 4, 7, 12, 2, None, cross=True),
        case(2, 3, 5, 8, 2, "padding", cross=True),
        case(4, 4, 6, 16, 4, "per-example", cross=True),
        case(1, 1, 3, 6, 3, "padding", cross=True),
        case(3, 4, 5, 8, 2, "empty sequence", cross=True),
    ]
    return run_cases("multi_head_attention", cases)
