"""Hidden checks for assignment a3 (GPT). Instructor-only; never released.

Oracles: ``F.cross_entropy`` on the shifted targets in float64 (part 1); top-k and top-p written
here from their definitions in float64, with inputs drawn so that no cumulative probability lies
within 1e-4 of ``p`` (parts 2 and 3: a correct answer in float32 cannot land on the other side of the
boundary); ``nn.MultiheadAttention`` in float64 with the student's weights copied in, run causally
over the whole sequence (part 4); and a reference sampler replaying the same seed (part 5).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from course_grading.sandbox.calls import Student, probe
from course_grading.sandbox.shortcuts import TORCH_ATTENTION, Rules

from contracts import PAST_EVERY_BUFFER, Contract, Size, contract_cases, expect_like, in_float64
from gradinglib import (
    CheckFailed,
    Guarded,
    as_student,
    describe,
    expect_close,
    expect_equal,
    expect_gradients,
    expect_tensor,
    expect_unchanged,
    fresh_generator,
    kind,
    run_cases,
)

REFERENCE_PARTS = Path(__file__).with_name("a3_gpt_reference_parts.py").read_text()
NO_TORCH_ATTENTION = [
    ("torch.nn.functional", "scaled_dot_product_attention"),
    ("torch.nn", "MultiheadAttention"),
]
# The first line is the refusal above, in the student's process; code there can get round it (a saved
# reference, another name for the kernel), so the grader also reads the submitted source
# (course_grading.sandbox.shortcuts): a part whose code may reach these by any route is held for review.
SHORTCUTS = {"cached_step": Rules(forbid=TORCH_ATTENTION)}


def _randn(g: torch.Generator, *shape: int, scale: float = 1.0) -> Tensor:
    return torch.randn(*shape, generator=g) * scale


def _randint(g: torch.Generator, low: int, high: int) -> int:
    return int(torch.randint(low, high, (1,), generator=g))


# ---------------------------------------------------------------------------- part 1: the loss


def check_lm_loss(notebook: Student | dict[str, Any]) -> str | None:
    """``lm_loss(logits, idx)`` against ``F.cross_entropy`` of the shifted targets, value and gradient."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(B: int, T: int, V: int, scale: float) -> Callable[[], None]:
        def run() -> None:
            logits, idx = _randn(g, B, T, V, scale=scale), torch.randint(0, V, (B, T), generator=g)
            where = describe(logits=logits, idx=idx)
            reply = student.call("lm_loss", (logits, idx), grad_args=(0,))
            x = logits.double().requires_grad_(True)
            expected = F.cross_entropy(x[:, :-1].reshape(-1, V), idx[:, 1:].reshape(-1))
            value = expect_tensor(reply.value, (), "lm_loss(logits, idx)", where)
            # Right float32 variants (F.cross_entropy, log_softmax + gather, logsumexp, a max by hand, loops,
            # float64 inside), 2000 runs each: worst 0.045 of this tolerance (3.5e-5 off a loss of about
            # 100 at scale 100). The wrong answers in the fixtures: at least 8e4 times it.
            expect_close(value, expected, "lm_loss(logits, idx)", where, atol=1e-5, rtol=1e-5)
            failure = "the loss does not depend differentiably on the logits: training needs its gradient"
            (grad,) = expect_gradients(reply, failure, where, count=1)
            # what the reply's gradient is of
            (reference_grad,) = torch.autograd.grad((expected * probe(expected)).sum(), x)
            # float32 puts each gradient entry (p_j - y_j) / N off by about 2^-24 (max|logit| + ln V) p_j / N:
            # measured over 2000 runs, worst 1.3e-6 (logsumexp at scale 100, N = 10: 0.74 of the former
            # atol 1e-6 + rtol |g|, a right answer near failing), the other styles at most 1.4e-7.
            # atol 1e-5 leaves a margin of 7.7; a right loss whose gradient is wrong (the normaliser
            # detached) is off by max p_j / N >= 1 / (V N) >= 2.6e-4 here, 26 times the tolerance.
            expect_close(grad, reference_grad, "the gradient with respect to the logits", where, atol=1e-5, rtol=1e-4)
            expect_unchanged({"logits": logits, "idx": idx}, dict(zip(("logits", "idx"), reply.inputs_after)), where)

        return run

    cases = [
        case(2, 5, 7, 1.0),
        case(1, 2, 3, 3.0),
        case(3, 9, 11, 2.0),
        case(_randint(g, 1, 5), _randint(g, 2, 20), _randint(g, 2, 50), 1.5),
        case(2, 6, 9, 100.0),  # large logits: a softmax without the max subtracted overflows
    ]
    return run_cases("lm_loss", cases + contract_cases(LM_LOSS, student, g))


# ------------------------------------------------------------------------- parts 2 and 3: filters


def _ref_top_k(logits: Tensor, k: int) -> Tensor:
    kth = logits.sort(dim=-1, descending=True).values[..., k - 1 : k]  # (..., 1)
    return logits.masked_fill(logits < kth, float("-inf"))


def _ref_top_p(logits: Tensor, p: float) -> Tensor:
    probs = logits.double().softmax(dim=-1)
    order = probs.argsort(dim=-1, descending=True)
    sorted_probs = probs.gather(-1, order)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs  # what the more likely tokens already cover
    keep_sorted = (before < p) | (p >= 1)  # p = 1: the whole vocabulary, however its sum rounds
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))


def _safe_p(g: torch.Generator, logits: Tensor, margin: float = 1e-4) -> float:
    """A p in (0.05, 0.98) at least 1e-4 away from every cumulative probability of every row.

    A right float32 top-p is off by at most V * 2**-24 (2e-6 at V = 30) in a cumulative sum, so it
    cannot land on the other side of p: it fails with probability 0. A try is refused with probability
    at most 240 * 2e-4 / 0.93 = 0.052 (the largest case has 240 cumulative values), so all 1000 are
    with probability below 10**-1280."""
    cumulative = logits.double().softmax(-1).sort(dim=-1, descending=True).values.cumsum(-1).flatten()
    for _ in range(1000):
        p = 0.05 + 0.93 * float(torch.rand((), generator=g, dtype=torch.float64))
        if bool(((cumulative - p).abs() > margin).all()):
            return p
    raise RuntimeError("no safe p found")  # pragma: no cover (vanishingly unlikely)


def check_top_k(notebook: Student | dict[str, Any]) -> str | None:
    """``top_k_filter(logits, k)`` against the definition: exact values, -inf elsewhere, ties kept."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(logits: Tensor, k: int, label: str) -> Callable[[], None]:
        def run() -> None:
            where = f"{label}: " + describe(logits=logits, k=k)
            reply = student.call("top_k_filter", (logits, k))
            expect_equal(reply.value, _ref_top_k(logits, k), "top_k_filter(logits, k)", where)
            expect_unchanged({"logits": logits}, {"logits": reply.inputs_after[0]}, where)

        return run

    V = _randint(g, 5, 60)
    ties = torch.randint(0, 4, (3, 12), generator=g).float()  # many equal logits
    # and the largest tied too, in two places of every row
    ties.scatter_(1, torch.stack([torch.randperm(12, generator=g)[:2] for _ in range(3)]), 4.0)
    cases = [
        case(_randn(g, 2, 10), 3, "a batch of rows"),
        case(_randn(g, 10), 1, "one row, k = 1"),
        case(_randn(g, 2, 3, V), V, f"k = V = {V}: nothing is removed"),
        case(_randn(g, 4, V, scale=5.0) - 20.0, _randint(g, 2, V), "negative logits"),
        # at every k: a fast path for k = 1 (an argmax) or for k = V drops or keeps ties by its own rule (corpus v)
        *(case(ties, k, f"ties with the k-th largest are kept, k = {k}") for k in range(1, 13)),
        case(torch.tensor([[2.0, 7.0, 7.0, 1.0, 7.0]]), 2, "three equal largest logits, k = 2"),
        case(_randn(g, 3, 9).double(), 4, "float64 logits keep their dtype"),
        # the k largest a hair apart at a large magnitude among many small logits: a threshold interpolated
        # between the k-th and the (k+1)-th largest (a quantile) rounds onto the (k+1)-th in float32 and keeps it
        case(_crowded_top(g, 1000, 1, 1000.0, 1e-3), 1, "two largest logits 0.001 apart at 1,000, V = 1,000"),
        case(_crowded_top(g, 1000, 3, 1000.0, 1e-3).double(), 3, "the same in float64, k = 3"),
    ]
    return run_cases("top_k_filter", cases + contract_cases(TOP_K, student, g))


def _ranks(logits: Tensor) -> Tensor:
    """(..., V) -> (..., V): each logit's rank in its row (0 for the least; ties broken by place), in its dtype."""
    return logits.argsort(dim=-1).argsort(dim=-1).to(logits.dtype)


def _crowded_top(g: torch.Generator, V: int, k: int, at: float, gap: float) -> Tensor:
    """(1, V) logits of order 1 but for the k + 1 largest, ``at``, ``at + gap``, ... (k + 1 values ``gap``
    apart, all distinct in float32 at 1,000), at random places: exactly k of them are the k largest."""
    logits = _randn(g, 1, V)
    places = torch.randperm(V, generator=g)[: k + 1]
    logits[0, places] = at + gap * torch.arange(k + 1, dtype=torch.float32)
    return logits


def check_top_p(notebook: Student | dict[str, Any]) -> str | None:
    """``top_p_filter(logits, p)`` against the definition: the smallest most-likely set with probability >= p.

    Sums taken in float32 for float64 logits (a softmax or cumulative sum in float32, with p compared in either
    dtype) fail on every draw: probabilities 0.5 +- 1e-9 with p on each side of the float64 sum (bound 0); p a
    millionth of a millionth from a random row's sum catches them on some draws only."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(logits: Tensor, label: str, p: float | None = None) -> Callable[[], None]:
        def run() -> None:
            chosen = _safe_p(g, logits) if p is None else p
            where = f"{label}: " + describe(logits=logits, p=round(chosen, 4))
            reply = student.call("top_p_filter", (logits, chosen))
            expected = _ref_top_p(logits, chosen)
            value = expect_tensor(reply.value, tuple(logits.shape), "top_p_filter(logits, p)", where)
            kept, should = torch.isfinite(value), torch.isfinite(expected)
            if not torch.equal(kept, should):
                extra, missing = int((kept & ~should).sum()), int((should & ~kept).sum())
                raise CheckFailed(
                    f"top_p_filter(logits, p) keeps {extra} token(s) too many and {missing} too few ({where})"
                )
            expect_equal(value, expected, "top_p_filter(logits, p)", where)
            expect_unchanged({"logits": logits}, {"logits": reply.inputs_after[0]}, where)

        return run

    def tied() -> None:
        # probabilities (0.4, 0.2, 0.2, 0.2) and (0.3, 0.3, 0.3, 0.1), each row in its own order, p = 0.5: the
        # smallest set is two tokens in each row, one of them any of the tied ones (softmax gives equal logits
        # equal probabilities exactly; every cumulative sum is 0.1 away from p)
        probs = torch.tensor([[0.4, 0.2, 0.2, 0.2], [0.3, 0.3, 0.3, 0.1]])
        logits = probs.gather(-1, torch.stack([torch.randperm(4, generator=g) for _ in range(2)])).log()
        where = "ties at the boundary of the set: " + describe(logits=logits, p=0.5)
        reply = student.call("top_p_filter", (logits, 0.5))
        value = expect_tensor(reply.value, (2, 4), "top_p_filter(logits, p)", where)
        kept, likely = torch.isfinite(value), logits.softmax(-1)
        size = torch.isfinite(_ref_top_p(logits, 0.5)).sum(-1, keepdim=True)  # how many tokens the set has
        last = likely.sort(-1, descending=True).values.gather(-1, size - 1)  # the probability of its last token
        if not (torch.equal(kept.sum(-1, keepdim=True), size) and bool((kept >= (likely > last)).all())):
            raise CheckFailed(
                "top_p_filter(logits, p) should keep the smallest set (two tokens in each row): of the tokens tied "
                f"with the last one needed, only as many as the set needs ({where})"
            )
        if bool((kept & (likely < last)).any()):
            raise CheckFailed(f"top_p_filter(logits, p) keeps a token less likely than the tied ones ({where})")
        expect_equal(value[kept], logits[kept], "the kept logits", where)

    halves = torch.tensor([[0.5 + 1e-9, 0.5 - 1e-9], [0.5 - 1e-9, 0.5 + 1e-9]], dtype=torch.float64).log()

    def near_sum(offset: float) -> Callable[[], None]:
        logits, p = _p_near_a_sum(g, offset)
        return case(logits, f"p {offset:+g} from the sum of the j most likely probabilities of row 0 (float64)", p=p)

    cases = [
        tied,
        case(_randn(g, 3, 10, scale=2.0), "a batch of rows"),
        case(_randn(g, 20), "one row"),
        case(_randn(g, 2, 4, 30, scale=3.0), "three axes"),
        case(_randn(g, 5, 8, scale=0.3), "flat distributions: many tokens needed"),
        case(_randn(g, 5, 8, scale=6.0), "peaked distributions: few tokens needed"),
        case(torch.tensor([[0.5, 0.05, 0.3, 0.15]]).log(), "probabilities (0.5, 0.05, 0.3, 0.15)", p=0.7),
        case(torch.tensor([[5.0, 0.0, 0.0]]), "one dominant token, p = 0.1: it alone is kept", p=0.1),
        # a float32 cumulative sum reaches 1 long before the end of 50,000 tokens: the tail must stay
        case(_randn(g, 2, 50_000, scale=3.0), "p = 1 over 50,000 tokens: every token kept", p=1.0),
        # float64 resolves a cumulative sum to about 1e-15: p a millionth of a millionth past the sum of the j most
        # likely tokens needs token j + 1 too (a float32-sized tolerance on the comparison drops it), and p that
        # far under it does not
        near_sum(1e-12),
        near_sum(-1e-12),
        # float64 probabilities a billionth from 0.5, p between the float64 sum and its float32 rounding: a softmax or
        # cumulative sum taken in float32 lands on the wrong side of one of the two, whichever dtype p is compared in
        # (corpus m: near_sum's random rows caught it on some draws only)
        case(halves, "probabilities 0.5 +- 1e-9 (float64), p = 0.5 + 5e-10: the likelier token alone", p=0.5 + 5e-10),
        case(halves, "probabilities 0.5 +- 1e-9 (float64), p = 0.5 + 2e-9: both tokens", p=0.5 + 2e-9),
    ]
    return run_cases("top_p_filter", cases + contract_cases(TOP_P, student, g))


def _p_near_a_sum(g: torch.Generator, offset: float) -> tuple[Tensor, float]:
    """float64 logits (3, 12) and a p ``offset`` from the sum of the j most likely probabilities of row 0 (j drawn
    in 2..9), every other cumulative sum of every row at least 1e-6 away from p."""
    while True:
        logits = _randn(g, 3, 12, scale=2.0).double()
        cumulative = logits.softmax(-1).sort(dim=-1, descending=True).values.cumsum(-1)
        p = float(cumulative[0, _randint(g, 1, 9)]) + offset
        others = (cumulative - p).abs()
        if 0.02 < p < 0.98 and int((others < 1e-6).sum()) == 1:
            return logits, p


# ------------------------------------------------------------------------ part 4: the KV cache


def _split(t: Tensor, h: int) -> Tensor:
    B, T, d = t.shape
    return t.view(B, T, h, d // h).transpose(1, 2)  # (B, h, T, d_head)


@torch.no_grad()
def _ref_last_position(x_all: Tensor, W: dict[str, Tensor], h: int) -> Tensor:
    """The last position's output of causal multi-head self-attention over x_all (B, T, d), float64."""
    B, T, d = x_all.shape
    mha = nn.MultiheadAttention(d, h, bias=False, batch_first=True).double().eval()
    mha.in_proj_weight.copy_(torch.cat([W["W_q"].T, W["W_k"].T, W["W_v"].T]).double())
    mha.out_proj.weight.copy_(W["W_o"].T.double())
    causal = torch.ones(T, T, dtype=torch.bool).triu(1)  # torch: True = may not attend
    out, _ = mha(x_all.double(), x_all.double(), x_all.double(), attn_mask=causal, need_weights=False)
    return out[:, -1:]


def check_cached_step(notebook: Student | dict[str, Any]) -> str | None:
    """``cached_attention_step`` against ``nn.MultiheadAttention`` run causally over the whole sequence."""
    g = fresh_generator()
    student = as_student(notebook)
    torch.backends.mha.set_fastpath_enabled(False)

    def case(B: int, P: int, d: int, h: int) -> Callable[[], None]:
        def run() -> None:
            x_all = _randn(g, B, P + 1, d)
            W = {name: _randn(g, d, d, scale=d**-0.5) for name in ("W_q", "W_k", "W_v", "W_o")}
            cache_k, cache_v = _split(x_all[:, :P] @ W["W_k"], h), _split(x_all[:, :P] @ W["W_v"], h)
            x = x_all[:, P:].clone()
            where = describe(x=x, cache_k=cache_k, n_heads=h)
            args = (x, cache_k, cache_v, W["W_q"], W["W_k"], W["W_v"], W["W_o"], h)
            reply = student.call("cached_attention_step", args, forbid=NO_TORCH_ATTENTION)
            if not isinstance(reply.value, tuple | list) or len(reply.value) != 3:
                raise CheckFailed(f"cached_attention_step should return (out, k, v), got {kind(reply.value)} ({where})")
            out, k, v = reply.value
            d_head = d // h
            expect_tensor(k, (B, h, P + 1, d_head), "the returned keys", where)
            for returned, weight, what in ((k, "W_k", "key"), (v, "W_v", "value")):
                expected = _split(x_all @ W[weight], h)
                label = f"the returned {what}s (cache, then the new {what}, along the time axis)"
                expect_close(returned, expected, label, where, atol=1e-5, rtol=1e-4)
            expect_close(out, _ref_last_position(x_all, W, h), "the output", where, atol=1e-5, rtol=1e-4)
            names = ("x", "cache_k", "cache_v")
            expect_unchanged(dict(zip(names, args[:3])), dict(zip(names, reply.inputs_after[:3])), where)

        return run

    cases = [
        case(1, 0, 8, 2),
        case(2, 1, 8, 2),
        case(2, 5, 12, 3),
        case(3, _randint(g, 2, 12), 16, 4),
        case(1, 7, 6, 1),
    ]
    return run_cases("cached_attention_step", cases + contract_cases(CACHED_STEP, student, g))


# ------------------------------------------------------------------------------------ contracts
# The loss takes any batch and length; the filters any leading dimensions (already in their cases) and
# any vocabulary; the cached step any cache length, and its protocol is run step by step, each step's
# keys and values fed to the next.


def _lm_loss_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    return _randn(g, *size.lead, size.length, 7, scale=2.0).to(size.dtype), torch.randint(
        0, 7, (*size.lead, size.length), generator=g
    )


def _top_p_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """Logits over ``size.length`` tokens and a p no cumulative probability comes near: a right float32
    answer is off by at most V 2^-24 in a cumulative sum; the margin is five times that."""
    while True:
        logits = _randn(g, *size.lead, size.length, scale=3.0).to(size.dtype)
        try:
            return logits, _safe_p(g, logits, margin=max(1e-4, 5 * size.length * 2**-24))
        except RuntimeError:
            continue


def _logits_for(g: torch.Generator, logits: Tensor, p: float) -> Tensor:
    """Other logits of ``logits``' shape and dtype for which ``p`` is as safe as :func:`_top_p_args` makes it."""
    margin = max(1e-4, 5 * logits.shape[-1] * 2**-24)
    while True:
        other = _randn(g, *logits.shape, scale=3.0).to(logits.dtype)
        cumulative = other.double().softmax(-1).sort(dim=-1, descending=True).values.cumsum(-1)
        if bool(((cumulative - p).abs() > margin).all()):
            return other


def _cached_oracle(
    x: Tensor, cache_k: Tensor, cache_v: Tensor, W_q: Tensor, W_k: Tensor, W_v: Tensor, W_o: Tensor, h: int
) -> tuple[Tensor, Tensor, Tensor]:
    """The step written with torch's attention: the newest position sees every cached one and itself."""
    k, v = torch.cat([cache_k, _split(x @ W_k, h)], dim=2), torch.cat([cache_v, _split(x @ W_v, h)], dim=2)
    out = F.scaled_dot_product_attention(_split(x @ W_q, h), k, v)
    return out.transpose(1, 2).flatten(-2) @ W_o, k, v


def _cached_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    B, d, h = size.lead[0], 12, 3
    x, cache_k, cache_v = _randn(g, B, 1, d), _randn(g, B, h, size.length, d // h), _randn(g, B, h, size.length, d // h)
    weights = [_randn(g, d, d, scale=d**-0.5) for _ in range(4)]
    return (*(t.to(size.dtype) for t in (x, cache_k, cache_v, *weights)), h)


def _cached_protocol(student: Guarded, g: torch.Generator, size: Size) -> None:
    """``size.length`` steps from an empty cache, each fed the keys and values the previous one returned;
    every step's output against attention over the whole prefix."""
    B, d, h = 2, 12, 3
    x_all = _randn(g, B, size.length, d).to(size.dtype)
    weights = [_randn(g, d, d, scale=d**-0.5).to(size.dtype) for _ in range(4)]
    k = v = torch.zeros(B, h, 0, d // h, dtype=size.dtype)
    for t in range(size.length):
        where = (
            f"step {t + 1} of {size.length} from an empty cache, each step given the keys and values the "
            f"previous returned, {size.dtype}"
        )
        reply = student.call(
            "cached_attention_step", (x_all[:, t : t + 1], k, v, *weights, h), forbid=NO_TORCH_ATTENTION
        )
        if not isinstance(reply.value, tuple | list) or len(reply.value) != 3:
            raise CheckFailed(f"cached_attention_step should return (out, k, v), got {kind(reply.value)} ({where})")
        out, k, v = reply.value
        expect_tensor(k, (B, h, t + 1, d // h), "the returned keys", where)
        expect_tensor(v, (B, h, t + 1, d // h), "the returned values", where)
        prefix, weights64 = in_float64(x_all[:, : t + 1]), in_float64(weights)
        cache = (_split(prefix[:, :t] @ weights64[1], h), _split(prefix[:, :t] @ weights64[2], h))
        expected = _cached_oracle(prefix[:, t:], *cache, *weights64, h)
        expect_like(out, expected[0], "the output", where, size.dtype)


LM_LOSS = Contract(
    "lm_loss",
    ("logits", "idx"),
    _lm_loss_args,
    lambda logits, idx: F.cross_entropy(logits[..., :-1, :].flatten(0, -2), idx[..., 1:].flatten()),
    leads=((1,),),
    long=1100,
    differentiable=(0,),
    extremes=(("logits offset by 100 (exp overflows float32)", lambda a: (a[0] + 100, a[1]), 10.0),),
    shortest=2,  # "T >= 2"
)
TOP_K = Contract(
    "top_k_filter",
    ("logits", "k"),
    lambda g, size: (_randn(g, *size.lead, size.length).to(size.dtype), _randint(g, 1, size.length + 1)),
    _ref_top_k,
    base=Size((2,), 10),
    leads=((), (1,), (2, 3)),
    long=3000,
    dtypes=(torch.float64,),
    # the k largest logits, not probabilities: the logits' ranks times 1,000 (e^-1000 underflows in float32 and
    # float64 alike), every probability but the largest is 0, so with k between 2 and V - 1 a choice by probabilities
    # keeps all V on every draw (logits merely scaled by 1,000 left the k-th probability above 0 on 1 draw in 200)
    extremes=(
        (
            "logits 1,000 apart (their ranks times 1,000: every softmax probability but the largest underflows to 0)",
            lambda a: (_ranks(a[0]) * 1000, min(max(a[1], 2), a[0].shape[-1] - 1)),
            1.0,
        ),
    ),
)
# the filters keep the logits' dtype: top_k's own cases say so
TOP_P = Contract(
    "top_p_filter",
    ("logits", "p"),
    _top_p_args,
    _ref_top_p,
    base=Size((2,), 10),
    leads=((), (1,), (2, 3)),
    long=3000,
    dtypes=(torch.float64,),
    again=lambda first, fresh, g: [(first[0], _safe_p(g, first[0], margin=1e-4)), (_logits_for(g, *first), first[1])],
    # a softmax without its maximum subtracted overflows; the offset moves a float32 cumulative sum by far
    # less than _top_p_args' margin of 1e-4
    extremes=(
        ("logits offset by 100 (exp overflows float32)", lambda a: (a[0] + 100, a[1]), 1.0),
        # gaps of hundreds: probabilities underflow to 0 (float32's below e^-104), a safe p keeps one token
        ("logits scaled by 100 (small probabilities underflow to 0)", lambda a: (a[0] * 100, a[1]), 1.0),
    ),
    edges=(
        (
            "p = 1: every token kept",
            lambda g, size: (_randn(g, *size.lead, size.length, scale=3.0).to(size.dtype), 1.0),
        ),
    ),
)
CACHED_STEP = Contract(
    "cached_attention_step",
    ("x", "cache_k", "cache_v", "W_q", "W_k", "W_v", "W_o", "n_heads"),
    _cached_args,
    _cached_oracle,
    leads=(),
    long=PAST_EVERY_BUFFER,  # one position against the cache: linear in its length, past a static cache of 4,096
    differentiable=(0, 1, 2, 3, 4, 5, 6),
    options=(("forbid", NO_TORCH_ATTENTION),),
    steps=_cached_protocol,
    state=((1, 1), (2, 2)),  # the keys and values it returns are the next step's cache
    extremes=(("scores past float32's exp range (x 40 times larger)", lambda a: (a[0] * 40, *a[1:]), 10.0),),
)


# ---------------------------------------------------------------------- part 5: the generation loop


def _ref_generate(
    idx: Tensor,
    n: int,
    W: Tensor,
    U: Tensor,
    temperature: float,
    seed: int | None,
    generator: torch.Generator | None = None,
) -> Tensor:
    """The reference sampler; ``generator``, if given, is used (and advanced) in place of the seed's."""
    if generator is None and seed is not None:
        generator = torch.Generator().manual_seed(seed)
    for _ in range(n):
        prefix = idx.cumsum(dim=1) % W.shape[0]
        logits = (W[idx] + U[prefix])[:, -1]  # (B, V)
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial((logits / temperature).softmax(dim=-1), 1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx


# How far below the winning score p_i / e_i of torch.multinomial's draw (one sample: the argmax of
# the probabilities over exponential draws e) a student's token may score and still count as that
# draw: a right softmax in another style (float64, exp over the sum, logits * (1 / temperature))
# moves each probability by at most 2.2e-6 relative (measured over 1e7 draws of this check's logits),
# so it can pick the runner-up only when the two top scores are within 4.4e-6; 1e-4 leaves a margin
# of 20. A wrong token scores within 1e-4 of the winner in 3e-5 to 7e-5 of the draws (measured).
TIE_TOLERANCE = 1e-4


def _expect_replayed(
    value: Any, idx: Tensor, n: int, W: Tensor, U: Tensor, temperature: float, seed: int | torch.Generator, where: str
) -> None:
    """Replay the student's sequence step by step from ``seed`` (or from a generator's state, which the replay
    advances as the student's draws should: a stream over several calls): each new token must be the
    reference's, or (when sampling) score within :data:`TIE_TOLERANCE` of it in torch.multinomial's
    own draw; the replay goes on from the student's tokens."""
    B, T = idx.shape
    tokens = expect_tensor(value, (B, T + n), "the generated sequence", where, dtype=torch.long)
    if not torch.equal(tokens[:, :T], idx):
        raise CheckFailed(f"the generated sequence does not start with the prompt ({where})")
    generator = seed if isinstance(seed, torch.Generator) else torch.Generator().manual_seed(seed)
    for step in range(n):
        prefix, chosen = tokens[:, : T + step], tokens[:, T + step]
        logits = (W[prefix] + U[prefix.cumsum(dim=1) % W.shape[0]])[:, -1]  # (B, V)
        if temperature == 0:
            top = logits.amax(dim=-1)  # a float32 tie (an argmax of the probabilities) may pick either
            accepted = logits.gather(1, chosen.clamp(0, W.shape[0] - 1)[:, None])[:, 0] >= top - 1e-5 * top.abs().clamp(
                min=1.0
            )
            accepted &= (chosen >= 0) & (chosen < W.shape[0])
        else:
            probs = (logits / temperature).softmax(dim=-1)
            replay = torch.Generator()
            replay.set_state(generator.get_state())
            expected = torch.multinomial(probs, 1, generator=generator)[:, 0]
            scores = probs / torch.empty_like(probs).exponential_(generator=replay)
            accepted = chosen == expected
            if torch.equal(scores.argmax(dim=-1), expected):  # the draw is the argmax of the scores (torch 2.x)
                in_range = (chosen >= 0) & (chosen < W.shape[0])
                near = scores.gather(1, chosen.clamp(0, W.shape[0] - 1)[:, None])[:, 0] >= scores.amax(dim=-1) * (
                    1 - TIE_TOLERANCE
                )
                accepted = accepted | (in_range & near)
        if not bool(accepted.all()):
            raise CheckFailed(
                f"the generated sequence differs from the expected tokens at new token {step + 1} (row "
                f"{int((~accepted).nonzero()[0])}) ({where})"
            )


def _generate_args(
    seed: int | None = None, temperature: float = 1.0
) -> Callable[[torch.Generator, Size], tuple[Any, ...]]:
    """A prompt of ``size.length`` tokens over 9, random tables, 6 new tokens at ``temperature`` (``seed``,
    or a drawn one)."""

    def make(g: torch.Generator, size: Size) -> tuple[Any, ...]:
        idx = torch.randint(0, 9, (*size.lead, size.length), generator=g)
        W, U = _randn(g, 9, 9, scale=2.0), _randn(g, 9, 9, scale=2.0)
        return idx, 6, W, U, temperature, _randint(g, 0, 2**31) if seed is None else seed

    return make


def _same_prompt_in_every_row(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """Eight rows of one prompt under near-flat tables: each row draws its own token at every step (all eight
    alike has probability about 9**-7 a step), so an answer that samples once per distinct history and copies the
    draw to the rows that share it shows on every draw (corpus r: caught on one run of two by chance)."""
    idx = torch.randint(0, 9, (1, size.length), generator=g).expand(8, -1).clone()
    W, U = _randn(g, 9, 9, scale=0.1), _randn(g, 9, 9, scale=0.1)
    return idx, 6, W, U, 1.0, _randint(g, 0, 2**31)


def _tied_tiny_temperature(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """Eight prompts under tables whose two largest logits tie exactly for every token and every prefix sum (``U`` 0),
    at temperature 1e-6: each step draws one of the two tied tokens at odds 1/2, however small the temperature (corpus
    s: temperatures below 1e-4 taken as greedy picked the first of them every time; it passes with odds 2**-48)."""
    idx = torch.randint(0, 9, (8, size.length), generator=g)
    W = _randn(g, 9, 9, scale=2.0)
    top = W.amax(dim=1) + 1.0
    W[:, 3], W[:, 7] = top, top
    return idx, 6, W, torch.zeros(9, 9), 1e-6, _randint(g, 0, 2**31)


def _greedy_tables(g: torch.Generator, V: int) -> tuple[Tensor, Tensor, Tensor]:
    """A prompt (2, 1) and tables ``W``, ``U = 0`` (V, V) whose greedy path visits every token: the next
    token after ``t`` is ``after[t]``, one cycle through all V ids (drawn). Each row of ``W`` keeps its
    maximum apart from the rest by 0.5 or more and, wherever the maximum is not at id 0, puts it where a
    transform that is monotone only for finite logits picks another token: half the rows (drawn) are all
    negative (``logits / 0`` is all ``-inf``, whose argmax is id 0), the others hold a smaller positive logit
    at an earlier id (``logits / 0`` turns both into ``+inf``, whose argmax is the first) and a zero (0 / 0
    is NaN, which argmax takes as the largest)."""
    order = torch.randperm(V, generator=g)
    after = torch.empty(V, dtype=torch.long)
    after[order] = order.roll(-1)  # one cycle through every id
    W = torch.empty(V, V)
    negative = torch.rand(V, generator=g) < 0.5
    for t in range(V):
        top = int(after[t])
        if negative[t] and top != 0:
            row = -(torch.rand(V, generator=g) * 2 + 1.0)  # in (-3, -1]
            row[top] = -0.5
        else:
            row = torch.rand(V, generator=g) * 2 - 3.0  # in [-3, -1)
            row[top] = 3.0
            earlier = [i for i in range(V) if i < top]
            if earlier:
                row[earlier[int(torch.randint(len(earlier), (1,), generator=g))]] = 2.5
            negatives = [i for i in range(V) if row[i] < 0]
            row[negatives[int(torch.randint(len(negatives), (1,), generator=g))]] = 0.0
        W[t] = row
    idx = torch.randperm(V, generator=g)[:2, None]
    return idx, W, torch.zeros(V, V)


def _expect_generated(value: Any, args: tuple[Any, ...], where: str, size: Size) -> None:
    idx, n, W, U, temperature, seed = args
    _expect_replayed(value, idx, n, W, U, temperature, seed, where)


# A batch of prompts (B, T); a prompt past any fixed context (the next token depends on the whole
# sequence: a prompt cropped to a model's context shows); seed 0 is a seed like any other.
LONGEST_CONTEXT = 131_172  # past 2**17, Llama 3.1's context (corpus s cropped at 16,384, past the 1,030 then)
GENERATE = Contract(
    "generate",
    ("idx", "max_new_tokens", "W", "U", "temperature", "seed"),
    _generate_args(),
    None,
    base=Size((2,), 3),
    leads=((1,),),
    long=LONGEST_CONTEXT,
    verify=_expect_generated,
    options=(("references", REFERENCE_PARTS),),
    # greedy decoding at temperature 0, also given as the int 0 (the whole-number edge)
    edges=(
        ("seed 0 is a seed too", _generate_args(seed=0)),
        ("temperature 0: greedy", _generate_args(temperature=0.0)),
        ("one prompt in eight rows, near-flat tables (each row its own draws)", _same_prompt_in_every_row),
        ("temperature 1e-6 with the two largest logits tied (each drawn at its odds)", _tied_tiny_temperature),
    ),
    # a softmax of logits / 0.01 without the maximum subtracted overflows; the draws stay the reference's
    extremes=(
        ("temperature 0.01 (logits / temperature past float32's exp range)", lambda a: (*a[:4], 0.01, a[5]), 1.0),
    ),
    whole=(4,),
)


# Run beside the student's code: calls of ``generate`` one after another, torch's global generator seeded once first.
IN_A_ROW_DRIVER = """
def _grading_in_a_row(seed, *calls):
    import torch

    torch.manual_seed(seed)
    return [generate(*args) for args in calls]
"""


def check_generate(notebook: Student | dict[str, Any]) -> str | None:
    """``generate(idx, max_new_tokens, W, U, temperature, seed)`` replayed by a reference sampler.

    Per run (the 10 seeded cases, the contract's among them, draw 324 tokens, 272 of them sampled, then two unseeded
    checks):

    - a right answer fails with probability 0 if its probabilities are within 5e-5 (relative) of
      ``softmax(logits / temperature)`` in float32 (every float32 or float64 style measured: 2.2e-6 at
      most), since a near-tie within :data:`TIE_TOLERANCE` counts as the same draw; the unseeded check
      fails it if two unseeded 64-token draws, uniform over 8 tokens, agree: 8**-64 = 1.6e-58, and the
      global-seed check if its draws equal one of two fixed sequences: 2 * 8**-64 = 3.2e-58;
    - a wrong answer passes (sequential importance sampling over these cases, 200-300 draws each):
      the temperature ignored (or applied after the softmax) 10**-21.6; a new generator every step
      10**-41.8; the first position's logits 10**-73.0; the newest token only
      10**-42.4; ``if seed:`` (seed 0 sampled from the global generator) 10**-23.6; a wrong
      length, torch.manual_seed, an unseeded generator with a fixed default seed, W or U changed in
      place, a private generator for ``seed=None`` (seeded with ``torch.initial_seed()``: it replays the global
      stream without moving it), a greedy step that draws: 0 (a deterministic comparison; the last two in the
      in-a-row case, unseeded calls one after another); greedy decoding through a transform monotone only for finite
      logits (the argmax of ``logits / 0``, or of its softmax): 0 (the designed greedy case's path meets rows
      of all negative logits, of an earlier smaller positive one and of a zero; the drawn greedy case alone
      let such an answer through on 1 of 4 runs); a small temperature taken as greedy: 2**-48 (the tied edge at
      1e-6); a prompt cropped to a context of at most 2**17 tokens: only where each of the long case's 12 draws
      happens to coincide (its prefix sums, and so its tables' rows, differ in 8 of 9 cases).
    """
    g = fresh_generator()
    student = as_student(notebook)

    def case(
        B: int, T: int, V: int, n: int, temperature: float, label: str, seed: int | None = None
    ) -> Callable[[], None]:
        def run() -> None:
            idx = torch.randint(0, V, (B, T), generator=g)
            W, U = _randn(g, V, V, scale=2.0), _randn(g, V, V, scale=2.0)
            chosen = _randint(g, 0, 2**31) if seed is None else seed
            where = f"{label}: " + describe(idx=idx, max_new_tokens=n, V=V, temperature=temperature, seed=chosen)
            reply = student.call("generate", (idx, n, W, U, temperature, chosen), references=REFERENCE_PARTS)
            _expect_replayed(reply.value, idx, n, W, U, temperature, chosen, where)
            after = reply.inputs_after
            expect_unchanged({"idx": idx, "W": W, "U": U}, {"idx": after[0], "W": after[2], "U": after[3]}, where)

        return run

    def greedy_designed() -> None:
        """Greedy decoding along a path through every token whose rows break every transform that is
        monotone only for finite logits (``logits / 0``, its softmax): the argmax of the raw logits only."""
        V = 8
        idx, W, U = _greedy_tables(g, V)
        chosen = _randint(g, 0, 2**31)
        where = (
            "greedy, tables built so that no transform monotone only for finite logits finds the argmax: "
            + describe(idx=idx, max_new_tokens=2 * V, V=V, temperature=0.0, seed=chosen)
        )
        reply = student.call("generate", (idx, 2 * V, W, U, 0.0, chosen), references=REFERENCE_PARTS)
        _expect_replayed(reply.value, idx, 2 * V, W, U, 0.0, chosen, where)

    def unseeded() -> None:
        """Without a seed, sampling draws from torch's global generator: two calls differ."""
        idx, W, U = torch.zeros(4, 1, dtype=torch.long), torch.zeros(8, 8), torch.zeros(8, 8)  # uniform over 8 tokens
        first, second = (
            student.call("generate", (idx, 16, W, U, 1.0, None), references=REFERENCE_PARTS, global_rng=True).value
            for _ in range(2)
        )
        expect_tensor(first, (4, 17), "the generated sequence", "seed=None")
        if torch.equal(first, second):
            raise CheckFailed(
                "two calls without a seed gave the same 64 uniformly sampled tokens: without a seed, use torch's "
                "global random generator (generator=None)"
            )

    def global_seed() -> None:
        """With a seed, sampling leaves torch's global generator alone: an unseeded call after a
        seeded one must not continue (or restart) the seed's stream."""
        idx, W, U = torch.zeros(4, 1, dtype=torch.long), torch.zeros(8, 8), torch.zeros(8, 8)  # uniform over 8 tokens
        seed = _randint(g, 0, 2**31)
        student.call("generate", (idx, 16, W, U, 1.0, seed), references=REFERENCE_PARTS)
        unseeded = student.call(
            "generate", (idx, 16, W, U, 1.0, None), references=REFERENCE_PARTS, global_rng=True
        ).value
        continued = torch.Generator().manual_seed(seed)
        _ref_generate(idx, 16, W, U, 1.0, None, generator=continued)  # the seeded call's draws
        after_seeded_draws = _ref_generate(idx, 16, W, U, 1.0, None, generator=continued)
        restarted = _ref_generate(idx, 16, W, U, 1.0, seed)
        if torch.equal(unseeded, after_seeded_draws) or torch.equal(unseeded, restarted):
            raise CheckFailed(
                f"after generate(..., seed={seed}), a call with seed=None drew the tokens of torch's global generator "
                "seeded with that seed: with a seed, make your own torch.Generator().manual_seed(seed) and pass it to "
                "torch.multinomial; do not call torch.manual_seed (it resets the caller's global random state)"
            )

    def in_a_row() -> None:
        """Unseeded calls one after another, torch's global generator seeded once before them: they draw one
        stream, each sampling call going on where the one before left it, and greedy decoding draws nothing from
        it (corpus v: a private generator seeded with ``torch.initial_seed()`` replayed the global stream without
        moving it, and a greedy step that drew a sample it then ignored, each passed every call made alone)."""
        seed = _randint(g, 0, 2**31)
        sampled = (torch.randint(0, 9, (4, 2), generator=g), 12, _randn(g, 9, 9, scale=2.0), _randn(g, 9, 9, scale=2.0))
        greedy = (torch.randint(0, 9, (3, 2), generator=g), 8, _randn(g, 9, 9, scale=2.0), _randn(g, 9, 9, scale=2.0))
        calls = [(*sampled, 1.0, None), (*greedy, 0, None), (*greedy, 0.0, None), (*sampled, 1.0, None)]
        where = (
            f"after torch.manual_seed({seed}), four calls with seed=None one after another: sampling, greedy "
            "(temperature 0 and 0.0), sampling again"
        )
        reply = student.call(
            "_grading_in_a_row", (seed, *calls), driver=IN_A_ROW_DRIVER, references=REFERENCE_PARTS, global_rng=True
        )
        if not isinstance(reply.value, list) or len(reply.value) != len(calls):
            raise CheckFailed(f"the calls gave no results back ({where})")
        stream = torch.Generator().manual_seed(seed)  # torch's global generator after torch.manual_seed(seed)
        for i, (value, (idx, n, W, U, temperature, _)) in enumerate(zip(reply.value, calls)):
            _expect_replayed(value, idx, n, W, U, temperature, stream, f"{where}; call {i + 1}")

    cases = [
        case(2, 3, 7, 10, 0.0, "greedy"),
        greedy_designed,
        case(1, 1, 5, 1, 1.0, "one token"),
        case(3, 4, 11, 15, 1.0, "sampling at temperature 1"),
        case(3, 2, 9, 16, 0.5, "temperature 0.5"),
        case(3, 5, 9, 16, 2.5, "temperature 2.5"),
        case(4, 3, 9, 16, 2.5, "seed 0 at temperature 2.5", seed=0),
        # probabilities raised to 1 / temperature (the same law in exact arithmetic) all underflow to 0 there
        case(3, 2, 9, 12, 0.001, "temperature 0.001 (nearly greedy)"),
        unseeded,
        global_seed,
        in_a_row,
    ]
    return run_cases("generate", cases + contract_cases(GENERATE, student, g))


# The hidden check of each test cell, by the cell's grade id (course grade runs them outside the kernel).
CHECKS: dict[str, Callable[[Student], str | None]] = {
    "test_lm_loss": check_lm_loss,
    "test_top_k": check_top_k,
    "test_top_p": check_top_p,
    "test_cached_step": check_cached_step,
    "test_generate": check_generate,
}
