"""Shared helpers for the hidden checks of every assignment (instructor-only; never released).

Every test cell of a source notebook has the same two hidden blocks around its visible tests::

    ### BEGIN HIDDEN TESTS
    from gradinglib import begin_part, end_part
    begin_part(globals(), "a1_attention", "test_mha")
    ### END HIDDEN TESTS
    # Visible tests ...
    ### BEGIN HIDDEN TESTS
    _failure = end_part(globals(), "a1_attention", "test_mha")
    assert _failure is None, _failure
    ### END HIDDEN TESTS

``begin_part`` swaps correct versions of the other parts in (the assignment's ``REFERENCE_PARTS``),
so that the visible tests of one part cannot fail because of another; ``end_part`` puts the
student's own functions back and runs the part's hidden check (``CHECKS[test id]``). That is how
the tests run in the kernel (plain ``nbgrader autograde``) and in-process (release validation,
mutants); ``course grade`` does the same outside the kernel (:mod:`course_grading.sandbox.worker`).

A check reaches the student's functions only through a :class:`course_grading.sandbox.calls.Student`:
in the kernel the notebook's ``globals()``, in ``course grade``'s trusted re-check a process that
holds the student's code and returns values. Each assignment's checks module maps the grade id of
each test cell to its check in ``CHECKS``.

A check returns None when the student's code passes every case, else one message that says which
case failed and how (shapes, the largest error), never how the reference computes it. The assert
sits in the notebook cell, so the traceback shown in feedback contains only that cell's lines,
never this module's source.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import nbformat
import torch
from torch import Tensor

from course_grading.markers import part_names
from course_grading.sandbox.calls import (
    LocalStudent,
    Opaque,
    Reply,
    Student,
    StudentRaised,
    restore_own,
    use_references,
)

ATOL = 1e-5
RTOL = 1e-4


class CheckFailed(Exception):
    """A student's answer disagrees with the reference on one case."""


_SEED: list[int | None] = [None]  # set by ``course grade`` for one submission (see :func:`seed_checks`)
_DRAWN: dict[str, int] = {}  # how many generators each check has asked for under that seed


def seed_checks(seed: int | None) -> None:
    """Draw every check's inputs from ``seed`` from now on (None: from the OS). ``course grade``
    derives it from the submission, so that the same notebook always gets the same inputs, hence
    the same grade, and another notebook other inputs."""
    _SEED[0] = seed
    _DRAWN.clear()


def drawn() -> dict[str, int]:
    """How many generators each check has asked for so far under the seed (:func:`fresh_generator`)."""
    return dict(_DRAWN)


def set_drawn(counts: dict[str, int]) -> None:
    """Rewind (or wind) :func:`fresh_generator`'s counts to ``counts``, as :func:`drawn` returned them: a
    control run of a check on the answer key draws the inputs the student's run drew."""
    _DRAWN.clear()
    _DRAWN.update(counts)


def padding_pattern(g: torch.Generator, B: int, T: int) -> Tensor:
    """A padding mask ``(B, T)`` of torch.long, 1 = a real token, in every pattern a spec that says only
    "which positions hold real tokens" allows: the first row all real, the last left-padded (padding
    first), the rows between with padding anywhere (holes); every row keeps at least one real token.
    An answer that reads the mask as lengths (right padding) shows on the last row whenever T > 1; one
    that ignores the mask, whenever T > 1 too (a single row is the left-padded one: it never hides nothing)."""
    mask = (torch.rand(B, T, generator=g) < 0.6).long()
    mask[torch.arange(B), torch.randint(0, T, (B,), generator=g)] = 1  # at least one real token in each row
    if T > 1:
        pad = int(torch.randint(1, T, (1,), generator=g))
        mask[-1] = (torch.arange(T) >= pad).long()  # left padding: pad positions first, then real tokens
    if B > 1:
        mask[0] = 1
    return mask


def fresh_generator() -> torch.Generator:
    """The generator of one check's inputs: seeded from :func:`seed_checks`'s seed and the check
    that asks (its n-th request), so that a check's inputs do not depend on which other checks ran;
    without a seed (plain nbgrader, the in-process harness), from the OS."""
    if _SEED[0] is None:
        return torch.Generator().manual_seed(int.from_bytes(os.urandom(8), "little") & (2**63 - 1))
    caller = sys._getframe(1).f_code.co_qualname
    _DRAWN[caller] = _DRAWN.get(caller, 0) + 1
    digest = hashlib.sha256(f"{_SEED[0]}:{caller}:{_DRAWN[caller]}".encode()).digest()
    return torch.Generator().manual_seed(int.from_bytes(digest[:8], "little") & (2**63 - 1))


def describe(**tensors: Any) -> str:
    """``q (2, 4, 8), mask (4, 6)``: the shapes of a case, for messages."""
    parts = []
    for name, t in tensors.items():
        parts.append(f"{name} {tuple(t.shape)}" if isinstance(t, Tensor) else f"{name}={t!r}")
    return ", ".join(parts)


def kind(value: Any) -> str:
    """What a returned value is, for a message: its type's name as the worker knows it (a decoded
    reply holds only builtins and tensors; an :class:`Opaque` carries a name from a fixed list), never
    a name the student's code chose."""
    return value.type_name if isinstance(value, Opaque) else type(value).__name__


def expect_tensor(value: Any, shape: tuple[int, ...], what: str, case: str, dtype: torch.dtype | None = None) -> Tensor:
    """Fail unless ``value`` is a tensor of ``shape`` (and ``dtype``, if given)."""
    if not isinstance(value, Tensor):
        raise CheckFailed(f"{what} should be a torch.Tensor, got {kind(value)} ({case})")
    if tuple(value.shape) != tuple(shape):
        raise CheckFailed(f"{what} has shape {tuple(value.shape)}, expected {tuple(shape)} ({case})")
    if dtype is not None and value.dtype != dtype:
        raise CheckFailed(f"{what} has dtype {value.dtype}, expected {dtype} ({case})")
    return value


def expect_close(actual: Any, expected: Tensor, what: str, case: str, atol: float = ATOL, rtol: float = RTOL) -> None:
    """Fail unless ``actual`` has ``expected``'s shape and is within ``atol + rtol*|expected|``."""
    actual = expect_tensor(actual, tuple(expected.shape), what, case)
    actual = actual.detach().to(torch.float64)
    expected = expected.detach().to(torch.float64)
    if bool(torch.isnan(actual).any()) and not bool(torch.isnan(expected).any()):
        raise CheckFailed(f"{what} contains NaN ({case})")
    if bool(torch.isinf(actual).any()) and not bool(torch.isinf(expected).any()):
        raise CheckFailed(f"{what} contains inf ({case})")
    infinite = torch.isinf(expected)  # inf - inf is NaN and |finite - inf| <= rtol * inf: these are compared exactly
    wrong_infinite = int((actual[infinite] != expected[infinite]).sum())
    if wrong_infinite:
        raise CheckFailed(
            f"{what} should be -inf or inf at {int(infinite.sum())} entries, and "
            f"{wrong_infinite} of them are not ({case})"
        )
    missing_nan = int((torch.isnan(expected) & ~torch.isnan(actual)).sum())
    if missing_nan:
        raise CheckFailed(f"{what} should be NaN at {missing_nan} entries where it is not ({case})")
    finite = torch.isfinite(expected)
    err = torch.where(finite, actual - expected, 0.0).abs()
    bad = ~(err <= atol + rtol * torch.where(finite, expected, 0.0).abs())  # NaN where a number is expected: bad
    if bool(bad.any()):
        raise CheckFailed(
            f"{what} {'differ' if what.endswith('weights') else 'differs'} from the expected values (max abs error "
            f"{err.max().item():.3g}) ({case})"
        )


def expect_equal(actual: Any, expected: Tensor, what: str, case: str) -> None:
    """Fail unless ``actual`` equals ``expected`` exactly, with the same shape and dtype."""
    actual = expect_tensor(actual, tuple(expected.shape), what, case, dtype=expected.dtype)
    if not bool(torch.equal(actual, expected)):
        wrong = int((actual != expected).sum())
        raise CheckFailed(f"{what} has {wrong} wrong entries ({case})")


def expect_gradients(reply: Reply, failure: str, case: str, count: int = 0) -> tuple[Tensor | None, ...]:
    """The gradients a call computed (:meth:`Student.call`'s ``grad_args``), the first ``count`` of them
    present; ``failure`` (what a missing gradient means) if the output carries none back."""
    grads = reply.grads if reply.differentiable and reply.grads is not None else None
    if grads is None or any(grad is None for grad in grads[:count]) or len(grads) < count:
        raise CheckFailed(f"{failure} ({case})")
    return grads


def expect_unchanged(before: dict[str, Tensor], after: dict[str, Tensor], case: str) -> None:
    """Fail if the student's code modified an input tensor in place."""
    for name, t in before.items():
        if not torch.equal(t, after[name]):
            raise CheckFailed(f"the input {name} was modified in place ({case})")


def same_value(before: Any, after: Any) -> bool:
    """Whether an argument came back as it went in: tensors equal in dtype, shape and every entry
    (NaN where NaN was), inside tuples, lists and dicts too; anything else by ``==``."""
    if isinstance(before, Tensor):
        return (
            isinstance(after, Tensor)
            and after.dtype == before.dtype
            and after.shape == before.shape
            and bool(torch.equal(after, before) or torch.allclose(after, before, rtol=0, atol=0, equal_nan=True))
        )
    if isinstance(before, (tuple, list)):
        return (
            isinstance(after, (tuple, list))
            and len(after) == len(before)
            and all(same_value(b, a) for b, a in zip(before, after))
        )
    if isinstance(before, dict):
        return (
            isinstance(after, dict)
            and after.keys() == before.keys()
            and all(same_value(v, after[k]) for k, v in before.items())
        )
    return bool(before == after)


class Guarded:
    """A :class:`Student` whose every call is held to what every part's spec says, whatever the part
    (issue 37's generic rules): the global random states (torch's, Python's, NumPy's) come back
    untouched, and no argument is changed in place. A call opts out only where its spec allows it
    (``global_rng=True``: it draws from the global generator; ``may_change=True``), and where its spec
    promises a new tensor (``fresh=True``) no tensor it returns shares memory with its arguments; a driver's call
    (which builds modules, whose initialisation draws from the global generator, and optimizers,
    which change their tensors) is exempt unless it says otherwise."""

    def __init__(self, student: Student, seeds: torch.Generator) -> None:
        self.student, self.seeds = student, seeds

    def call(
        self,
        name: str,
        args: Sequence[Any],
        *,
        global_rng: bool | None = None,
        may_change: bool | None = None,
        fresh: bool = False,
        **options: Any,
    ) -> Reply:
        seed = int(torch.randint(0, 2**62, (1,), generator=self.seeds))  # a reseed to any constant shows
        reply = self.student.call(name, args, global_seed=seed, **options)
        if fresh and reply.aliased:
            raise CheckFailed(
                f"{name} returned a tensor it was given (or a view of one), where the spec asks for a new "
                f"tensor; return a copy ({_shapes(args)})"
            )
        if reply.inference:
            raise CheckFailed(
                f"{name} returned an inference tensor (made under torch.inference_mode), though it was not called "
                "in that mode: its caller cannot change it in place or use it where autograd saves it; build it "
                f"outside inference_mode ({_shapes(args)})"
            )
        if reply.overlapping:
            raise CheckFailed(
                f"{name} returned a tensor whose entries share memory (an expand, a stride of 0): its caller may "
                "change what it returns in place, and one entry changed would change others; return a tensor of its "
                f"own entries (.clone(), or build it at its size) ({_shapes(args)})"
            )
        driven = options.get("driver") is not None
        if reply.global_rng_moved and not (driven if global_rng is None else global_rng):
            raise CheckFailed(
                f"{name} changed the global random state (torch.manual_seed, torch's global generator, "
                f"random or numpy.random); draw from the generator the spec names ({_shapes(args)})"
            )
        if not (driven if may_change is None else may_change):
            for i, (before, after) in enumerate(zip(args, reply.inputs_after)):
                if not same_value(before, after):
                    raise CheckFailed(
                        f"{name} changed its argument {i + 1} in place; leave the inputs as they were ({_shapes(args)})"
                    )
        return reply


def _shapes(args: Sequence[Any]) -> str:
    return ", ".join(f"{kind(a)} {tuple(a.shape)}" if isinstance(a, Tensor) else kind(a) for a in args)


def as_student(student: Student | dict[str, Any]) -> Guarded:
    """A notebook's ``globals()`` (in the kernel) or a :class:`Student` (the trusted re-check), guarded
    (:class:`Guarded`)."""
    if isinstance(student, Guarded):
        return student
    return Guarded(LocalStudent(student) if isinstance(student, dict) else student, fresh_generator())


_CASES_RUN: list[int] = [0]  # cases run since the count was last read (failed_at): the failing one is the last


def cases_run() -> int:
    """How many cases :func:`run_cases` has run (the failing one included) since the last call; the count starts
    again at 0. A control run of a failed check on the answer key (course_grading's worker) compares where the
    two failed: the key failing a case the student never reached leaves the student's failure standing."""
    count, _CASES_RUN[0] = _CASES_RUN[0], 0
    return count


def run_cases(part: str, cases: list[Callable[[], None]]) -> str | None:
    """Run each case; return None if all pass, else the first failure's message."""
    for case in cases:
        _CASES_RUN[0] += 1
        try:
            case()
        except CheckFailed as failure:
            return f"{part}: {failure}"
        except StudentRaised as error:
            if error.type_name == "NotImplementedError":
                # the stub's own raise, or something torch does not implement (a meta tensor's values: attacks_n)
                return f"{part}: raised NotImplementedError (not written yet, or it uses what torch does not implement)"
            if error.type_name == "Refused":
                return f"{part}: {error.message}"
            return f"{part}: raised {error}"
    return None


@functools.cache
def _own_names(assignment: str) -> dict[str, list[str]]:
    """What each part defines, by test cell, from the source notebook beside this folder."""
    source = Path(__file__).resolve().parents[1] / "source" / assignment / f"{assignment}.ipynb"
    return part_names(nbformat.read(source, as_version=4))


def begin_part(namespace: dict[str, Any], assignment: str, test_id: str) -> None:
    """Before a test cell's visible tests: the other parts replaced by correct versions."""
    checks = importlib.import_module(f"{assignment}_checks")
    use_references(namespace, getattr(checks, "REFERENCE_PARTS", None), _own_names(assignment)[test_id])


def end_part(namespace: dict[str, Any], assignment: str, test_id: str) -> str | None:
    """After a test cell's visible tests: the student's functions back, and the hidden check's verdict."""
    restore_own(namespace)
    return importlib.import_module(f"{assignment}_checks").CHECKS[test_id](namespace)


# ------------------------------------------------------------------------ laws of random draws
# A check of something random tests its law, never only its moments: a law test compares counts of
# outcomes with their probabilities by the likelihood ratio, and fails only where a proven bound,
# exact for every sample size (no asymptotics), puts a correct answer's chance of so large a ratio
# below P_LIMIT.

P_LIMIT = 1e-10  # a law test fails a correct answer with probability at most this (a proven bound)
MIN_EXPECTED = 10.0  # neighbouring outcomes are pooled until each bin expects at least this many
UNIFORM_BINS = 10  # expect_uniform_law counts values in this many equal bins
# The most probability a correct draw of a continuous law may put on any one value: float32's uniform_
# and rand take 24 random bits (2 ** 24 equally likely values); uniform_ maps them to as many floats,
# and an affine map written by hand (rand * 2 * b - b, ...) rounds at most two onto one float32 (both
# enumerated for every bound 1/sqrt(n), n < 81); this allows four. float64 draws take 53 bits.
ATOM = 2.0**-22


def divergence_bound(n: int, divergence: float, bins: int) -> float:
    """A bound on P(D(empirical || law) >= divergence) for n independent draws from a law on ``bins``
    outcomes: the moment generating function of n D is at most that of a Gamma(bins - 1) variable
    (R. Agrawal, "Finite-sample concentration of the multinomial in relative entropy", IEEE Trans.
    Inf. Theory 66(10), 2020), so by Chernoff the probability is at most
    exp(-n D) (e n D / (bins - 1))^(bins - 1) once n D > bins - 1. Exact for every n: no asymptotics."""
    t, d = n * divergence, bins - 1
    return 1.0 if t <= d else math.exp(-t + d * (1 + math.log(t / d)))


def expect_law(
    observed: Sequence[int],
    probs: Sequence[float],
    what: str,
    case: str,
    p_limit: float = P_LIMIT,
    min_expected: float = MIN_EXPECTED,
    group: Callable[[int, int], str] | None = None,
) -> None:
    """Counts of outcomes 0, 1, ... of independent draws against their probabilities: neighbouring
    outcomes pooled until each bin expects ``min_expected``, then the likelihood-ratio statistic (n
    times the divergence of the observed frequencies from the law); fails where
    :func:`divergence_bound` puts the chance of so large a divergence below ``p_limit``, so a correct
    answer fails with probability at most ``p_limit``, whatever n and the law. ``group(first,
    last)`` names the outcomes first .. last in the message (default: "one group of outcomes")."""
    n = sum(observed)
    bins: list[tuple[float, float, int, int]] = []  # (observed, expected, first outcome, last outcome)
    obs_acc = exp_acc = 0.0
    first = 0
    for i, (o, p) in enumerate(zip(observed, probs)):
        obs_acc, exp_acc = obs_acc + o, exp_acc + n * p
        if exp_acc >= min_expected:
            bins.append((obs_acc, exp_acc, first, i))
            obs_acc = exp_acc = 0.0
            first = i + 1
    if exp_acc > 0 or obs_acc > 0:
        last = min(len(observed), len(probs)) - 1
        if bins:
            o_last, e_last, start, _ = bins.pop()
            bins.append((o_last + obs_acc, e_last + exp_acc, start, last))
        else:
            bins.append((obs_acc, exp_acc, first, last))
    outside = n - sum(b[0] for b in bins)  # outcomes the law gives probability 0 (beyond the list)
    if outside > 0:
        raise CheckFailed(f"{what}: {outside} of {n} outcomes are impossible under the rule ({case})")
    impossible = [b[0] for b in bins if b[1] == 0 and b[0] > 0]
    if impossible:
        raise CheckFailed(f"{what}: {int(sum(impossible))} of {n} outcomes are impossible under the rule ({case})")
    if len(bins) < 2:
        return
    divergence = sum(o / n * math.log(o / e) for o, e, _, _ in bins if o > 0)
    if divergence_bound(n, divergence, len(bins)) < p_limit:
        o, e, start, last = max(bins, key=lambda b: abs(b[0] - b[1]) / math.sqrt(b[1]))
        name = "one group of outcomes" if group is None else group(start, last)
        raise CheckFailed(
            f"{what} do not follow the rule: over {n} draws, {name} came {int(o)} times "
            f"where {e:.0f} were expected ({case})"
        )


def repeats_bound(n: int, repeats: int, atom: float = ATOM) -> float:
    """A bound on the probability that n independent draws, none of whose values has probability
    above ``atom``, hold at least ``repeats`` draws equal to an earlier one (n minus the number of
    distinct values). Draw i repeats an earlier value with probability at most (i - 1) atom whatever
    came before, so the count is dominated by a sum of independent Bernoulli((i - 1) atom), of mean
    at most mu = atom n (n - 1) / 2, and by Chernoff P(count >= c) <= exp(-mu) (e mu / c)^c for c > mu."""
    mu = atom * n * (n - 1) / 2
    if repeats <= mu:
        return 1.0
    if mu <= 0:
        return 0.0  # a repeat where none is possible
    return math.exp(-mu + repeats * (1 + math.log(mu / repeats)))


def expect_distinct(values: Tensor, what: str, case: str, p_limit: float = P_LIMIT, atom: float = ATOM) -> None:
    """Independent draws of a continuous law (as float32 or float64 draws it: no value more likely
    than ``atom``) repeat a value rarely; fails where :func:`repeats_bound` puts the chance of as many
    repeats below ``p_limit``: a law with atoms (a few values, a grid) or one draw used twice."""
    values = values.detach().flatten()
    n = values.numel()
    distinct = int(torch.unique(values).numel())
    if n > distinct and repeats_bound(n, n - distinct, atom) < p_limit:
        raise CheckFailed(
            f"{what}: {n - distinct} of {n} values repeat an earlier one (only {distinct} distinct): "
            f"draw every value on its own, from a continuous law ({case})"
        )


def uniform_bin_counts(values: Sequence[float] | Tensor, low: float, high: float, bins: int) -> list[int]:
    """How many ``values`` fall in each of ``bins`` equal bins of [low, high) (bin i: low + i w <= v <
    low + (i + 1) w, in float64); values outside count in the end bins."""
    if isinstance(values, Tensor):
        v = values.detach().flatten().double()
    else:
        v = torch.tensor(list(values), dtype=torch.float64)
    index = ((v - low) / (high - low) * bins).floor().clamp(0, bins - 1).long()
    return torch.bincount(index, minlength=bins).tolist()


def expect_uniform_law(
    values: Tensor, low: float, high: float, what: str, case: str, bins: int = UNIFORM_BINS, p_limit: float = P_LIMIT
) -> None:
    """Independent draws of the uniform law on [low, high]: none outside it (beyond 1e-6 of its
    width), their counts in ``bins`` equal bins against 1 / bins each (:func:`expect_law`, at
    ``p_limit`` / 2), and no more repeated values than a continuous law gives (:func:`expect_distinct`,
    at ``p_limit`` / 2): a correct sample fails with probability at most ``p_limit``, whatever its
    size. The bins see any law that puts other than 1 / bins in some bin (a normal, a sub-interval,
    [0, high], mass at the ends); the repeats see a law on a few values or a grid, and one draw
    repeated, even where the bins' counts come out right."""
    v = values.detach().flatten().double()
    n = v.numel()
    slack = 1e-6 * (high - low)
    outside = int(((v < low - slack) | (v > high + slack) | ~torch.isfinite(v)).sum())
    if outside:
        raise CheckFailed(f"{what}: {outside} of {n} values lie outside [{low:.4g}, {high:.4g}] ({case})")
    width = (high - low) / bins

    def group(first: int, last: int) -> str:
        return f"the values in [{low + first * width:.4g}, {low + (last + 1) * width:.4g})"

    counts = uniform_bin_counts(v, low, high, bins)
    expect_law(counts, [1 / bins] * bins, what, case, p_limit / 2, group=group)
    expect_distinct(values, what, case, p_limit / 2)
