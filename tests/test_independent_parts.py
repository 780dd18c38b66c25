"""Each part is graded on its own, on every path: a part left unfinished, hanging or wrong costs its
own points, and only those.

For every assignment and every part, three submissions built from the answer key: the part left
as the student version's stub (``NotImplementedError``), every function of the part replaced by an
endless loop, and the part replaced by a realistic bug (a fixture under ``tests/fixtures``).
``course grade`` (the sandbox) grades all three kinds, each in two submissions, the odd-numbered parts
broken in one and the even-numbered in the other: it judges each part with correct versions of the
others in place, so a part's fate cannot depend on another's answer, and what the sandbox adds (a hung
process stopped and replaced, then the next part graded) is met by every part, several times in one
submission. Each submission costs a sandbox start and a full run (10-30 s), which a submission per
part and kind multiplied by 3 x parts.
In-process, :func:`course_grading.notebook.harness.run_tests` (the notebook run top to bottom, each
part's tests after its own answer) gets every part unfinished on its own: nothing interrupts a loop there,
and tests/test_assignment_checks.py grades every wrong-answer fixture in-process.
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
from course_grading.markers import answer_code, answer_ids, part_points, with_answers
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


def by_parity(assignment: str) -> dict[str, tuple[set[str], dict[str, str]]]:
    """Name -> (the parts it breaks, its answer cells): each kind of :func:`variants` twice, on the
    odd-numbered parts and on the even-numbered."""
    made, parts = variants(assignment), answer_ids(release_notebook(assignment))
    grouped: dict[str, tuple[set[str], dict[str, str]]] = {}
    for kind in ("unfinished", "hangs", "wrong"):
        for parity, which in ((0, "odd"), (1, "even")):
            broken = parts[parity::2]
            if broken:
                cells = {cell: code for part in broken for cell, code in made[f"{part}-{kind}"][1].items()}
                grouped[f"{kind}-{which}"] = (set(broken), cells)
    return grouped


@pytest.mark.parametrize("assignment", IDS)
def test_the_two_submissions_of_each_kind_break_every_part_once(assignment: str) -> None:
    grouped, parts = by_parity(assignment), set(answer_ids(release_notebook(assignment)))
    for kind in ("unfinished", "hangs", "wrong"):
        odd, even = grouped[f"{kind}-odd"][0], grouped.get(f"{kind}-even", (set(), {}))[0]
        assert not odd & even and odd | even == parts


@pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)
@pytest.mark.parametrize("assignment", IDS)
def test_course_grade(assignment: str, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    made = by_parity(assignment)
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
    assert matrix == {name: parts for name, (parts, _) in made.items()}
    for r in results:  # a hang costs the time limit it breaks (the call's), not the submission's
        assert r.status == "graded" and r.seconds < LIMITS.total_s, (r.student, r.status, r.seconds)


@pytest.mark.parametrize("assignment", IDS)
def test_in_process(assignment: str) -> None:
    full = part_points(release_notebook(assignment))
    for name, (part, answers) in variants(assignment).items():
        if not name.endswith("-unfinished"):
            continue
        failures = run_tests(
            with_answers(source_notebook(assignment), answer_code(source_notebook(assignment)) | answers), GRADING
        )
        assert {p for p, failure in failures.items() if failure is not None} == {part}, (name, failures)
        assert set(failures) == set(full)
