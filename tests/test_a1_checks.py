"""Fast, in-process run of a1's test cells (visible and hidden) on every submission fixture.

Each fixture is a plausible wrong answer that must lose exactly the points of the part it breaks, or
a correct answer in another style that must get full marks. The same fixtures go through nbgrader
for real in test_a1_roundtrip.py; here they run in a second, so each can be checked many times.
"""

from __future__ import annotations

import pytest

from assignment_support import Fixture, fixtures, grade_id, grading_on_path, submission_notebook

ASSIGNMENT = "a1_attention"
REPEATS = 3  # fresh random inputs on every run: a fixture must fail (or pass) on every draw


def failed_parts(fixture: Fixture | None) -> dict[str, str]:
    """Execute the submission's cells like the autograder; map each failed part's answer id to why."""
    grading_on_path()
    namespace: dict = {}
    failed: dict[str, str] = {}
    for cell in submission_notebook(ASSIGNMENT, fixture).cells:
        meta = cell.metadata.get("nbgrader")
        if cell.cell_type != "code" or meta is None:
            continue  # ungraded extras (the optional plot)
        try:
            exec(compile(cell.source, grade_id(cell), "exec"), namespace)
        except Exception as error:
            if not meta.get("grade"):
                raise
            failed[grade_id(cell).removeprefix("test_")] = f"{type(error).__name__}: {error}"
    return failed


@pytest.mark.parametrize("fixture", fixtures(ASSIGNMENT), ids=lambda f: f.name)
def test_fixture_loses_exactly_its_part(fixture: Fixture) -> None:
    for _ in range(REPEATS):
        failed = failed_parts(fixture)
        assert set(failed) == set(fixture.loses), failed


def test_answer_key_passes_every_part() -> None:
    for _ in range(REPEATS):
        assert failed_parts(None) == {}


def test_fixtures_cover_every_part_and_both_kinds() -> None:
    all_fixtures = fixtures(ASSIGNMENT)
    parts = {grade_id(c) for c in submission_notebook(ASSIGNMENT, None).cells if c.metadata.get("nbgrader", {}).get("solution")}
    broken = set().union(*(f.loses for f in all_fixtures))
    assert broken == parts
    assert sum(not f.loses for f in all_fixtures) >= 2
