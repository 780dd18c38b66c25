"""``course check NOTEBOOK --seed N``: replay a graded notebook's hidden checks on the inputs of seed N.

``course grade`` draws every hidden check's inputs from a seed derived from the assignment and the
submission (``worker.checks_seed``), so the same notebook always gets the same inputs and the same
grade, and a hidden failure's message names its seed. An instructor (who has the hidden checks in
the course's ``grading/`` folder) replays that grading here: the notebook is graded exactly as
``course grade`` grades it (the same sandbox, limits, canonical notebook and checks) in a throwaway
output folder, with the given seed, and nothing is recorded or cached.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_grading.check import identify
from course_grading.grade import Batch, Options, grade
from course_grading.lms.results import NOT_GRADED, Result
from course_grading.markers import is_test, nbgrader_meta, part_of, part_points
from course_grading.notebook.canonical import read_submission
from course_grading.sandbox.limits import Limits

__all__ = ["PartReplay", "failed_tests", "replay"]

STUDENT = "replay"  # the id the notebook is graded under


@dataclass(frozen=True)
class PartReplay:
    """One graded part of a replay: its grade id, points, and the failure its test cell showed."""

    part: str
    score: float
    max_score: float
    failure: str | None  # the error the test cell ended with (visible or hidden), None if it passed


def replay(notebook: Path, course: Path, seed: int, limits: Limits = Limits()) -> tuple[str, Result, list[PartReplay]]:
    """Grade ``notebook`` as ``course grade`` would grade it for the assignment its cells belong
    to, with hidden inputs from ``seed``; record nothing. Returns that assignment, the result and
    each part's verdict.

    Raises ValueError for a file that is not one of the course's notebooks and when the course has
    no hidden checks (a student's copy of the course), RuntimeError when the grader failed on it."""
    raw, problems = read_submission(notebook)
    if raw is None:
        raise ValueError(problems[0])
    assignment, _ = identify(notebook, raw, course / "release")
    checks = course / "grading" / f"{assignment}_checks.py"
    if not checks.is_file():
        raise ValueError(f"{checks} is missing: replaying hidden checks needs the instructor's copy of the course")
    with tempfile.TemporaryDirectory(prefix="course-replay-") as tmp:
        submissions = Path(tmp) / "submissions"
        submissions.mkdir()
        shutil.copyfile(notebook, submissions / f"{STUDENT}.ipynb")
        out = Path(tmp) / "out"
        results, _ = grade(
            Batch(course, assignment, submissions, out),
            Options(jobs=1, limits=limits, record=False, seed=seed),
            progress=lambda done, total, line: None,
        )
        result = results[0]
        if result.status == NOT_GRADED:
            raise RuntimeError("; ".join(result.notes) or "the grader failed on the notebook")
        graded = out / "autograded" / f"{STUDENT}.ipynb"
        failures = failed_tests(nbformat.read(graded, as_version=4)) if graded.exists() else {}
    points = part_points(nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4))
    tests = {part_of(test_id): failure for test_id, failure in failures.items()}
    return (
        assignment,
        result,
        [PartReplay(part, result.scores.get(part, 0.0), top, tests.get(part)) for part, top in points.items()],
    )


def failed_tests(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The last line of each failed test cell's error, by the cell's grade id."""
    failures = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if is_test(cell) else []:
            if output.get("output_type") == "error":
                failures[nbgrader_meta(cell)["grade_id"]] = (
                    f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
                )
    return failures
