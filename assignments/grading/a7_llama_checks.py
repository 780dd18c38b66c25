"""Hidden checks for assignment a7 (today's decoder). Instructor-only; never released.

Oracles, each independent of the answer key's arithmetic, in float64: Hugging Face's own Llama code
(``apply_rotary_pos_emb`` and ``repeat_kv`` of ``transformers.models.llama``, and a whole
``LlamaDecoderLayer`` with the student's weights copied in and a ``DynamicCache`` over several calls),
Meta's complex-number rotation for the interleaved layout, torch's ``F.rms_norm``, ``F.silu`` and
``F.scaled_dot_product_attention``. Every part declares a :class:`contracts.Contract`: leading axes,
1,100 positions (a cache or a sequence past any fixed table), float64, gradients to every tensor
argument, a call whose arguments change one at a time (a table of angles kept from an earlier call),
and, for the two cached parts, every step of a generation fed the cache the previous step returned
(the position offset kept after the first step, the key/value heads cached once).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from course_grading.markers import defined_names
from course_grading.sandbox.calls import Student
from course_grading.sandbox.shortcuts import TORCH_ATTENTION, TORCH_NORMS, Rules

from contracts import (
    EVERY,
    FAR_BELOW_FACTOR,
    PAST_EVERY_BUFFER,
    Contract,
    Size,
    at_initial_values,
    contract_cases,
    expect_like,
    in_float64,
)
from gradinglib import CheckFailed, Guarded, as_student, expect_close, fresh_generator, kind, run_cases

REFERENCE_PARTS = Path(__file__).with_name("a7_llama_reference_parts.py").read_text()
FORBIDDEN = TORCH_ATTENTION + TORCH_NORMS
NO_TORCH_LAYERS = list(FORBIDDEN)
SHORTCUTS = {
    "rms_norm": Rules(forbid=FORBIDDEN),
    "gqa": Rules(forbid=FORBIDDEN, replaced=tuple(defined_names(REFERENCE_PARTS))),
    "block": Rules(forbid=FORBIDDEN, replaced=tuple(defined_names(REFERENCE_PARTS))),
}
BASES = (10000.0, 500000.0, 100.0)  # Llama 2's, Llama 3's, and a small one whose slow pairs still turn


def _randn(g: torch.Generator, *shape: int, scale: float = 1.0) -> Tensor:
    return torch.randn(*shape, generator=g) * scale


def _pick(g: torch.Generator, options: tuple[Any, ...]) -> Any:
    return options[int(torch.randint(len(options), (1,), generator=g))]


def _fresh_like(value: Any, g: torch.Generator) -> Any:
    """A new draw of the same shapes, dtypes and scale (each tensor's mean and standard deviation): a tensor, or
    the tensors of a tuple or a dict. Unit-normal weights where the first draw's were scaled by 1/sqrt(d) made
    the block's arithmetic so badly conditioned that the answer key failed by float32 rounding, 1 call in 300."""
    if isinstance(value, Tensor):
        x = value.double()
        spread = float(x.std()) if x.numel() > 1 else 0.0
        draw = torch.randn(value.shape, generator=g, dtype=torch.float64)
        return (x.mean() + (spread or 1.0) * draw).to(value.dtype)
    if isinstance(value, tuple):
        return tuple(_fresh_like(v, g) for v in value)
    return {k: _fresh_like(v, g) for k, v in value.items()}


def _one_at_a_time(
    changes: dict[int, Callable[[Any, torch.Generator], Any]],
) -> Callable[[tuple[Any, ...], tuple[Any, ...], torch.Generator], list[tuple[Any, ...]]]:
    """``again`` for arguments drawn to fit each other: the first call's arguments with one of them,
    index by index, replaced by ``changes[index](value, g)`` (same shapes, another value)."""

    def again(first: tuple[Any, ...], fresh: tuple[Any, ...], g: torch.Generator) -> list[tuple[Any, ...]]:
        return [(*first[:i], change(first[i], g), *first[i + 1 :]) for i, change in changes.items() if i < len(first)]

    return again


def _other_base(base: float, g: torch.Generator) -> float:
    return next(b for b in BASES if b != base)


# --------------------------------------------------------------------- part 1: rotary embeddings


def _cos_sin(start: int, T: int, d_head: int, base: float) -> tuple[Tensor, Tensor]:
    """(T, d_head / 2) each, in float64: position start + t, pair i at the angle (start + t) base^(-2i/d_head)."""
    inv_freq = base ** -(torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angles = torch.outer(torch.arange(start, start + T, dtype=torch.float64), inv_freq)
    return angles.cos(), angles.sin()


def _rotary_oracle(x: Tensor, start: int = 0, base: float = 10000.0, interleaved: bool = False) -> Tensor:
    """Rotate half: Hugging Face's ``apply_rotary_pos_emb`` (cos and sin repeated over both halves);
    interleaved: Meta's ``x`` as complex numbers times ``exp(i m theta)``."""
    from transformers.models.llama.modeling_llama import rotate_half

    cos, sin = _cos_sin(start, x.shape[-2], x.shape[-1], base)
    if interleaved:
        turned = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2)) * torch.complex(cos, sin)
        return torch.view_as_real(turned).flatten(-2)
    return x * torch.cat([cos, cos], dim=-1) + rotate_half(x) * torch.cat([sin, sin], dim=-1)


def _rotary_args(interleaved: bool) -> Callable[[torch.Generator, Size], tuple[Any, ...]]:
    """``x`` at ``size`` with a drawn width, start and base, in one layout (each layout has its own contract,
    so that every generic case, gradients included, runs in both)."""

    def make(g: torch.Generator, size: Size) -> tuple[Any, ...]:
        d_head = _pick(g, (2, 8, 16))
        start = int(torch.randint(0, 60, (1,), generator=g))
        return _randn(g, *size.lead, size.length, d_head).to(size.dtype), start, _pick(g, BASES), interleaved

    return make


def _rotary_contract(interleaved: bool) -> Contract:
    layout = "interleaved" if interleaved else "rotate-half"
    return Contract(
        "apply_rotary",
        ("x", "start", "base", "interleaved"),
        _rotary_args(interleaved),
        _rotary_oracle,
        base=Size((2, 3), 6),
        leads=((), (1,), (4,)),
        long=PAST_EVERY_BUFFER,
        dtypes=(torch.float64,),
        differentiable=(0,),
        views=Size((2, 3), 6),
        fresh=True,  # "Return a new tensor of x's shape and dtype" (at start 0 with one position nothing turns)
        again=_one_at_a_time({0: _fresh_like, 1: lambda start, g: start + 7, 2: _other_base}),
        edges=(
            (f"{layout}, one position at start 0 (no turn)", lambda g, size: (_randn(g, 2, 1, 8), 0, 1e4, interleaved)),
            # the spec's angles in float64: at position 100,000 a float32 angle is off by up to 0.004 radians
            (f"{layout}, positions from 100,000", lambda g, size: (_randn(g, 2, 4, 16), 100_000, 1e4, interleaved)),
            # no limit on the width either: past a table of 1,024 pairs
            (f"{layout}, 2,050 features per head", lambda g, size: (_randn(g, 3, 2050), 5, 1e4, interleaved)),
        ),
        whole=(2,),
    )


ROTARY = (_rotary_contract(False), _rotary_contract(True))


def check_rotary(notebook: Student | dict[str, Any]) -> str | None:
    """``apply_rotary(x, start, base, interleaved)`` against HF's rotation and Meta's complex one."""
    g = fresh_generator()
    student = as_student(notebook)

    def keyword_defaults() -> None:
        """Called as ``apply_rotary(x)`` and with keywords: start 0, base 10,000, rotate-half."""
        x = _randn(g, 2, 7, 8)
        for args, expected in [
            ((x,), _rotary_oracle(in_float64(x))),
            ((x, 5), _rotary_oracle(in_float64(x), 5)),
        ]:
            reply = student.call("apply_rotary", args)
            expect_like(reply.value, expected, "apply_rotary(x, ...)", f"defaults, {len(args)} argument(s)", x.dtype)

    def past_float32_positions() -> None:
        """float32 x at positions from 2**24 + 1, both layouts: past 2**24 float32 holds only even whole numbers
        (corpus t: ``torch.arange(start, start + T, dtype=x.dtype)`` put the odd positions on their even neighbours,
        angles 1.2 radians off). In float32 only: a float64 answer's angles of 1.7e7 radians are as exact as its
        sum's order makes them, which float64's tolerance does not allow for."""
        for interleaved in (False, True):
            x = _randn(g, 2, 4, 16)
            reply = student.call("apply_rotary", (x, 2**24 + 1, 1e4, interleaved))
            where = f"positions from 2**24 + 1 (odd ones past float32's whole numbers), interleaved={interleaved}"
            expected = _rotary_oracle(in_float64(x), 2**24 + 1, 1e4, interleaved)
            expect_like(reply.value, expected, "apply_rotary(...)", where, torch.float32)

    cases = [keyword_defaults, past_float32_positions]
    cases += [case for contract in ROTARY for case in contract_cases(contract, student, g)]
    # the layout swapped alone: a table of pairs kept from a call in the other layout
    swapped = _one_at_a_time({3: lambda interleaved, g: not interleaved})
    return run_cases("apply_rotary", cases + [lambda: _swapped_layout(student, g, swapped)])


def _swapped_layout(student: Guarded, g: torch.Generator, swapped: Callable[..., list[tuple[Any, ...]]]) -> None:
    """One call, then the same arguments in the other layout: each against the oracle."""
    first = _rotary_args(False)(g, Size((2,), 5))
    for args in [first, *swapped(first, first, g)]:
        reply = student.call("apply_rotary", args)
        where = f"interleaved={args[3]}, called after a call in the other layout"
        expect_like(reply.value, _rotary_oracle(*in_float64(args)), "apply_rotary(...)", where, torch.float32)


# ------------------------------------------------------------------------------- part 2: RMSNorm


def _rms_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    x = _randn(g, *size.lead, size.length, scale=float(_pick(g, (0.05, 1.0, 30.0)))) + float(_pick(g, (0.0, 2.0)))
    return x.to(size.dtype), (1 + _randn(g, size.length, scale=0.5)).to(size.dtype), float(_pick(g, (1e-6, 1e-2, 0.5)))


RMS_NORM = Contract(
    "rms_norm",
    ("x", "gain", "eps"),
    _rms_args,
    lambda x, gain, eps=1e-6: F.rms_norm(x, x.shape[-1:], gain, eps),
    base=Size((2, 3), 8),
    leads=((), (1,), (4,)),
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1),
    scale=10.0,
    views=Size((2, 3), 8),
    options=(("forbid", NO_TORCH_LAYERS),),
    edges=(
        # eps inside the root, not added to it: x near zero, eps 0.5
        ("x near zero, eps 0.5", lambda g, size: (_randn(g, 3, 8, scale=1e-3), 1 + _randn(g, 8, scale=0.5), 0.5)),
        # no centring: every entry of a row offset far from zero
        ("rows offset by 5", lambda g, size: (_randn(g, 3, 8) + 5, 1 + _randn(g, 8, scale=0.5), 1e-6)),
        ("default eps", lambda g, size: (_randn(g, 3, 8, scale=1e-3), 1 + _randn(g, 8, scale=0.5))),
    ),
    # a mean square of 0: eps outside the root (x / (rms + eps)) has the same value there and a NaN gradient (the
    # root's derivative at 0), where the key's is finite (corpus v's LayerNorm)
    singular=(
        ("rows of zeros (mean square 0)", lambda g, size: (torch.zeros(3, 8), 1 + _randn(g, 8, scale=0.5), 1e-6)),
    ),
    initial=at_initial_values(ones=(1,)),
    zeros=(2,),  # the part's visible test passes eps=0.0
)


def check_rms_norm(notebook: Student | dict[str, Any]) -> str | None:
    """``rms_norm(x, gain, eps=1e-6)`` against ``F.rms_norm`` in float64, values and gradients."""
    g = fresh_generator()
    return run_cases("rms_norm", contract_cases(RMS_NORM, as_student(notebook), g))


# ------------------------------------------------------------------------------- part 3: SwiGLU


def _swiglu_oracle(x: Tensor, W_gate: Tensor, W_up: Tensor, W_down: Tensor) -> Tensor:
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down


def _swiglu_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    d, d_ff = 8, _pick(g, (12, 16, 21))
    weights = [_randn(g, d, d_ff, scale=0.5), _randn(g, d, d_ff, scale=0.5), _randn(g, d_ff, d, scale=0.3)]
    return tuple(t.to(size.dtype) for t in (_randn(g, *size.lead, size.length, d), *weights))


def _deep_gates(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``x`` scaled so that the lowest gate ``x W_gate`` is -150, past float32's ``exp`` range: SiLU written
    ``z / (1 + exp(-z))`` keeps its value there (``z / inf``) and its gradient is NaN."""
    lowest = float((args[0] @ args[1]).min())
    return (args[0] * (150.0 / -lowest), *args[1:]) if lowest < 0 else args


SWIGLU = Contract(
    "swiglu",
    ("x", "W_gate", "W_up", "W_down"),
    _swiglu_args,
    _swiglu_oracle,
    base=Size((2,), 5),
    leads=((), (1,), (2, 3)),
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2, 3),
    scale=10.0,
    views=Size((2,), 5),
    again=_one_at_a_time({i: _fresh_like for i in range(4)}),
    # the gate is SiLU of x W_gate: gate and up swapped, or a sigmoid or GELU gate, differ most where the
    # gate is negative
    extremes=(
        ("x 8 times larger (gates far into SiLU's tails)", lambda a: (a[0] * 8, *a[1:]), 10.0),
        ("x scaled until the lowest gate is -150 (exp(150) overflows float32)", _deep_gates, 10.0),
    ),
)


def check_swiglu(notebook: Student | dict[str, Any]) -> str | None:
    """``swiglu(x, W_gate, W_up, W_down)`` against the formula with ``F.silu`` in float64."""
    g = fresh_generator()
    return run_cases("swiglu", contract_cases(SWIGLU, as_student(notebook), g))


# ------------------------------------------------------------- part 4: grouped-query attention


def _gqa_oracle(
    x: Tensor,
    W_q: Tensor,
    W_k: Tensor,
    W_v: Tensor,
    W_o: Tensor,
    n_heads: int,
    n_kv_heads: int,
    cache: tuple[Tensor, Tensor] | None = None,
    base: float = 10000.0,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    """Hugging Face's rotation and ``repeat_kv``, torch's attention with a causal mask aligned to the end."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb, repeat_kv

    B, T, d = x.shape
    d_head = d // n_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = (x @ W_q).view(B, T, n_heads, d_head).transpose(1, 2)
    k = (x @ W_k).view(B, T, n_kv_heads, d_head).transpose(1, 2)
    v = (x @ W_v).view(B, T, n_kv_heads, d_head).transpose(1, 2)
    cos, sin = _cos_sin(P, T, d_head, base)
    q, k = apply_rotary_pos_emb(q, k, torch.cat([cos, cos], -1), torch.cat([sin, sin], -1), unsqueeze_dim=0)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    mask = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    group = n_heads // n_kv_heads
    out = F.scaled_dot_product_attention(q, repeat_kv(k, group), repeat_kv(v, group), attn_mask=mask)
    return out.transpose(1, 2).reshape(B, T, d) @ W_o, (k, v)


def _gqa_weights(g: torch.Generator, d: int, h: int, h_kv: int) -> list[Tensor]:
    d_kv = h_kv * (d // h)
    return [_randn(g, d, d, scale=d**-0.5), _randn(g, d, d_kv, scale=d**-0.5), _randn(g, d, d_kv, scale=d**-0.5)] + [
        _randn(g, d, d, scale=d**-0.5)
    ]


HEADS = ((4, 2), (4, 1), (6, 3), (4, 4), (8, 2))  # (n_heads, n_kv_heads): GQA, MQA, MHA
# Where the way query heads are shared out shows: several key/value heads, each shared by several query heads
# (with one key/value head, or one query head per key/value head, tiling and interleaving coincide).
GROUPED = ((4, 2), (6, 3), (8, 2))


def _gqa_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """A cache of ``size.length`` positions (already rotated keys) and 3 new ones."""
    h, h_kv = _pick(g, HEADS[:3]) if not size.coincide else (4, 4)
    d, B, T = 4 * h, size.lead[0], 3
    cache = (_randn(g, B, h_kv, size.length, d // h), _randn(g, B, h_kv, size.length, d // h))
    tensors = [_randn(g, B, T, d), *_gqa_weights(g, d, h, h_kv)]
    cast = [t.to(size.dtype) for t in tensors]
    return (*cast, h, h_kv, tuple(t.to(size.dtype) for t in cache), _pick(g, BASES))


def _gqa_steps(student: Guarded, g: torch.Generator, size: Size) -> None:
    """A prompt of 4 positions in one call, then 5 steps of one, each given the cache the previous returned;
    every call's output and cache against the oracle on the whole prefix. Heads in groups whatever the draw: a
    path taken for one new position only (decoding) is checked where sharing the heads out can go wrong."""
    h, h_kv = _pick(g, GROUPED)
    d, B, base = 4 * h, 2, _pick(g, BASES)
    x_all = _randn(g, B, 9, d).to(size.dtype)
    weights = [w.to(size.dtype) for w in _gqa_weights(g, d, h, h_kv)]
    cache, ends = None, [4, 5, 6, 7, 8, 9]
    for i, end in enumerate(ends):
        begin = 0 if i == 0 else ends[i - 1]
        where = (
            f"call {i + 1} of {len(ends)} (positions {begin}..{end - 1}), given the cache the previous call "
            f"returned, {size.dtype}"
        )
        args = (x_all[:, begin:end], *weights, h, h_kv, cache, base)
        reply = student.call("grouped_query_attention", args, forbid=NO_TORCH_LAYERS, references=REFERENCE_PARTS)
        value = reply.value
        if not (isinstance(value, tuple | list) and len(value) == 2 and isinstance(value[1], tuple | list)):
            raise CheckFailed(f"grouped_query_attention should return (out, (k, v)), got {kind(value)} ({where})")
        expected = _gqa_oracle(*in_float64((x_all[:, :end], *weights)), h, h_kv, None, base)
        expect_like(value[0], expected[0][:, begin:], "the output", where, size.dtype, 10.0)
        expect_like(value[1], expected[1], "the returned cache (k, v)", where, size.dtype, 10.0)
        cache = tuple(value[1])


GQA = Contract(
    "grouped_query_attention",
    ("x", "W_q", "W_k", "W_v", "W_o", "n_heads", "n_kv_heads", "cache", "base"),
    _gqa_args,
    _gqa_oracle,
    base=Size((2,), 5),
    long=PAST_EVERY_BUFFER,  # the cache's length: a call is linear in it, past a static cache of 4,096
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2, 3, 4, (7, EVERY)),  # the cache's keys and values too: every tensor argument
    scale=10.0,
    options=(("forbid", NO_TORCH_LAYERS), ("references", REFERENCE_PARTS)),
    steps=_gqa_steps,
    state=((7, 1),),  # the cache it returns is the next call's cache
    again=_one_at_a_time({**{i: _fresh_like for i in range(5)}, 7: _fresh_like, 8: _other_base}),
    coincide=True,
    edges=(
        ("no cache (None)", lambda g, size: (*_gqa_args(g, size)[:7], None, 10000.0)),
        ("an empty cache (P = 0)", lambda g, size: _gqa_args(g, Size((2,), 0))),
        ("MQA: one key/value head for 8 query heads", lambda g, size: _mqa_args(g)),
        ("one new position (decoding), heads in groups", lambda g, size: _one_position_args(g)),
    ),
    extremes=(
        ("scores past float32's exp range (x 30 times larger)", lambda a: (a[0] * 30, *a[1:]), 10.0),
        ("every visible score far below -10,000 (keys opposed to queries)", lambda a: _far_below(*a), FAR_BELOW_FACTOR),
    ),
    whole=(8,),
)


FAR = 500.0  # the size of every query and key of the far-below case: scores of at least 500**2 * cos(1) / 2


def _far_below(
    x: Tensor,
    W_q: Tensor,
    W_k: Tensor,
    W_v: Tensor,
    W_o: Tensor,
    n_heads: int,
    n_kv_heads: int,
    cache: tuple[Tensor, Tensor] | None,
    base: float,
) -> tuple[Any, ...]:
    """The arguments made so that every score a query may see lies below -60,000, in any layout the spec allows
    (a causal mask filled with, or added as, -10,000 puts the weight on the future then; -inf or finfo.min not).
    Queries and keys live in each head's slowest rotary pair only (dims d_head/2 - 1 and d_head - 1, turned by
    theta = base^(2/d_head - 1) <= 1 radian a position), read from x's first coordinate (1 + |x_0| > 0, so x's
    other coordinates still make distinct values): queries along the pair's first axis, new keys opposed to
    them and turned one position on, cached keys opposed to the middle new query. Each visible key is then
    within theta (T <= 3 new positions) of pointing against its query: a score below -FAR**2 cos(1) / sqrt(d_head).
    (B, T, d) x, (d, d) W_q, (d, n_kv_heads d_head) W_k; a cache of any length P."""
    B, T, d = x.shape
    d_head, P = d // n_heads, 0 if cache is None else cache[0].shape[2]
    slow, theta = d_head // 2 - 1, base ** (2 / d_head - 1)
    x = x.detach().clone()
    x[..., 0] = 1 + x[..., 0].abs()
    W_q, W_k = torch.zeros_like(W_q), torch.zeros_like(W_k)
    W_q[0, slow::d_head] = FAR  # every query head: FAR x_0 along its slow pair's first axis
    W_k[0, slow::d_head] = -FAR * math.cos(theta)  # every key/value head: opposed, turned one position on
    W_k[0, d_head - 1 :: d_head] = -FAR * math.sin(theta)
    if cache is not None:
        middle = (P + (T - 1) / 2) * theta
        size = FAR * (1 + cache[0].abs()[..., :1])  # (B, n_kv_heads, P, 1): unequal, so one key leads
        cache_k = torch.zeros_like(cache[0])
        cache_k[..., slow : slow + 1] = -size * math.cos(middle)
        cache_k[..., d_head - 1 :] = -size * math.sin(middle)
        cache = (cache_k, cache[1])
    return x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache, base


def _mqa_args(g: torch.Generator) -> tuple[Any, ...]:
    d, B, T, P = 16, 2, 3, 4
    cache = (_randn(g, B, 1, P, 2), _randn(g, B, 1, P, 2))
    return (_randn(g, B, T, d), *_gqa_weights(g, d, 8, 1), 8, 1, cache, 10000.0)


def _one_position_args(g: torch.Generator) -> tuple[Any, ...]:
    h, h_kv = _pick(g, GROUPED)
    d, B, P = 4 * h, 2, 6
    cache = (_randn(g, B, h_kv, P, d // h), _randn(g, B, h_kv, P, d // h))
    return (_randn(g, B, 1, d), *_gqa_weights(g, d, h, h_kv), h, h_kv, cache, _pick(g, BASES))


def check_gqa(notebook: Student | dict[str, Any]) -> str | None:
    """``grouped_query_attention`` against HF's rotation and ``repeat_kv`` with torch's attention."""
    g = fresh_generator()
    return run_cases("grouped_query_attention", contract_cases(GQA, as_student(notebook), g))


# ----------------------------------------------------------------------------- part 5: the block


def _block_weights(g: torch.Generator, d: int, h: int, h_kv: int, d_ff: int) -> dict[str, Tensor]:
    W_q, W_k, W_v, W_o = _gqa_weights(g, d, h, h_kv)
    return {
        "attn_norm": 1 + _randn(g, d, scale=0.3),
        "ffn_norm": 1 + _randn(g, d, scale=0.3),
        "W_q": W_q,
        "W_k": W_k,
        "W_v": W_v,
        "W_o": W_o,
        "W_gate": _randn(g, d, d_ff, scale=d**-0.5),
        "W_up": _randn(g, d, d_ff, scale=d**-0.5),
        "W_down": _randn(g, d_ff, d, scale=d_ff**-0.5),
    }


def _block_oracle(
    x: Tensor,
    p: dict[str, Tensor],
    n_heads: int,
    n_kv_heads: int,
    cache: tuple[Tensor, Tensor] | None = None,
    eps: float = 1e-6,
    base: float = 10000.0,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    normed = F.rms_norm(x, x.shape[-1:], p["attn_norm"], eps)
    attended, cache = _gqa_oracle(normed, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base)
    h = x + attended
    return h + _swiglu_oracle(
        F.rms_norm(h, h.shape[-1:], p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]
    ), cache


def _block_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    h, h_kv = _pick(g, HEADS)
    d, B, T = 4 * h, size.lead[0], 2
    p = {k: v.to(size.dtype) for k, v in _block_weights(g, d, h, h_kv, 3 * d // 2).items()}
    cache = tuple(_randn(g, B, h_kv, size.length, d // h).to(size.dtype) for _ in range(2))
    return (_randn(g, B, T, d).to(size.dtype), p, h, h_kv, cache, float(_pick(g, (1e-6, 1e-5))), _pick(g, BASES))


def _block_against_hf(student: Guarded, g: torch.Generator, size: Size) -> None:
    """Hugging Face's ``LlamaDecoderLayer`` with the student's weights copied in and a ``DynamicCache``:
    a prompt of 5 positions, then one step, then three positions, each call given the cache the previous
    returned."""
    from transformers import LlamaConfig
    from transformers.cache_utils import DynamicCache
    from transformers.models.llama.modeling_llama import LlamaDecoderLayer

    h, h_kv = _pick(g, HEADS)
    d, d_ff, eps, base = 4 * h, 40, 1e-5, _pick(g, BASES)
    config = LlamaConfig(
        hidden_size=d,
        intermediate_size=d_ff,
        num_attention_heads=h,
        num_key_value_heads=h_kv,
        rms_norm_eps=eps,
        rope_theta=base,
        max_position_embeddings=64,
    )
    config._attn_implementation = "eager"
    layer = LlamaDecoderLayer(config, 0).double().eval()
    p = _block_weights(g, d, h, h_kv, d_ff)
    with torch.no_grad():
        layer.input_layernorm.weight.copy_(p["attn_norm"])
        layer.post_attention_layernorm.weight.copy_(p["ffn_norm"])
        for name, module in [("W_q", layer.self_attn.q_proj), ("W_k", layer.self_attn.k_proj)]:
            module.weight.copy_(p[name].T)
        for name, module in [("W_v", layer.self_attn.v_proj), ("W_o", layer.self_attn.o_proj)]:
            module.weight.copy_(p[name].T)
        for name, module in [("W_gate", layer.mlp.gate_proj), ("W_up", layer.mlp.up_proj)]:
            module.weight.copy_(p[name].T)
        layer.mlp.down_proj.weight.copy_(p["W_down"].T)
    x = _randn(g, 2, 9, d).to(size.dtype)
    hf_cache, cache = DynamicCache(), None
    for begin, end in [(0, 5), (5, 6), (6, 9)]:
        where = f"positions {begin}..{end - 1} given the cache of the positions before, against HF's LlamaDecoderLayer"
        positions = torch.arange(begin, end)[None]
        cos, sin = _cos_sin(begin, end - begin, d // h, base)
        mask = torch.full((end - begin, end), float("-inf"), dtype=torch.float64).triu(begin + 1)[None, None]
        with torch.no_grad():
            expected = layer(
                x[:, begin:end].double(),
                attention_mask=mask,
                position_ids=positions,
                cache=hf_cache,
                position_embeddings=(torch.cat([cos, cos], -1)[None], torch.cat([sin, sin], -1)[None]),
                use_cache=True,
            )
        expected = expected[0] if isinstance(expected, tuple) else expected
        args = (x[:, begin:end], {k: v.to(size.dtype) for k, v in p.items()}, h, h_kv, cache, eps, base)
        reply = student.call("llama_block", args, forbid=NO_TORCH_LAYERS, references=REFERENCE_PARTS)
        value = reply.value
        if not (isinstance(value, tuple | list) and len(value) == 2):
            raise CheckFailed(f"llama_block should return (out, cache), got {kind(value)} ({where})")
        # HF's eager attention takes its softmax in float32: judged at float32's tolerance in either dtype
        expect_close(value[0], expected, "the output", where, atol=1e-4, rtol=1e-3)
        if value[0].dtype != size.dtype:
            raise CheckFailed(
                f"the output is {value[0].dtype} for {size.dtype} inputs; keep the inputs' dtype ({where})"
            )
        cache = tuple(value[1])


BLOCK = Contract(
    "llama_block",
    ("x", "p", "n_heads", "n_kv_heads", "cache", "eps", "base"),
    _block_args,
    _block_oracle,
    base=Size((2,), 4),
    long=PAST_EVERY_BUFFER,  # the cache's length: a call is linear in it, past a static cache of 4,096
    dtypes=(torch.float64,),
    differentiable=(0, (1, EVERY), (4, EVERY)),
    scale=10.0,
    options=(("forbid", NO_TORCH_LAYERS), ("references", REFERENCE_PARTS)),
    steps=_block_against_hf,
    state=((4, 1),),
    again=_one_at_a_time({0: _fresh_like, 1: _fresh_like, 4: _fresh_like, 5: lambda eps, g: eps * 100, 6: _other_base}),
    edges=(
        ("no cache, defaults", lambda g, size: _block_args(g, size)[:4]),
        # each norm's eps shows, whatever eps the other cases drew (one of them is the default)
        ("x near zero, eps 0.5", lambda g, size: _small_input_large_eps(_block_args(g, size))),
    ),
    whole=(6,),
    zeros=(5,),
    initial=at_initial_values(ones=((1, "attn_norm"), (1, "ffn_norm"))),
)


def _small_input_large_eps(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``x`` a thousandth of its size and ``eps`` 0.5: both norms divide by about sqrt(eps), not by x's root mean
    square, so an ``eps`` dropped from either norm (its default is 1e-6) changes the output by far."""
    return (args[0] * 1e-3, *args[1:5], 0.5, args[6])


def check_block(notebook: Student | dict[str, Any]) -> str | None:
    """``llama_block`` against the oracles composed, and against HF's ``LlamaDecoderLayer`` over three calls."""
    g = fresh_generator()
    return run_cases("llama_block", contract_cases(BLOCK, as_student(notebook), g))


# The hidden check of each test cell, by the cell's grade id (course grade runs them outside the kernel).
CHECKS: dict[str, Callable[[Student], str | None]] = {
    "test_rotary": check_rotary,
    "test_rms_norm": check_rms_norm,
    "test_swiglu": check_swiglu,
    "test_gqa": check_gqa,
    "test_block": check_block,
}
