"""Fast, in-process run of each assignment's test cells (visible and hidden) on every submission fixture.

Each fixture is a plausible wrong answer that must lose exactly the points of the part it breaks, or
a correct answer in another style that must get full marks. The same fixtures go through nbgrader
for real in test_assignment_roundtrip.py; here they run in milliseconds, so each is checked several times
on fresh random inputs.
"""

from __future__ import annotations

import pytest

from course_grading.markers import answer_ids, is_test, nbgrader_meta, part_of
from course_grading.notebook.harness import run_tests

from assignment_support import GRADING, Fixture, assignment_ids, fixtures, source_notebook, submission_notebook

REPEATS = 3  # fresh random inputs on every run: a fixture must fail (or pass) on every draw


def failed_parts(assignment: str, fixture: Fixture | None, only: frozenset[str] | None = None) -> dict[str, str]:
    results = run_tests(submission_notebook(assignment, fixture), GRADING, only)
    return {part: error for part, error in results.items() if error is not None}


def parts_reached(assignment: str, fixture: Fixture) -> frozenset[str]:
    """The parts whose test cells come after the first cell ``fixture`` changes. The harness runs the notebook in
    order, so a test cell before it has run on the key's code alone (which passes every part, below): its verdict
    cannot be the fixture's. Running only the others saves the earlier parts' checks (a1's fixtures: 238 s -> 202 s)."""
    cells = source_notebook(assignment).cells
    ids = [nbgrader_meta(cell).get("grade_id") for cell in cells]
    first = min(ids.index(cell) for cell in fixture.cells)
    return frozenset(part_of(grade_id) for grade_id, cell in zip(ids[first:], cells[first:]) if is_test(cell))


@pytest.mark.parametrize(
    "assignment, fixture",
    [(a, f) for a in assignment_ids() for f in fixtures(a)],
    ids=lambda x: x if isinstance(x, str) else x.name,
)
def test_fixture_loses_exactly_its_part(assignment: str, fixture: Fixture) -> None:
    reached = parts_reached(assignment, fixture)
    assert fixture.loses <= reached, (fixture.loses, reached)
    failed = failed_parts(assignment, fixture, reached)  # every part it can reach: it loses its own and no other
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


@pytest.mark.parametrize("assignment", assignment_ids())
def test_the_read_only_cells_bind_no_name_a_students_code_may_use(assignment: str) -> None:
    """A read-only cell after the set-up (a visible test, a figure) runs its code inside a function: a module-level
    name it bound (``kept``, ``p``, ``out``) would replace a student's helper of that name for every later call
    (corpus r: two right answers whose helper ``kept`` a visible test cell rebound failed their own visible tests)."""
    import ast

    from assignment_support import release_notebook

    for cell in release_notebook(assignment).cells:
        meta = nbgrader_meta(cell)
        if cell.cell_type != "code" or meta.get("solution") or meta.get("grade_id") in ("setup", "imports"):
            continue
        bound = set()
        for node in ast.parse(cell.source).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.add(node.name)
            targets = {
                ast.Assign: lambda n: n.targets,
                ast.AnnAssign: lambda n: [n.target],
                ast.AugAssign: lambda n: [n.target],
                ast.For: lambda n: [n.target],
                ast.With: lambda n: [i.optional_vars for i in n.items if i.optional_vars],
            }.get(type(node), lambda n: [])(node)
            bound |= {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)}
        assert not {name for name in bound if not name.startswith("_")}, (meta.get("grade_id"), sorted(bound))
