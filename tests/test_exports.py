"""course_grading.lms.gradebook_files: grades.csv, and the Canvas and Moodle gradebook import files."""

from __future__ import annotations

import csv
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from course_grading.lms.gradebook_files import (
    GradeRow,
    load_rows,
    max_points,
    save_rows,
    write_all,
    write_canvas_csv,
    write_grades_csv,
    write_moodle_csv,
    write_moodle_worksheet,
)

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
    row(
        "bob",
        lms_id="102",
        email="",
        points={"attention": 3.0, "blocks": 4.0},
        late_penalty=0.7,
        total=6.3,
        notes="submitted 2 h late",
    ),
    row(
        "carol",
        lms_id="",
        points={},
        max_points={},
        total=0.0,
        status="needs attention",
        notes='=HYPERLINK("x") is not a notebook',
        submitted_at=None,
    ),
    row("dave", name="Dave Ünal", lms_id="abc", points={"attention": 10 / 3, "blocks": 0.0}, total=10 / 3),
]


def read(path: Path) -> list[list[str]]:
    """The rows of a CSV file the exports wrote: UTF-8 with a byte-order mark (for Excel)."""
    assert path.read_bytes().startswith(b"\xef\xbb\xbf"), (
        f"{path.name} has no UTF-8 byte-order mark: Excel would garble non-Latin names"
    )
    with path.open(newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def test_grades_csv_has_every_row_with_parts_totals_and_notes(tmp_path: Path) -> None:
    write_grades_csv(ROWS, tmp_path / "grades.csv")
    header, alice, bob, carol, dave = read(tmp_path / "grades.csv")
    assert header == [
        "student",
        "name",
        "email",
        "attention",
        "blocks",
        "total",
        "max total",
        "percentage",
        "late penalty",
        "submitted at",
        "status",
        "notes",
    ]
    assert alice == [
        "alice",
        "Alice",
        "alice@uni.edu",
        "6",
        "2.5",
        "8.5",
        "10",
        "85",
        "0",
        "2026-11-21T01:02:03+01:00",
        "graded",
        "",
    ]
    assert bob[3:9] == ["3", "4", "6.3", "10", "63", "0.7"] and bob[11] == "submitted 2 h late"
    # A row with no parts (it needs attention) keeps the assignment's maximum; free text cannot start a formula.
    assert carol == [
        "carol",
        "Carol",
        "carol@uni.edu",
        "",
        "",
        "0",
        "10",
        "0",
        "0",
        "",
        "needs attention",
        '\'=HYPERLINK("x") is not a notebook',
    ]
    assert dave[1] == "Dave Ünal" and dave[3:8] == ["3.33", "0", "3.33", "10", "33.33"]


def test_parts_that_disagree_on_their_maximum_are_an_error() -> None:
    with pytest.raises(ValueError, match="part 'blocks' is worth 4 points for alice but 5 for bob"):
        max_points([row("alice"), row("bob", max_points={"attention": 6.0, "blocks": 5.0})])


@pytest.mark.parametrize(
    ("write", "table", "warnings"),
    [
        pytest.param(
            lambda path: write_canvas_csv(ROWS, path, "A1: attention", "4567"),
            [
                ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "A1: attention (4567)"],
                ["Alice", "101", "", "", "", "8.5"],
                ["Bob", "102", "", "", "", "6.3"],
            ],
            [
                "Canvas: carol left out: its status is 'needs attention': grade it by hand",
                "Canvas: dave left out: lms_id 'abc' is not a Canvas user id (digits)",
            ],
            id="canvas",
        ),
        pytest.param(
            lambda path: write_moodle_csv(ROWS, path, "A1: attention"),
            [
                ["Full name", "Email address", "A1: attention"],
                ["Alice", "alice@uni.edu", "8.5"],
                ["Dave Ünal", "dave@uni.edu", "3.33"],
            ],
            [
                "Moodle: bob left out: no email on the roster",
                "Moodle: carol left out: its status is 'needs attention': grade it by hand",
            ],
            id="moodle",
        ),
    ],
)
def test_import_file(
    tmp_path: Path, write: Callable[[Path], list[str]], table: list[list[str]], warnings: list[str]
) -> None:
    """Canvas's and Moodle's import files: the rows the LMS can take, and a warning naming each student left out
    and why."""
    assert write(tmp_path / "import.csv") == warnings
    assert read(tmp_path / "import.csv") == table


def test_canvas_without_an_assignment_id_warns_and_no_lms_id_is_named(tmp_path: Path) -> None:
    warnings = write_canvas_csv([row("erin", lms_id="")], tmp_path / "canvas.csv", "a1")
    assert read(tmp_path / "canvas.csv")[0][-1] == "a1"
    assert "no assignment id given" in warnings[0]
    assert warnings[1] == "Canvas: erin left out: no lms_id (Canvas user id) on the roster"


def test_write_all(tmp_path: Path) -> None:
    warnings = write_all(ROWS, tmp_path, "a1", "4567")
    # no Moodle export: no worksheet
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canvas_import.csv", "grades.csv", "moodle_import.csv"]
    assert len(read(tmp_path / "grades.csv")) == 5
    assert [w.split(":")[0] for w in warnings] == ["Canvas", "Canvas", "Moodle", "Moodle"]


def test_a_total_that_is_not_the_sum_of_its_parts_or_a_part_over_its_maximum_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="alice: the total 9 is not the sum of the parts less the late penalty"):
        write_grades_csv([row("alice", total=9.0)], tmp_path / "grades.csv")
    with pytest.raises(ValueError, match="alice: blocks has 5 points, outside 0..4"):
        write_grades_csv([row("alice", points={"attention": 6.0, "blocks": 5.0}, total=11.0)], tmp_path / "grades.csv")
    with pytest.raises(ValueError, match="outside 0..4"):
        write_grades_csv([row("alice", points={"attention": 6.0, "blocks": -1.0}, total=5.0)], tmp_path / "grades.csv")


def test_names_in_any_script_reach_excel_and_canvas_keeps_the_rosters_last_first_name(tmp_path: Path) -> None:
    rows = [
        row("wang", name="王小明", lms_id="201"),
        row("haddad", name="حداد، سارة", lms_id="202"),
        row("smith", name="Smith, John", lms_id="203"),
    ]
    write_all(rows, tmp_path, "a4_bert", "77")
    raw = (tmp_path / "canvas_import.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and "王小明".encode() in raw
    assert [r[0] for r in read(tmp_path / "canvas_import.csv")[1:]] == ["王小明", "حداد، سارة", "Smith, John"]
    assert read(tmp_path / "grades.csv")[1][1] == "王小明" and read(tmp_path / "moodle_import.csv")[1][0] == "王小明"


def test_moodle_grading_worksheet_has_moodles_identifier_column(tmp_path: Path) -> None:
    rows = [
        row("alice", participant_id="500101"),
        row("bob", participant_id="500102", status="needs attention"),
        row("carol"),
        row("dave", participant_id="500104", points={"attention": 1.0, "blocks": 0.0}, total=1.0),
    ]
    warnings = write_moodle_worksheet(rows, tmp_path / "worksheet.csv", WHEN)
    assert read(tmp_path / "worksheet.csv") == [
        ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)"],
        ["Participant 500101", "Alice", "alice@uni.edu", "8.5", "10", "2026-11-21 00:02:03 UTC"],
        ["Participant 500104", "Dave", "dave@uni.edu", "1", "10", "2026-11-21 00:02:03 UTC"],
    ]
    assert warnings == [
        "Moodle worksheet: bob left out: its status is 'needs attention': grade it by hand",
        "Moodle worksheet: carol left out: not from a Moodle export (no participant id)",
    ]
    # write_all writes it only for a batch from a Moodle export, and removes an earlier batch's.
    write_all(rows, tmp_path, "a4_bert")
    assert read(tmp_path / "moodle_worksheet.csv")[1][0] == "Participant 500101"
    write_all([row("carol")], tmp_path, "a4_bert")
    assert not (tmp_path / "moodle_worksheet.csv").exists()


def test_rows_kept_for_rewriting_round_trip(tmp_path: Path) -> None:
    save_rows(ROWS, tmp_path, "a1", "4567")
    assert load_rows(tmp_path) == (ROWS, "a1", "4567")
