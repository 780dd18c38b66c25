"""Each part is graded on its own, on every path: a part left unfinished, hanging or wrong costs its
own points, and only those.

For every assignment and every part, three submissions built from the answer key: the part left
as the student version's stub (``NotImplementedError``), every function of the part replaced by an
endless loop, and the part replaced by a realistic bug (a fixture under ``tests/fixtures``). Each
is graded by ``course grade`` (the sandbox, all three), by plain ``nbgrader autograde`` (every part
unfinished, and the first part hanging: each hang waits out the cell timeout, and the first is the
one after which every other part must still be graded; the fixture round trip covers the wrong ones) and in-process by
:func:`course_grading.notebook.harness.run_tests` (unfinished and wrong: nothing interrupts a loop there).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.markers import answer_code, answer_ids, defined_names, part_points, with_answers
from course_grading.notebook.assignments import copy_course, nbgrader_api
from course_grading.notebook.harness import run_tests
from course_grading.sandbox import limits as sandbox

from assignment_support import ASSIGNMENTS, GRADING, assignment_ids, fixtures, release_notebook, source_notebook

pytestmark = pytest.mark.slow
IDS = assignment_ids()
LIMITS = sandbox.Limits(cell_s=6, total_s=120, memory_bytes=4 * 2**30)


def variants(assignment: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Submission name -> (the part it breaks, the answer cells that differ from the key)."""
    stubs = answer_code(release_notebook(assignment))
    bugs: dict[str, dict[str, str]] = {}  # a wrong cell per part: a one-part fixture's, else a several-part one's
    for f in sorted(fixtures(assignment), key=lambda f: (len(f.loses), f.name)):
        for part in sorted(f.loses):
            bugs.setdefault(part, {part: f.cells[part]})
    made: dict[str, tuple[str, dict[str, str]]] = {}
    for part in answer_ids(release_notebook(assignment)):
        names = defined_names(stubs[part])
        made[f"{part}-unfinished"] = (part, {part: stubs[part]})
        made[f"{part}-hangs"] = (
            part,
            {part: "\n\n".join(f"def {name}(*args, **kwargs):\n    while True:\n        pass\n" for name in names)},
        )
        made[f"{part}-wrong"] = (part, bugs[part])
    return made


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


@pytest.mark.parametrize("assignment", IDS)
def test_plain_nbgrader(assignment: str, tmp_path: Path) -> None:
    """Plain ``nbgrader autograde`` (trusted notebooks only), with a short cell time limit."""
    course = copy_course(tmp_path / "course")
    with (course / "nbgrader_config.py").open("a") as config:
        config.write("\nc.Execute.timeout = 15\n")  # the slowest hidden check, cold, on a busy machine: a few seconds
    api = nbgrader_api(course)
    assert api.generate_assignment(assignment, force=True)["success"]
    parts = answer_ids(release_notebook(assignment))
    made = {
        name: v
        for name, v in variants(assignment).items()
        if name.endswith("-unfinished") or name == f"{parts[0]}-hangs"
    }
    for name, (_, answers) in made.items():
        folder = course / "submitted" / name / assignment
        folder.mkdir(parents=True)
        nbformat.write(submission(assignment, answers), folder / f"{assignment}.ipynb")
        assert api.autograde(assignment, name, force=True, create=True)["success"]
    from nbgrader.api import Gradebook

    full = part_points(release_notebook(assignment))
    with Gradebook(api.coursedir.db_url) as gradebook:
        matrix = {
            name: lost(
                {
                    g.name.removeprefix("test_"): g.score
                    for g in gradebook.find_submission_notebook(assignment, assignment, name).grades
                },
                full,
            )
            for name in made
        }
    assert matrix == {name: {part} for name, (part, _) in made.items()}
    shutil.rmtree(course)
