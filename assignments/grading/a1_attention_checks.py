"""Hidden checks for assignment a1 (attention). Instructor-only; never released.

Every check draws fresh random inputs and compares the student's function with an independent
oracle built from torch itself: ``F.scaled_dot_product_attention`` for attention,
``nn.MultiheadAttention`` with the student's weight matrices copied in for multi-head attention,
and explicit slicing for the head split. Nothing is compared with the student's other functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from course_grading.markers import defined_names
from course_grading.sandbox.calls import Reply, Student, probe
from course_grading.sandbox.shortcuts import TORCH_ATTENTION, Rules

from contracts import FAR_BELOW_FACTOR, PAST_EVERY_BUFFER, Contract, Size, contract_cases
from gradinglib import (
    CheckFailed,
    as_student,
    describe,
    expect_close,
    expect_equal,
    expect_gradients,
    expect_unchanged,
    fresh_generator,
    kind,
    run_cases,
)

_TORCH_SDPA = F.scaled_dot_product_attention
# torch's attention entry points: they raise while the student's code runs (aliases included).
NO_TORCH_ATTENTION = [
    ("torch.nn.functional", "scaled_dot_product_attention"),
    ("torch._C._nn", "scaled_dot_product_attention"),
    ("torch.nn.functional", "multi_head_attention_forward"),
]
REFERENCE_PARTS = Path(__file__).with_name("a1_attention_reference_parts.py").read_text()
# The first line is the refusal above, in the student's process; code there can get round it (a saved
# reference, another name for the kernel), so the grader also reads the submitted source
# (course_grading.sandbox.shortcuts): a part whose code may reach these by any route is held for review.
SHORTCUTS = {
    "sdpa": Rules(forbid=TORCH_ATTENTION),
    "mha": Rules(forbid=TORCH_ATTENTION, replaced=tuple(defined_names(REFERENCE_PARTS))),
}


# ----------------------------------------------------------------------------------- oracles


def _ref_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """Output and weights from torch's fused attention in float64; fully masked query rows are zero."""
    q, k, v = q.double(), k.double(), v.double()
    batch = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    q, k, v = (t.expand(*batch, *t.shape[-2:]) for t in (q, k, v))
    eye = torch.eye(k.shape[-2], dtype=q.dtype).expand(*batch, k.shape[-2], k.shape[-2])
    if mask is None:
        return _TORCH_SDPA(q, k, v), _TORCH_SDPA(q, k, eye)
    mask = mask.broadcast_to(*batch, q.shape[-2], k.shape[-2])  # torch's fused attention takes no (T_k,) mask
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


def _ref_mha_functional(
    x_q: Tensor,
    x_kv: Tensor,
    W_q: Tensor,
    W_k: Tensor,
    W_v: Tensor,
    W_o: Tensor,
    n_heads: int,
    mask: Tensor | None = None,
) -> Tensor:
    """Multi-head attention written with torch's attention per head, differentiable in every input
    (the contract's oracle; :func:`_ref_mha` is the independent one of the part's own cases)."""
    q, k, v = (_ref_split(x @ W, n_heads) for x, W in ((x_q, W_q), (x_kv, W_k), (x_kv, W_v)))
    out, _ = _ref_attention(q, k, v, None if mask is None else mask.unsqueeze(-3))
    return _ref_merge(out) @ W_o


# ----------------------------------------------------------------------------------- inputs


def _random_mask(g: torch.Generator, *shape: int, fully_masked_rows: bool = False) -> Tensor:
    """Random boolean mask; every query row keeps at least one key unless asked otherwise, and, where it has two
    keys or more, hides at least one (a row that hides nothing lets an answer that ignores the mask pass: a
    single query's padding mask dropped as "a decoding step needs none" escaped on 3 draws in 10)."""
    mask = torch.rand(*shape, generator=g) < 0.55
    keep = torch.randint(0, shape[-1], shape[:-1], generator=g)
    if shape[-1] >= 2:
        hide = (keep + torch.randint(1, shape[-1], shape[:-1], generator=g)) % shape[-1]  # another key than keep
        mask.scatter_(-1, hide.unsqueeze(-1), False)
    mask.scatter_(-1, keep.unsqueeze(-1), True)
    if fully_masked_rows:
        mask[..., 0, :] = False
    return mask


def _randn(g: torch.Generator, *shape: int, scale: float = 1.0) -> Tensor:
    return torch.randn(*shape, generator=g) * scale


# ----------------------------------------------------------------------------------- contracts
# What each function's spec allows, for the generic cases (assignments/grading/contracts.py): a1's
# attention takes any leading dimensions ("(..., T, d)"), no function here limits the length, and
# attention and merge_heads take the heads as split_heads returns them: transposed, non-contiguous views.
# multi_head_attention runs with the grader's correct parts, which answer from the grader as values without
# a graph: only W_o's gradient (after them) is the student's code's alone, so only it is compared.


def _sdpa_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    T = size.length
    T_k = T if size.coincide else T + 1  # keys distinct from queries in number, unless asked equal
    q, k, v = (_randn(g, *size.lead, n, d).to(size.dtype) for n, d in ((T, 8), (T_k, 8), (T_k, 4)))
    return q, k, v, _random_mask(g, *size.lead, T, T_k)


def _sdpa_args_fully_masked(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """:func:`_sdpa_args` with the first query's keys all masked (its weights and output must be zeros)."""
    q, k, v, mask = _sdpa_args(g, size)
    mask[..., 0, :] = False
    return q, k, v, mask


def _sdpa_args_nothing_attendable(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """:func:`_sdpa_args` with the whole mask False: no query attends any key (zeros everywhere, and the gradients
    of q, k and v zeros, through the graph: corpus t's early exit returned fresh zeros that no backward pass
    reaches)."""
    q, k, v, mask = _sdpa_args(g, size)
    return q, k, v, torch.zeros_like(mask)


def _sdpa_mask_form(
    shape: Callable[[tuple[int, ...], int, int], tuple[int, ...]], lead: tuple[int, ...] = (2, 3)
) -> Callable[[torch.Generator, Size], tuple[Any, ...]]:
    """Arguments whose mask takes another shape the spec's "broadcastable to (..., T_q, T_k)" allows, ``shape(lead,
    T_q, T_k)``, with q, k and v of leading dimensions ``lead`` (corpus r: a 3-D mask given a head axis, as part 4
    does, passed every full-shape mask)."""

    def make(g: torch.Generator, size: Size) -> tuple[Any, ...]:
        q, k, v, _ = _sdpa_args(g, replace(size, lead=lead))
        return q, k, v, _random_mask(g, *shape(lead, q.shape[-2], k.shape[-2]))

    return make


def _sdpa_long_queries(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """8,200 queries attending 9 keys through a mask broadcast over the queries, ``(B, 1, T_k)``: queries cut into
    blocks (of 2,048, say) with the mask cut along its query axis too show past the first block (corpus r)."""
    q, k, v = (_randn(g, *size.lead, n, d).to(size.dtype) for n, d in ((PAST_EVERY_BUFFER, 8), (9, 8), (9, 4)))
    return q, k, v, _random_mask(g, *size.lead, 1, 9)


# Every mask shape the spec's broadcasting allows, beside the full one the other cases send: each leading dimension
# dropped from the left or set to 1, the queries' axis set to 1.
SDPA_MASK_FORMS = (
    ("a (T_q, T_k) mask for every leading index", _sdpa_mask_form(lambda lead, T, T_k: (T, T_k))),
    ("a (1, T_k) mask", _sdpa_mask_form(lambda lead, T, T_k: (1, T_k))),
    ("a (T_k,) mask (one flag per key)", _sdpa_mask_form(lambda lead, T, T_k: (T_k,))),
    (
        "a mask without the first leading dimension (broadcast from the right: (h, T_q, T_k) for q (B, h, T_q, d))",
        _sdpa_mask_form(lambda lead, T, T_k: (*lead[1:], T, T_k)),
    ),
    ("a mask of (B, 1, T_q, T_k) for q (B, h, T_q, d)", _sdpa_mask_form(lambda lead, T, T_k: (lead[0], 1, T, T_k))),
    ("a mask broadcast over the queries, (..., 1, T_k)", _sdpa_mask_form(lambda lead, T, T_k: (*lead, 1, T_k))),
    ("8,200 queries, 9 keys, the mask broadcast over the queries", _sdpa_long_queries),
)


def _mha_mask_form(
    shape: Callable[[int, int, int], tuple[int, ...]],
) -> Callable[[torch.Generator, Size], tuple[Any, ...]]:
    """:func:`_mha_args` with the mask in another of the spec's shapes, ``shape(B, T_q, T_k)``."""

    def make(g: torch.Generator, size: Size) -> tuple[Any, ...]:
        *args, mask = _mha_args(g, size)
        return (*args, _random_mask(g, *shape(args[0].shape[0], args[0].shape[1], args[1].shape[1])))

    return make


def _mha_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    B, T, d, h = size.lead[0], size.length, 12, 3
    T_k = T if size.coincide else T + 2  # cross-attention to another sequence: of another length, or of the same
    x_q, x_kv = _randn(g, B, T, d).to(size.dtype), _randn(g, B, T_k, d).to(size.dtype)
    weights = tuple(_randn(g, d, d, scale=d**-0.5).to(size.dtype) for _ in range(4))
    return (x_q, x_kv, *weights, h, _random_mask(g, B, 1, T_k))


def _mha_args_no_key(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """:func:`_mha_args` with the first sequence's keys all masked: its queries attend no key (zeros, and
    finite gradients of every input: a NaN repaired in the value alone still poisons the backward pass)."""
    *args, mask = _mha_args(g, size)
    mask[0] = False
    return (*args, mask)


def _mha_args_nothing_attendable(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """:func:`_mha_args` with every key of every sequence masked (the whole mask False)."""
    *args, mask = _mha_args(g, size)
    return (*args, torch.zeros_like(mask))


SDPA = Contract(
    "scaled_dot_product_attention",
    ("q", "k", "v", "mask"),
    _sdpa_args,
    _ref_attention,
    leads=((), (1,), (2, 3)),
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2),
    views=Size((2, 3), 5),
    options=(("forbid", NO_TORCH_ATTENTION),),
    coincide=True,
    grad_outputs=(0, 1),  # "differentiable": weights too
    edges=(
        ("the first query's keys all masked", _sdpa_args_fully_masked),
        ("the whole mask False (no query attends any key)", _sdpa_args_nothing_attendable),
        *SDPA_MASK_FORMS,
    ),
    extremes=(
        ("scores past float32's exp range (q 40 times larger)", lambda a: (a[0] * 40, *a[1:]), 10.0),
        # every score below -20,000: a mask filled with -1e4 (or -1e9 in float16) outranks them. Not below -1e9: this
        # spec, unlike a4's and a5's, names no fill, and -1e9 is the tutorials' (FAR_BELOW_SCALE is for those two)
        (
            "every score far below -10,000 (q positive, k negative, both large)",
            lambda a: (a[0].abs() * 50 + 50, -(a[1].abs() * 50 + 50), *a[2:]),
            FAR_BELOW_FACTOR,
        ),
    ),
)
CAUSAL = Contract(
    "causal_mask",
    ("T",),
    lambda g, size: (size.length,),
    lambda T: torch.ones(T, T, dtype=torch.bool).tril(),
    # nanoGPT's mask buffer of 1,024 is cut short here; one past 8,192 is not looked for: a right answer that
    # loops over every (query, key) pair takes seconds at 1,100 positions and minutes past 8,192
    long=1100,
    rows=False,  # causal_mask(T) takes no batch
)


def _lengths_at_ends(g: torch.Generator, size: Size) -> Tensor:
    """(3,) lengths: 0, T and one drawn from 0..T."""
    return torch.cat([torch.tensor([0, size.length]), torch.randint(0, size.length + 1, (1,), generator=g)])


PADDING = Contract(
    "padding_mask",
    ("lengths", "T"),
    lambda g, size: (torch.randint(0, size.length + 1, (size.lead[0],), generator=g), size.length),
    lambda lengths, T: (torch.arange(T)[None, :] < lengths[:, None])[:, None, :],
    long=PAST_EVERY_BUFFER,
    integers=(0,),  # "a (B,) integer tensor"
    edges=(
        ("lengths 0 and T (nothing real, nothing padded)", lambda g, size: (_lengths_at_ends(g, size), size.length)),
        # corpus w: a shortcut for a batch with nothing padded (an expanded True) taken only when every length is T
        ("every length T (no sequence padded)", lambda g, size: (torch.full(size.lead[:1], size.length), size.length)),
        ("every length 0", lambda g, size: (torch.zeros(size.lead[:1], dtype=torch.long), size.length)),
    ),
)
SPLIT = Contract(
    "split_heads",
    ("x", "n_heads"),
    lambda g, size: (_randn(g, size.lead[0], size.length, 12).to(size.dtype), 3),
    _ref_split,
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0,),
    views=Size(),  # "x may be a view": a slice of a fused projection, a transpose
    # other values; then the same x in 4 heads (12 features split either way)
    again=lambda first, fresh, g: [(fresh[0], first[1]), (first[0], 4)],
)
# attention's output over split_heads' views
MERGE = Contract(
    "merge_heads",
    ("x",),
    lambda g, size: (_randn(g, size.lead[0], 3, size.length, 4).to(size.dtype),),
    _ref_merge,
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0,),
    views=Size(),
)
MHA = Contract(
    "multi_head_attention",
    ("x_q", "x_kv", "W_q", "W_k", "W_v", "W_o", "n_heads", "mask"),
    _mha_args,
    _ref_mha_functional,
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2, 3, 4, 5),  # through the correct sdpa and heads too: the grader answers their backward
    coincide=True,
    options=(("forbid", NO_TORCH_ATTENTION), ("references", REFERENCE_PARTS)),
    edges=(
        ("the first sequence's keys all masked (its queries attend no key)", _mha_args_no_key),
        ("the whole mask False (no query attends any key)", _mha_args_nothing_attendable),
        # the spec's other two mask shapes: the other cases send (B, 1, T_k)
        ("a (T_q, T_k) mask", _mha_mask_form(lambda B, T, T_k: (T, T_k))),
        ("a (B, T_q, T_k) mask", _mha_mask_form(lambda B, T, T_k: (B, T, T_k))),
    ),
    # positive inputs, positive query weights and negative key weights: every score below -50,000
    extremes=(
        (
            "every score far below -10,000 (positive inputs, query and key weights of opposite signs)",
            lambda a: (a[0].abs() + 1, a[1].abs() + 1, a[2].abs() * 40, -a[3].abs() * 40, *a[4:]),
            FAR_BELOW_FACTOR,
        ),
    ),
)


# ------------------------------------------------------------------------------ part 1: SDPA


def check_sdpa(notebook: Student | dict[str, Any]) -> str | None:
    """``scaled_dot_product_attention(q, k, v, mask=None) -> (output, weights)``."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(
        q_shape: tuple[int, ...],
        kv_len: int,
        d_v: int,
        mask: Tensor | None,
        label: str,
        scale: float = 1.0,
        grad: bool = False,
        dtype: torch.dtype = torch.float32,
        tolerance: float = 1e-5,  # atol; rtol is 10 times it (measured worst cases below, at check_sdpa's cases)
        key_0: str | None = None,
    ) -> Callable[[], None]:
        def run() -> None:
            q = _randn(g, *q_shape, scale=scale).to(dtype)
            k = _randn(g, *q_shape[:-2], kv_len, q_shape[-1], scale=scale).to(dtype)
            v = _randn(g, *q_shape[:-2], kv_len, d_v).to(dtype)
            if key_0 is not None:  # key 0 is masked out; q lies along a direction of norm sqrt(d_k)
                direction = _randn(g, q_shape[-1])
                direction = direction / direction.norm() * q_shape[-1] ** 0.5
                q = direction + 0.1 * q
                if key_0 == "dominant":  # key 0 scores about 100 sqrt(d_k) above the others
                    k[..., 0, :] = 100 * direction
                else:  # every allowed key scores about -100 sqrt(d_k), key 0 about 0: a finite fill (-20, -100) loses
                    k[..., 1:, :] = -100 * direction + 0.1 * k[..., 1:, :]
                    k[..., 0, :] = 0.1 * k[..., 0, :]
            inputs = {"q": q, "k": k, "v": v} | ({"mask": mask} if mask is not None else {})
            where = f"{label}: " + describe(**inputs)
            args = (q, k, v, mask) if mask is not None else (q, k, v)
            reply = student.call(
                "scaled_dot_product_attention", args, grad_args=(0, 1, 2) if grad else (), forbid=NO_TORCH_ATTENTION
            )
            result = reply.value
            if not isinstance(result, tuple) or len(result) != 2:
                raise CheckFailed(f"should return a tuple (output, weights), got {kind(result)} ({where})")
            out, weights = result
            ref_out, ref_weights = _ref_attention(q, k, v, mask)
            expect_close(weights, ref_weights, "the attention weights", where, atol=tolerance, rtol=10 * tolerance)
            expect_close(out, ref_out, "the output", where, atol=tolerance, rtol=10 * tolerance)
            if out.dtype != dtype or weights.dtype != dtype:
                raise CheckFailed(
                    f"returns {out.dtype} / {weights.dtype} for {dtype} inputs; keep the inputs' dtype ({where})"
                )
            expect_unchanged(inputs, dict(zip(inputs, reply.inputs_after)), where)
            if grad:
                _expect_same_gradients(reply, (q, k, v), mask, where)

        return run

    # Tolerances, from 9 right float32 variants (the key, float64 inside, logsumexp with q scaled first,
    # softmax by hand, einsum, loops, bmm, nan_to_num, fill times mask), 500 runs each: at 1e-5 the worst
    # is 0.051 of the tolerance (7.4e-7, d_k = 32); at 1e-3 (scores in the hundreds) 0.036 (5.5e-5); the
    # gradients (1e-4, rtol 1e-3) 0.0037 (6e-7). The wrong answers in the fixtures that a comparison
    # catches are at least 93 times it (a max over the whole tensor instead of per row); a fill of -20
    # for masked scores was caught on most draws only, and every draw by the "far below" case (1e5).
    padded = _random_mask(g, 3, 1, 6)
    padded[int(torch.randint(0, 3, (1,), generator=g))] = False  # one sequence of length 0
    cases = [
        case((2, 4, 8), 6, 5, None, "no mask, T_q != T_k", grad=True),
        case((1, 1, 16), 1, 3, None, "a single query and key"),
        case((3, 5, 32), 5, 7, None, "wide heads (d_k = 32)"),
        case((5, 8), 5, 3, _random_mask(g, 5, 5), "unbatched (T, d) inputs with a (T_q, T_k) mask"),
        case((2, 3, 5, 8), 7, 4, _random_mask(g, 2, 3, 5, 7), "a per-head mask (B, h, T_q, T_k)", grad=True),
        case(
            (2, 3, 6, 4),
            6,
            4,
            torch.tril(torch.ones(6, 6, dtype=torch.bool)),
            "a causal mask (T, T) broadcast over batch and heads",
        ),
        case((2, 5, 8), 6, 3, _random_mask(g, 2, 1, 6), "a padding mask (B, 1, T_k)"),
        case(
            (2, 4, 8),
            5,
            3,
            _random_mask(g, 2, 4, 5, fully_masked_rows=True),
            "a query whose keys are all masked: expect zero weights and zero output",
            grad=True,
        ),
        case(
            (3, 4, 8), 6, 3, padded, "a padding mask (B, 1, T_k) with an empty sequence: expect zeros for it", grad=True
        ),
        case((2, 3, 8), 4, 2, None, "large scores: the softmax must be numerically stable", scale=30.0, tolerance=1e-3),
        case((2, 3, 8), 5, 2, _random_mask(g, 2, 3, 5), "large scores with a mask", scale=30.0, tolerance=1e-3),
        case((2, 3, 8), 5, 2, torch.arange(5) > 0, "a masked-out key with by far the largest score", key_0="dominant"),
        case(
            (2, 3, 8),
            5,
            2,
            torch.arange(5) > 0,
            "every allowed key scores far below zero, the masked key about zero",
            key_0="allowed far below",
            tolerance=1e-3,
        ),
        case((2, 4, 8), 6, 3, _random_mask(g, 2, 4, 6), "float64 inputs", dtype=torch.float64, tolerance=1e-9),
    ]
    return run_cases("scaled_dot_product_attention", cases + contract_cases(SDPA, student, g))


def _expect_same_gradients(
    reply: Reply, inputs: tuple[Tensor, Tensor, Tensor], mask: Tensor | None, where: str
) -> None:
    """The gradients of a fixed linear function of the output, with respect to q, k and v."""
    grads = expect_gradients(reply, "the output does not depend differentiably on q, k, v; use torch operations", where)
    refs = [t.detach().double().requires_grad_(True) for t in inputs]
    ref_out = _ref_attention(*refs, mask)[0]
    ref_grads = torch.autograd.grad((ref_out * probe(ref_out.to(inputs[0].dtype)).double()).sum(), refs)
    for name, grad, ref in zip("qkv", grads, ref_grads):
        if grad is None:
            raise CheckFailed(f"no gradient reaches {name}; use torch operations ({where})")
        expect_close(grad, ref, f"the gradient with respect to {name}", where, atol=1e-4, rtol=1e-3)


# ----------------------------------------------------------------------------- part 2: masks


def check_masks(notebook: Student | dict[str, Any]) -> str | None:
    """``causal_mask(T) -> (T, T)`` and ``padding_mask(lengths, T) -> (B, 1, T)``, both boolean."""
    g = fresh_generator()
    student = as_student(notebook)

    def causal(T: int) -> Callable[[], None]:
        def run() -> None:
            expected = torch.ones(T, T).tril().bool()
            expect_equal(student.call("causal_mask", (T,)).value, expected, "causal_mask(T)", f"T={T}")

        return run

    def padding(lengths: list[int], T: int) -> Callable[[], None]:
        def run() -> None:
            expected = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None])[:, None, :]
            reply = student.call("padding_mask", (torch.tensor(lengths), T))
            expect_equal(reply.value, expected, "padding_mask(lengths, T)", f"lengths={lengths}, T={T}")
            if not torch.equal(reply.inputs_after[0], torch.tensor(lengths)):
                raise CheckFailed("padding_mask modified lengths in place")

        return run

    T_rand = int(torch.randint(3, 12, (1,), generator=g))
    lengths_rand = torch.randint(0, T_rand + 1, (5,), generator=g).tolist()
    cases = [
        causal(1),
        causal(2),
        causal(5),
        causal(T_rand),
        padding([3, 1, 4], 4),
        padding([0, 2], 3),
        padding([1], 1),
        padding(lengths_rand, T_rand),
    ]
    return run_cases(
        "causal_mask / padding_mask", cases + contract_cases(CAUSAL, student, g) + contract_cases(PADDING, student, g)
    )


# ------------------------------------------------------------------- part 3: split and merge


def check_split_merge(notebook: Student | dict[str, Any]) -> str | None:
    """``split_heads(x, n_heads)``: (B, T, d_model) -> (B, h, T, d_head); ``merge_heads`` inverts it."""
    g = fresh_generator()
    student = as_student(notebook)

    def split(B: int, T: int, h: int, d_head: int) -> Callable[[], None]:
        def run() -> None:
            x = _randn(g, B, T, h * d_head)
            where = describe(x=x, n_heads=h)
            reply = student.call("split_heads", (x, h))
            expect_close(reply.value, _ref_split(x, h), "split_heads(x, n_heads)", where, atol=0, rtol=0)
            expect_unchanged({"x": x}, {"x": reply.inputs_after[0]}, where)

        return run

    def merge(B: int, T: int, h: int, d_head: int) -> Callable[[], None]:
        def run() -> None:
            y = _randn(g, B, h, T, d_head)
            where = describe(x=y)
            expect_close(
                student.call("merge_heads", (y,)).value, _ref_merge(y), "merge_heads(x)", where, atol=0, rtol=0
            )

        return run

    cases = [
        split(2, 5, 4, 3),
        split(1, 1, 1, 8),
        split(3, 4, 3, 2),
        split(2, 3, 2, 2),
        merge(2, 5, 4, 3),
        merge(1, 1, 1, 8),
        merge(3, 4, 3, 2),
        merge(2, 3, 2, 2),
    ]
    return run_cases(
        "split_heads / merge_heads", cases + contract_cases(SPLIT, student, g) + contract_cases(MERGE, student, g)
    )


# ---------------------------------------------------------------- part 4: multi-head attention


def check_mha(notebook: Student | dict[str, Any]) -> str | None:
    """``multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None) -> (B, T_q, d_model)``."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(
        B: int, T_q: int, T_k: int, d_model: int, h: int, mask_kind: str | None, cross: bool
    ) -> Callable[[], None]:
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
            where = f"{kind}, {mask_kind or 'no'} mask: " + describe(**inputs, n_heads=h)
            args = (x_q, x_kv, W["W_q"], W["W_k"], W["W_v"], W["W_o"], h) + ((mask,) if mask is not None else ())
            reply = student.call("multi_head_attention", args, forbid=NO_TORCH_ATTENTION, references=REFERENCE_PARTS)
            expected = _ref_mha(x_q, x_kv, W, h, mask)
            # Right float32 variants (the key, float64 inside, fused QKV, heads in a loop), 300
            # runs each: worst 0.046 of this tolerance; wrong answers in the fixtures at least 3.7e3 times it.
            expect_close(reply.value, expected, "the output", where, atol=1e-5, rtol=1e-4)
            names = ["x_q", "x_kv", "W_q", "W_k", "W_v", "W_o", "n_heads", "mask"]
            expect_unchanged(
                {n: t for n, t in inputs.items()},
                {n: a for n, a in zip(names, reply.inputs_after) if n in inputs},
                where,
            )

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
    return run_cases("multi_head_attention", cases + contract_cases(MHA, student, g))


# The hidden check of each test cell, by the cell's grade id: course grade re-runs them outside the
# student's process.
CHECKS: dict[str, Callable[[Student], str | None]] = {
    "test_sdpa": check_sdpa,
    "test_masks": check_masks,
    "test_split_merge": check_split_merge,
    "test_mha": check_mha,
}
