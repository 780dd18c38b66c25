"""The power of a4's hidden checks, computed: how often a correct answer fails them and a plausible
wrong one passes them, per grading run.

Part 2 (``mask_tokens``) is random, so its check compares counts with exact binomial tests
(``a4_bert_checks._tail``). Here: the tail is the exact one; a correct rule fails a grading run with
probability below 1e-8 (the comparisons a run makes, times ALPHA); each wrong rule that
``check_mask_tokens``'s docstring names passes with at most the probability it states, at the
smallest counts its case can draw. The wrong rules themselves run as fixtures
(tests/fixtures/a4_bert/bug_mask_*.py, in test_assignment_checks.py). Last, the visible tests name
the real cause when the student's code changes its input in place.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest

from course_grading.markers import HIDDEN_BLOCK, answer_code
from course_grading.sandbox.calls import LocalStudent

from assignment_support import GRADING, source_notebook

if str(GRADING) not in sys.path:
    sys.path.insert(0, str(GRADING))
import a4_bert_checks as a4  # noqa: E402

SETUP = next(
    c.source for c in source_notebook("a4_bert").cells if c.metadata.get("nbgrader", {}).get("grade_id") == "setup"
)

HALF = a4.ALPHA / 2  # a count fails when its tail is below this


def exact_tail(k: int, n: int, p: Fraction) -> float:
    """P(X <= k) if k <= n p, else P(X >= k), X ~ Binomial(n, p), in exact arithmetic."""
    ks = range(0, k + 1) if k <= n * p else range(k, n + 1)
    return float(sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in ks))


def log_pmf(k: int, n: int, p: float) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def accepted(n: int, p: float) -> tuple[int, int]:
    """The counts ``lo .. hi`` of ``n`` that pass a comparison with ``p`` (an interval: the tails grow towards the
    mean)."""
    mean = int(n * p)

    def edge(inside: int, outside: int) -> int:  # the last passing count between a passing and a failing one
        while abs(outside - inside) > 1:
            middle = (inside + outside) // 2
            inside, outside = (middle, outside) if a4._tail(middle, n, p) >= HALF else (inside, middle)
        return inside

    lo = 0 if a4._tail(0, n, p) >= HALF else edge(mean, 0)
    hi = n if a4._tail(n, n, p) >= HALF else edge(mean, n)
    return lo, hi


def pass_probability(n: int, p_correct: float, p_wrong: float) -> float:
    """P(a count ~ Binomial(n, p_wrong) passes the comparison with p_correct)."""
    lo, hi = accepted(n, p_correct)
    return sum(math.exp(log_pmf(k, n, p_wrong)) for k in range(lo, hi + 1))


@pytest.mark.parametrize(
    "n, p",
    [(40, Fraction(1, 2)), (60, Fraction(3, 10)), (50, Fraction(1, 20)), (30, Fraction(9, 10)), (1, Fraction(1, 7))],
)
def test_tail_is_the_exact_binomial_tail(n: int, p: Fraction) -> None:
    for k in range(n + 1):
        exact, got = exact_tail(k, n, p), a4._tail(k, n, float(p))
        if exact <= a4.ALPHA:
            assert got == pytest.approx(exact, rel=1e-9), (k, n, p)
        else:  # the sum stops once it passes ALPHA: a lower bound above it
            assert a4.ALPHA < got <= exact * (1 + 1e-9), (k, n, p)


def test_tail_at_probabilities_0_and_1() -> None:
    assert a4._tail(0, 50, 0.0) == 1.0 and a4._tail(1, 50, 0.0) == 0.0
    assert a4._tail(50, 50, 1.0) == 1.0 and a4._tail(49, 50, 1.0) == 0.0


def test_a_correct_rule_fails_a_grading_run_with_probability_below_1e_8(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every comparison is counted on a real run of the answer key: their number stays within
    COMPARISONS, and COMPARISONS * ALPHA bounds the false failures (each comparison's is below ALPHA)."""
    made = []
    expect_count, expect_uniform = a4._expect_count, a4._expect_uniform
    monkeypatch.setattr(a4, "_expect_count", lambda *args: (made.append(1), expect_count(*args))[1])
    monkeypatch.setattr(
        a4,
        "_expect_uniform",
        lambda values, support, *args: (made.extend([1] * len(support)), expect_uniform(values, support, *args))[1],
    )
    assert (
        a4.check_mask_tokens(
            LocalStudent(_notebook_with("mask_tokens", answer_code(source_notebook("a4_bert"))["mask_tokens"]))
        )
        is None
    )
    assert 30 <= len(made) <= a4.COMPARISONS
    assert a4.COMPARISONS * a4.ALPHA <= 1e-8


def test_wrong_rules_that_always_fail() -> None:
    """Rules whose counts land on a value that no correct rule reaches, at the smallest sizes:"""
    # an exact count per row (round(0.3 * 4) = 1), a forced minimum, max(1, ...): no row of 400 with 0 chosen
    assert a4._tail(0, 400, 0.7**4) < HALF
    # whole rows chosen or not: no row with exactly 1 chosen
    assert a4._tail(0, 400, 4 * 0.3 * 0.7**3) < HALF
    # an exact count per batch: every one of 25 calls chooses 19 or 20 of 64
    central = sum(math.comb(64, k) * 0.3**k * 0.7 ** (64 - k) for k in (19, 20))
    assert a4._tail(25, 25, central) < HALF
    # one fate per row: every pair of chosen neighbours is both [MASK] or neither, but a correct rule's
    # counts of the two add up to at most 68% of the pairs (2 calls x 32 rows of 64 or more tokens)
    for n_pairs in (1000, 2000, 5000):
        assert accepted(n_pairs, 0.64)[1] + accepted(n_pairs, 0.04)[1] < n_pairs
    # one random id per call: every pair of random replacements equal (200 pairs or more, 1/3 at most by chance)
    assert a4._tail(200, 200, 1 / 3) < HALF
    # the first or last ordinary id never drawn, among 800 or more random replacements over 3 to 7 ids
    assert a4._tail(0, 800, 1 / 7) < HALF


def test_wrong_rules_pass_with_the_probability_the_docstring_states() -> None:
    # a random id drawn among the ids other than the original, 12096 chosen tokens: 10% random, not 5%
    # (and 10% unchanged, not 15%, which passes with probability 2e-25: both must pass)
    chosen = 2 * 48 * 126
    assert min(pass_probability(chosen, 0.05, 0.10), pass_probability(chosen, 0.15, 0.10)) < 1e-45
    # a generator seeded afresh per row: a position none of the 16 rows chose 70% of the
    # time, not 0.7^16 (100 positions)
    assert pass_probability(25 * 4, 0.7**16, 0.7) < 1e-36
    assert "below 1e-45" in a4.check_mask_tokens.__doc__ and "below 1e-36" in a4.check_mask_tokens.__doc__


def test_a_correct_rule_passes_the_comparisons_at_their_sizes() -> None:
    """The acceptance intervals hold the counts a correct rule gives nearly always: its mass outside
    is below ALPHA (which the exact tails give by construction; summed here)."""
    for n, p in [(400, 0.7**4), (25, 0.21), (100, 0.7**16), (12096, 0.15), (36000, 0.15), (2000, 0.64)]:
        lo, hi = accepted(n, p)
        outside = sum(math.exp(log_pmf(k, n, p)) for k in [*range(0, lo), *range(hi + 1, n + 1)])
        assert 0 < outside < a4.ALPHA


def _visible_tests(grade_id: str) -> str:
    cell = next(
        c for c in source_notebook("a4_bert").cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )
    return HIDDEN_BLOCK.sub("", cell.source)


def _notebook_with(grade_id: str, source: str) -> dict:
    namespace: dict = {"__name__": "notebook"}
    exec(SETUP, namespace)
    for code in (answer_code(source_notebook("a4_bert")) | {grade_id: source}).values():
        exec(code, namespace)
    return namespace


IN_PLACE_MASKING = """
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    generator = torch.Generator().manual_seed(seed)
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & (input_ids >= N_SPECIAL)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    u = torch.rand(input_ids.shape, generator=generator)
    input_ids[chosen & (u < 0.8)] = MASK_ID
    swap = chosen & (u >= 0.8) & (u < 0.9)
    input_ids[swap] = torch.randint(N_SPECIAL, vocab_size, (int(swap.sum()),), generator=generator)
    return input_ids, labels
"""

IN_PLACE_BLOCK = """
def encoder_block(x, p, n_heads, attention_mask=None):
    B, T, d = x.shape
    d_head = d // n_heads
    q, k, v = ((x @ p[f"W_{n}"] + p[f"b_{n}"]).view(B, T, n_heads, d_head).transpose(1, 2) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    x += (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d) @ p["W_o"] + p["b_o"]
    x = F.layer_norm(x, (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    return F.layer_norm(x + F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"], (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
"""  # noqa: E501 (code run as written)


@pytest.mark.parametrize("grade_id, source", [("mask_tokens", IN_PLACE_MASKING), ("encoder_block", IN_PLACE_BLOCK)])
def test_visible_tests_name_an_input_changed_in_place(grade_id: str, source: str) -> None:
    """Code that writes into its input gets the message that says so, not one about the values the
    visible tests compute from the changed input afterwards."""
    namespace = _notebook_with(grade_id, source)
    with pytest.raises(AssertionError, match="in place"):
        exec(_visible_tests(f"test_{grade_id}"), namespace)


@pytest.mark.parametrize("grade_id", ["mask_tokens", "encoder_block"])
def test_visible_tests_pass_the_answer_key(grade_id: str) -> None:
    namespace = _notebook_with(grade_id, answer_code(source_notebook("a4_bert"))[grade_id])
    exec(_visible_tests(f"test_{grade_id}"), namespace)
