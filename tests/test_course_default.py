"""The ``course`` command without ``--course`` works on the checkout it runs in (problem 18), and
``course remove`` takes the student out of OUT's reports too (problem 22)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from course_grading import cli
from course_grading import grade as grading
from course_grading.lms import reports
from course_grading.lms.intake import Intake, Person, Roster
from course_grading.notebook import assignments


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def course(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., Ran]:
    """``course ARGS...`` run in ``cwd`` (in this process: the command's start-up is most of its time)."""

    def run(*args: str | Path, cwd: Path) -> Ran:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        code = cli.main([str(a) for a in args])
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


def checkout(where: Path) -> Path:
    """A second checkout of the course (its assignments/ only), as another clone would be."""
    assignments.copy_course(where / "assignments")
    return where


def test_the_course_is_the_checkouts_found_from_the_working_folder(tmp_path: Path, course: Callable[..., Ran]) -> None:
    clone = checkout(tmp_path / "clone")
    inside = clone / "assignments" / "source" / "a1_attention"
    assert (
        assignments.checkout_course(inside)
        == clone / "assignments"
        == assignments.checkout_course(clone / "assignments")
    )
    assert assignments.checkout_course(tmp_path) is None
    # An unknown assignment makes `course grade` name the course it looked in, before grading anything.
    result = course("grade", "a9_nothing", tmp_path, cwd=inside)
    assert result.returncode == 2 and f"(looked in {clone / 'assignments' / 'source'})" in result.stderr, result.stderr
    assert "not inside a checkout" not in result.stderr


def test_outside_a_checkout_the_installed_course_is_used_and_named(tmp_path: Path, course: Callable[..., Ran]) -> None:
    result = course("grade", "a9_nothing", tmp_path, cwd=tmp_path)
    assert result.returncode == 2
    assert (
        f"course: {tmp_path} is not inside a checkout of the course (no assignments/source "
        f"above it): using {assignments.COURSE}"
    ) in result.stderr
    assert f"(looked in {assignments.COURSE / 'source'})" in result.stderr


def test_course_remove_updates_the_reports(tmp_path: Path, course: Callable[..., Ran]) -> None:
    clone = checkout(tmp_path / "clone")
    out = tmp_path / "out"
    out.mkdir()
    roster = Roster([Person("s001", "Ann Lee", "ann@uni.edu", "101"), Person("s025", "Bo Park", "bo@uni.edu", "125")])
    results = [
        grading.Result(s, grading.GRADED, scores={"sdpa": 4.0}, max_scores={"sdpa": 4.0}) for s in ("s001", "s025")
    ]
    reports.write_reports(results, {"sdpa": 4.0}, Intake({}, []), out, "a1_attention", roster, None)
    (out / "feedback").mkdir()
    (out / "feedback" / "s025.html").write_text("<p>feedback</p>")
    result = course("remove", "a1_attention", "s025", "--out", out, cwd=clone)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"from {out}: feedback/s025.html, grades.csv and the LMS import files" in result.stdout
    for name in ("grades.csv", "canvas_import.csv", "moodle_import.csv"):
        assert "Bo Park" not in (out / name).read_text(encoding="utf-8-sig") and "Ann Lee" in (out / name).read_text(
            encoding="utf-8-sig"
        )
    assert not (out / "feedback" / "s025.html").exists()
    again = course("remove", "a1_attention", "s025", "--out", out, cwd=clone)
    assert again.returncode == 1 and "nothing recorded for s025" in again.stdout
