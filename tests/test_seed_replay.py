"""A hidden failure names the seed of its inputs, and `course check --seed` replays that grading exactly."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from test_course_grade import course_copy

from course_grading.cli import main
from course_grading.grade import Batch, Options, grade
from course_grading.seeded import failed_tests, replay

from assignment_support import fixtures, submission_notebook

ASSIGNMENT = "a1_attention"


def test_a_hidden_failure_names_its_seed_and_replays_to_the_same_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = course_copy(tmp_path / "course")
    # passes the visible tests, fails a hidden one
    bug = next(f for f in fixtures(ASSIGNMENT) if f.name == "bug_sdpa_global_max")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    nbformat.write(submission_notebook(ASSIGNMENT, bug), inbox / "ada.ipynb")
    (graded,), _ = grade(Batch(course, ASSIGNMENT, inbox, tmp_path / "out"), Options(jobs=1), progress=lambda *a: None)
    message = failed_tests(nbformat.read(tmp_path / "out" / "autograded" / "ada.ipynb", as_version=4))["test_sdpa"]
    assert graded.seed is not None and f"seed {graded.seed};" in message  # the student's feedback names the inputs

    assignment, again, parts = replay(inbox / "ada.ipynb", course, graded.seed)
    assert assignment == ASSIGNMENT
    assert again.scores == graded.scores and again.seed == graded.seed
    by_part = {p.part: p for p in parts}
    assert by_part["sdpa"].failure == message and by_part["sdpa"].score == 0 < by_part["sdpa"].max_score
    assert all(p.failure is None and p.score == p.max_score for p in parts if p.part != "sdpa")

    # The command line, with another seed: other inputs, named, and the part still fails.
    assert main(["--course", str(course), "check", str(inbox / "ada.ipynb"), "--seed", str(graded.seed + 1)]) == 1
    printed = capsys.readouterr().out
    assert f"{ASSIGNMENT}, graded as `course grade` does with hidden inputs from seed {graded.seed + 1}" in printed
    lines = printed.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["sdpa"])
    assert f"0/{by_part['sdpa'].max_score:g}" in lines[at] and f"seed {graded.seed + 1};" in lines[at + 1]


def test_replay_needs_the_hidden_checks(tmp_path: Path) -> None:
    course = course_copy(tmp_path / "course")
    (course / "grading" / f"{ASSIGNMENT}_checks.py").unlink()  # a student's copy of the course
    nb = tmp_path / "mine.ipynb"
    nbformat.write(submission_notebook(ASSIGNMENT, None), nb)
    with pytest.raises(ValueError, match="instructor's copy"):
        replay(nb, course, 1)
