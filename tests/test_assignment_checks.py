"""Fast, in-process run of each assignment's test cells (visible and hidden) on every submission fixture.

Each fixture is a plausible wrong answer that must lose exactly the points of the part it breaks, or
a correct answer in another style that must get full marks. The same fixtures go through nbgrader
for real in test_assignment_roundtrip.py; here they run in milliseconds, so each is checked several times
on fresh random inputs.
"""

from __future__ import annotations

import pytest

from course_grading.markers import answer_ids
from course_grading.notebook.harness import run_tests

from assignment_support import GRADING, Fixture, assignment_ids, fixtures, source_notebook, submission_notebook

REPEATS = 3  # fresh random inputs on every run: a fixture must fail (or pass) on every draw


def failed_parts(assignment: str, fixture: Fixture | None, only: frozenset[str] | None = None) -> dict[str, str]:
    results = run_tests(submission_notebook(assignment, fixture), GRADING, only)
    return {part: error for part, error in results.items() if error is not None}


@pytest.mark.parametrize(
    "assignment, fixture",
    [(a, f) for a in assignment_ids() for f in fixtures(a)],
    ids=lambda x: x if isinstance(x, str) else x.name,
)
def test_fixture_loses_exactly_its_part(assignment: str, fixture: Fixture) -> None:
    failed = failed_parts(assignment, fixture)  # every part: it loses its own and no other
    assert set(failed) == set(fixture.loses), failed
    for _ in range(REPEATS - 1):  # then the parts it breaks (a right answer: every part) on fresh draws
        failed = failed_parts(assignment, fixture, fixture.loses or None)
        assert set(failed) == set(fixture.loses), failed


@pytest.mark.parametrize("assignment", assignment_ids())
def test_answer_key_passes_every_part(assignment: str) -> None:
    for _ in range(REPEATS):
        assert failed_parts(assignment, None) == {}


@pytest.mark.parametrize("assignment", assignment_ids())
def test_fixtures_cover_every_part_and_both_kinds(assignment: str) -> None:
    all_fixtures = fixtures(assignment)
    broken = set().union(*(f.loses for f in all_fixtures))
    assert broken == set(answer_ids(source_notebook(assignment)))
    assert sum(not f.loses for f in all_fixtures) >= 2
