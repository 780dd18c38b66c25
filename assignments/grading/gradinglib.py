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
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import torch
from torch import Tensor

from course_grading.markers import part_names
from course_grading.sandbox.calls import LocalStudent, Opaque, Student, StudentRaised, restore_own, use_references

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
    err = (actual - expected).abs()
    bad = err > atol + rtol * expected.abs()
    if bool(bad.any()):
        raise CheckFailed(f"{what} {'differ' if what.endswith('weights') else 'differs'} from the expected values (max abs error {err.max().item():.3g}) ({case})")


def expect_equal(actual: Any, expected: Tensor, what: str, case: str) -> None:
    """Fail unless ``actual`` equals ``expected`` exactly, with the same shape and dtype."""
    actual = expect_tensor(actual, tuple(expected.shape), what, case, dtype=expected.dtype)
    if not bool(torch.equal(actual, expected)):
        wrong = int((actual != expected).sum())
        raise CheckFailed(f"{what} has {wrong} wrong entries ({case})")


def expect_unchanged(before: dict[str, Tensor], after: dict[str, Tensor], case: str) -> None:
    """Fail if the student's code modified an input tensor in place."""
    for name, t in before.items():
        if not torch.equal(t, after[name]):
            raise CheckFailed(f"the input {name} was modified in place ({case})")


def as_student(student: Student | dict[str, Any]) -> Student:
    """A notebook's ``globals()`` (in the kernel) or a :class:`Student` (the trusted re-check)."""
    return LocalStudent(student) if isinstance(student, dict) else student


def run_cases(part: str, cases: list[Callable[[], None]]) -> str | None:
    """Run each case; return None if all pass, else the first failure's message."""
    for case in cases:
        try:
            case()
        except CheckFailed as failure:
            return f"{part}: {failure}"
        except StudentRaised as error:
            if error.type_name == "NotImplementedError":
                return f"{part}: not implemented yet (raises NotImplementedError)"
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
