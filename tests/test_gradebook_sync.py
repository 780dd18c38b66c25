"""The nbgrader gradebook holds what the last ``course grade`` reports (problems 9, 16, 17, 26):
two batches of one class graded into one course, then the first again from its cache, and
``nbgrader export`` equals that run's grades.csv, with the roster's names and emails, without an
SQLAlchemy warning, and into a file git ignores."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import nbformat
import pytest
from test_course_grade import LIMITS, course_copy

from course_grading import grade as grading
from course_grading.lms.intake import Person, Roster
from course_grading.notebook import gradebook
from course_grading.sandbox import limits as sandbox

from assignment_support import FIXTURES, load_fixture, submission_notebook
from hostile_submissions import ASSIGNMENT, notebook

pytestmark = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)

BUGGY = submission_notebook(ASSIGNMENT, load_fixture(FIXTURES / ASSIGNMENT / "bug_sdpa_no_scale.py"))
ROSTER = Roster([Person("s001", "Lee, Ann", "ann@uni.edu", "101"), Person("s002", "Bo Park", "bo@uni.edu", "102")])


def nbgrader_export(course: Path) -> dict[str, dict[str, str]]:
    """``nbgrader export`` run in the course folder as the README says, by student."""
    subprocess.run(
        [str(Path(sys.executable).parent / "nbgrader"), "export"], cwd=course, check=True, capture_output=True
    )
    with (course / "grades.csv").open() as f:
        return {row["student_id"]: row for row in csv.DictReader(f) if row["assignment"] == ASSIGNMENT}


def grades_csv(out: Path) -> dict[str, float]:
    with (out / "grades.csv").open(encoding="utf-8-sig") as f:
        return {row["student"]: float(row["total"]) for row in csv.DictReader(f)}


def test_the_gradebook_follows_the_last_run_even_from_the_cache(tmp_path: Path) -> None:
    course = course_copy(tmp_path / "course")
    batches = {
        "canvas": {"s001": notebook(), "s002": notebook()},
        "moodle": {"s001": notebook(), "s002": nbformat.writes(BUGGY).encode()},
    }
    for name, batch in batches.items():
        (tmp_path / name).mkdir()
        for student, content in batch.items():
            (tmp_path / name / f"{student}.ipynb").write_bytes(content)

    def run(name: str) -> list[str]:
        graded: list[str] = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grading.grade(
                grading.Batch(course, ASSIGNMENT, tmp_path / name, tmp_path / f"out_{name}"),
                grading.Options(jobs=1, limits=LIMITS, record=True, roster=ROSTER),
                progress=lambda done, total, line: graded.append(line),
            )
        assert not [
            w for w in caught if "SAWarning" in type(w.message).__name__ or "not in session" in str(w.message)
        ], [str(w.message) for w in caught]
        return graded

    for name in ("canvas", "moodle"):
        run(name)
        export = nbgrader_export(course)
        assert {s: float(row["score"]) for s, row in export.items()} == grades_csv(tmp_path / f"out_{name}"), name
    assert grades_csv(tmp_path / "out_canvas")["s002"] == 12 and grades_csv(tmp_path / "out_moodle")["s002"] < 12
    # The first batch again: nothing is graded (all from its cache), and the gradebook says what it reports.
    assert run("canvas") == []
    export = nbgrader_export(course)
    assert (
        {s: float(row["score"]) for s, row in export.items()}
        == grades_csv(tmp_path / "out_canvas")
        == {"s001": 12.0, "s002": 12.0}
    )
    assert "0 graded, 2 from the cache" in (tmp_path / "out_canvas" / "summary.txt").read_text()
    # The roster's names and emails reach nbgrader ("Last, First" split at its comma).
    assert [(export[s]["first_name"], export[s]["last_name"], export[s]["email"]) for s in ("s001", "s002")] == [
        ("Ann", "Lee", "ann@uni.edu"),
        ("Bo", "Park", "bo@uni.edu"),
    ]
    # An override in the cached batch reaches the gradebook on the next run.
    (tmp_path / "out_canvas" / "overrides.csv").write_text("student,part,points,reason\ns001,Part 1,1,copied\n")
    run("canvas")
    assert float(nbgrader_export(course)["s001"]["score"]) == grades_csv(tmp_path / "out_canvas")["s001"] == 9.0


def test_nbgrader_exports_names_from_a_roster_row(tmp_path: Path) -> None:
    assert gradebook.name_parts(Person("x", "Lee, Ann", "a@b.c")) == {
        "first_name": "Ann",
        "last_name": "Lee",
        "email": "a@b.c",
    }
    assert gradebook.name_parts(Person("x", "Ana María López")) == {
        "first_name": "Ana María",
        "last_name": "López",
        "email": "",
    }
    assert gradebook.name_parts(Person("x", "王小明")) == {"first_name": "", "last_name": "王小明", "email": ""}


def test_an_nbgrader_export_and_a_venv_symlink_are_ignored_by_git(tmp_path: Path) -> None:
    """Problems 17 and 30: ``cd assignments && nbgrader export`` wrote the class's grades where git
    would commit them, and a ``.venv`` symlink showed as untracked."""
    shutil.copy(Path(__file__).resolve().parents[1] / ".gitignore", tmp_path / ".gitignore")
    (tmp_path / ".venv").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "assignments").mkdir()
    for name in ("grades.csv", "export.csv", "nbgrader_config.py"):
        (tmp_path / "assignments" / name).write_text("x")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert sorted(status.splitlines()) == ["?? .gitignore", "?? assignments/nbgrader_config.py"]
