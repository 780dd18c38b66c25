"""course_grading.exports: grades.csv, and the Canvas and Moodle gradebook import files."""

from __future__ import annotations

import csv
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from course_grading.exports import GradeRow, max_points, write_all, write_canvas_csv, write_grades_csv, write_moodle_csv

MAX = {"attention": 6.0, "blocks": 4.0}
WHEN = datetime(2026, 11, 21, 1, 2, 3, tzinfo=timezone(timedelta(hours=1)))


def row(student: str, **changes: object) -> GradeRow:
    values: dict[str, object] = dict(
        student=student,
        name=student.title(),
        email=f"{student}@uni.edu",
        lms_id="100",
        points={"attention": 6.0, "blocks": 2.5},
        max_points=MAX,
        late_penalty=0.0,
        total=8.5,
        status="graded",
        notes="",
        submitted_at=WHEN,
    )
    values.update(changes)
    return GradeRow(**values)  # type: ignore[arg-type]


ROWS = [
    row("alice", lms_id="101"),
    row("bob", lms_id="102", email="", points={"attention": 3.0, "blocks": 4.0}, late_penalty=0.7, total=6.3, notes="submitted 2 h late"),
    row("carol", lms_id="", points={}, max_points={}, total=0.0, status="needs attention", notes="=HYPERLINK(\"x\") is not a notebook", submitted_at=None),
    row("dave", name="Dave Ünal", lms_id="abc", total=10 / 3),
]


def read(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_grades_csv_has_every_row_with_parts_totals_and_notes(tmp_path: Path) -> None:
    write_grades_csv(ROWS, tmp_path / "grades.csv")
    header, alice, bob, carol, dave = read(tmp_path / "grades.csv")
    assert header == ["student", "name", "email", "attention", "blocks", "total", "max total", "percentage", "late penalty", "submitted at", "status", "notes"]
    assert alice == ["alice", "Alice", "alice@uni.edu", "6", "2.5", "8.5", "10", "85", "0", "2026-11-21T01:02:03+01:00", "graded", ""]
    assert bob[3:9] == ["3", "4", "6.3", "10", "63", "0.7"] and bob[11] == "submitted 2 h late"
    # A row with no parts (it needs attention) keeps the assignment's maximum; free text cannot start a formula.
    assert carol == ["carol", "Carol", "carol@uni.edu", "", "", "0", "10", "0", "0", "", "needs attention", "'=HYPERLINK(\"x\") is not a notebook"]
    assert dave[1] == "Dave Ünal" and dave[5:8] == ["3.33", "10", "33.33"]


def test_parts_that_disagree_on_their_maximum_are_an_error() -> None:
    with pytest.raises(ValueError, match="part 'blocks' is worth 4 points for alice but 5 for bob"):
        max_points([row("alice"), row("bob", max_points={"attention": 6.0, "blocks": 5.0})])


def test_canvas_import_file(tmp_path: Path) -> None:
    warnings = write_canvas_csv(ROWS, tmp_path / "canvas.csv", "A1: attention", "4567")
    assert read(tmp_path / "canvas.csv") == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "A1: attention (4567)"],
        ["Alice", "101", "", "", "", "8.5"],
        ["Bob", "102", "", "", "", "6.3"],
    ]
    assert warnings == [
        "Canvas: carol left out: its status is 'needs attention': grade it by hand",
        "Canvas: dave left out: lms_id 'abc' is not a Canvas user id (digits)",
    ]


def test_canvas_without_an_assignment_id_warns_and_no_lms_id_is_named(tmp_path: Path) -> None:
    warnings = write_canvas_csv([row("erin", lms_id="")], tmp_path / "canvas.csv", "a1")
    assert read(tmp_path / "canvas.csv")[0][-1] == "a1"
    assert "no assignment id given" in warnings[0]
    assert warnings[1] == "Canvas: erin left out: no lms_id (Canvas user id) on the roster"


def test_moodle_import_file(tmp_path: Path) -> None:
    warnings = write_moodle_csv(ROWS, tmp_path / "moodle.csv", "A1: attention")
    assert read(tmp_path / "moodle.csv") == [
        ["Full name", "Email address", "A1: attention"],
        ["Alice", "alice@uni.edu", "8.5"],
        ["Dave Ünal", "dave@uni.edu", "3.33"],
    ]
    assert warnings == ["Moodle: bob left out: no email on the roster", "Moodle: carol left out: its status is 'needs attention': grade it by hand"]


def test_write_all(tmp_path: Path) -> None:
    warnings = write_all(ROWS, tmp_path, "a1", "4567")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canvas_import.csv", "grades.csv", "moodle_import.csv"]
    assert len(read(tmp_path / "grades.csv")) == 5
    assert [w.split(":")[0] for w in warnings] == ["Canvas", "Canvas", "Moodle", "Moodle"]
