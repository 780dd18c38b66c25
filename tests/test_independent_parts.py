"""Each part is graded on its own, on every path: a part left unfinished, hanging or wrong costs its
own points, and only those.

For every assignment and every part, three submissions built from the answer key: the part left
as the student version's stub (``NotImplementedError``), every function of the part replaced by an
endless loop, and the part replaced by a realistic bug (a fixture under ``tests/fixtures``). Each
is graded by ``course grade`` (the sandbox, all three) and in-process by
:func:`course_grading.notebook.harness.run_tests` (unfinished and wrong: nothing interrupts a loop there).
Plain ``nbgrader autograde`` gets the first part hanging (each hang waits out the cell timeout, and the first
is the one after which every other part must still be graded) and the last left unfinished, in the round
trip's batch (tests/test_assignment_roundtrip.py), which also grades a wrong answer of every part.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.markers import answer_code, part_points, with_answers
from course_grading.notebook.assignments import copy_course
from course_grading.notebook.harness import run_tests
from course_grading.sandbox import limits as sandbox

from assignment_support import ASSIGNMENTS, GRADING, assignment_ids, release_notebook, source_notebook, variants

pytestmark = pytest.mark.slow
IDS = assignment_ids()
LIMITS = sandbox.Limits(cell_s=6, total_s=120, memory_bytes=4 * 2**30)


def submission(assignment: str, answers: dict[str, str]) -> nbformat.NotebookNode:
    key = answer_code(source_notebook(assignment))
    return with_answers(release_notebook(assignment), key | answers)


def lost(scores: dict[str, float], full: dict[str, float]) -> set[str]:
    return {part for part, points in full.items() if scores.get(part, 0.0) < points}


@pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)
@pytest.mark.parametrize("assignment", IDS)
def test_course_grade(assignment: str, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    made = variants(assignment)
    for name, (_, answers) in made.items():
        nbformat.write(submission(assignment, answers), inbox / f"{name}.ipynb")
    course = copy_course(tmp_path / "course")
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    results, _ = grading.grade(
        grading.Batch(course, assignment, inbox, tmp_path / "out"),
        grading.Options(jobs=2, limits=LIMITS),
        progress=lambda done, total, line: None,
    )
    full = part_points(release_notebook(assignment))
    matrix = {r.student: lost(r.scores, full) for r in results}
    assert matrix == {name: {part} for name, (part, _) in made.items()}
    for r in results:  # a hang costs the time limit it breaks, not the submission's
        assert r.seconds < LIMITS.total_s / 2, (r.student, r.seconds)


@pytest.mark.parametrize("assignment", IDS)
def test_in_process(assignment: str) -> None:
    full = part_points(release_notebook(assignment))
    for name, (part, answers) in variants(assignment).items():
        if name.endswith("-hangs"):
            continue
        failures = run_tests(
            with_answers(source_notebook(assignment), answer_code(source_notebook(assignment)) | answers), GRADING
        )
        assert {p for p, failure in failures.items() if failure is not None} == {part}, (name, failures)
        assert set(failures) == set(full)
