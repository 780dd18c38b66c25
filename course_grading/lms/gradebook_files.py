"""Grades out: ``grades.csv`` for the instructor, and files to import into Canvas's and Moodle's gradebooks.

The input is plain :class:`GradeRow` values (one per student), not the grading module's classes.
``total`` is the score after the late penalty; only rows whose status is ``"graded"`` go into the LMS
files, and every row left out of an LMS file is named in the warnings the writers return (the row is
still in ``grades.csv``). A row the grader failed on (status ``"not graded"``, ``total`` None) has
empty points, total and percentage in ``grades.csv``: no spreadsheet or import can read it as a 0.

Canvas gradebook import (checked in canvas-lms ``app/models/gradebook_importer.rb``)
-----------------------------------------------------------------------------------
* The header must start with ``Student`` and ``ID``, and the student columns end with ``Section``;
  ``SIS User ID`` and ``SIS Login ID`` may come between them. Columns named ``Current Score``,
  ``Final Grade`` and the like are ignored.
* A row's student is found by ``ID``, the Canvas user id (the roster's ``lms_id``), else by SIS user
  id or login, else by name. Rows here always carry the user id, and rows without one are left out
  rather than matched by name.
* An assignment column is matched by the id in ``Title (123)`` (``Assignment.title_and_id``), else by
  its exact title; an unknown title creates a new assignment. Pass the Canvas assignment id.
* An optional second row starting ``Points Possible`` would *change* the assignment's points
  possible, so none is written.
* Scores are compared with two decimals, as Canvas exports them; they are written with two at most.

Moodle "Import grades: CSV file" (checked in Moodle ``grade/import/csv``, ``load_data.php``)
-------------------------------------------------------------------------------------------
* The teacher maps one column to the user ("Map from" a column, "Map to" one of user id, username,
  ID number or email address) and each grade column to a grade item. Email is what the roster holds,
  so the file has an ``Email address`` column (the header Moodle's own grade export uses), a ``Full
  name`` column for reading, and one grade column named after the assignment.
* A row whose user cannot be found stops Moodle's import, so rows without an email are left out.

Moodle's assignment "Upload grading worksheet" (``mod/assign/feedback/offline``, ``importgradeslib.php``)
--------------------------------------------------------------------------------------------------------
* Needs the columns ``Identifier`` (``Participant <participant id>``: the number after ``Participant``
  is looked up in the assignment's participant mapping), ``Grade`` and ``Last modified (grade)``
  (read with PHP's ``strtotime``; a grade changed in Moodle after it is kept unless the teacher ticks
  "Allow updating records that have been modified more recently in Moodle"). ``Full name``, ``Email
  address`` and ``Maximum Grade`` are for reading. The participant ids are those of the Moodle export
  the submissions came from (its folder names), so ``moodle_worksheet.csv`` is written only when
  some came from one.

Escaping
--------
Every field of every row, header included, goes through :func:`course_grading.text.csv_cell`: control,
bidi and zero-width characters are written as visible escapes (``\\x1b``, ``\\u202e``) and text a
spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first) gets a leading apostrophe;
numbers stay numbers. An email that would need the apostrophe is no email Moodle can match: such a
row is left out of the Moodle files with a warning.

Encoding
--------
Every file is UTF-8 with a byte-order mark, so that Excel opens names in any script (CJK, Arabic,
Cyrillic) correctly instead of reading them as Windows-1252. The importers accept it: Canvas finds
its header by ``row[0].include?("Student")`` and ``row[1].include?("ID")`` (``GradebookImporter``),
which the mark before ``Student`` does not change, and Moodle's ``csv_import_reader`` removes it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from course_grading.lms.late import points_text

# MISSING: on the roster, nothing handed in; only grades.csv lists it
from course_grading.lms.results import GRADED, MISSING, NOT_GRADED
from course_grading.text import csv_cell

__all__ = [
    "GradeRow",
    "ROWS",
    "check_total",
    "load_rows",
    "max_points",
    "save_rows",
    "write_all",
    "write_canvas_csv",
    "write_grades_csv",
    "write_moodle_csv",
    "write_moodle_worksheet",
]

ENCODING = "utf-8-sig"  # UTF-8 with a byte-order mark: see the module's docstring


@dataclass
class GradeRow:
    """One student's result, as the exports need it."""

    student: str
    name: str
    email: str
    lms_id: str
    points: dict[str, float]  # by part
    max_points: dict[str, float]  # by part
    late_penalty: float
    total: float | None  # after the late penalty; None when not graded
    status: str  # "graded", or why it needs the instructor ("not graded": the grader failed)
    notes: str
    submitted_at: datetime | None
    participant_id: str = ""  # the Moodle participant id, when the submission came from a Moodle export


def write_grades_csv(rows: Sequence[GradeRow], path: Path) -> None:
    """``grades.csv``: per student their parts, total, maximum, percentage, penalty, time, status and notes."""
    parts = max_points(rows)
    most = sum(parts.values())
    for row in rows:
        check_total(row)
    with path.open("w", newline="", encoding=ENCODING, errors="backslashreplace") as f:
        writer = csv.writer(f)
        writer.writerow(
            _cells(
                [
                    "student",
                    "name",
                    "email",
                    *parts,
                    "total",
                    "max total",
                    "percentage",
                    "late penalty",
                    "submitted at",
                    "status",
                    "notes",
                ]
            )
        )
        for row in rows:
            writer.writerow(
                _cells([
                    row.student,
                    row.name,
                    row.email,
                    *(_points(row.points[part]) if part in row.points else None for part in parts),
                    _points(_score(row)) if row.total is not None else None,
                    _points(most),
                    _points(100 * row.total / most) if most and row.total is not None else None,
                    _points(row.late_penalty),
                    row.submitted_at.isoformat(timespec="seconds") if row.submitted_at else None,
                    row.status,
                    row.notes,
                ])
            )  # fmt: skip


def write_canvas_csv(
    rows: Sequence[GradeRow], path: Path, assignment: str, canvas_assignment_id: str | None = None
) -> list[str]:
    """A Canvas gradebook import file with one assignment column; the warnings for rows left out."""
    column = f"{assignment} ({canvas_assignment_id})" if canvas_assignment_id else assignment
    warnings = (
        []
        if canvas_assignment_id
        else [
            f"Canvas: no assignment id given: Canvas matches the column {assignment!r} by its exact title, "
            "or creates a new assignment"
        ]
    )
    with path.open("w", newline="", encoding=ENCODING, errors="backslashreplace") as f:
        writer = csv.writer(f)
        writer.writerow(_cells(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column]))
        for row in rows:
            if problem := _left_out(row) or _canvas_problem(row):
                warnings.append(f"Canvas: {row.student} left out: {problem}")
            else:
                writer.writerow(_cells([row.name or row.student, row.lms_id, None, None, None, _points(_score(row))]))
    return warnings


def write_moodle_csv(rows: Sequence[GradeRow], path: Path, assignment: str) -> list[str]:
    """A Moodle grade import file (users by email address, one grade column); the warnings for rows left out."""
    warnings = []
    with path.open("w", newline="", encoding=ENCODING, errors="backslashreplace") as f:
        writer = csv.writer(f)
        writer.writerow(_cells(["Full name", "Email address", assignment]))
        for row in rows:
            if problem := _left_out(row) or _moodle_problem(row):
                warnings.append(f"Moodle: {row.student} left out: {problem}")
            else:
                writer.writerow(_cells([row.name or row.student, row.email, _points(_score(row))]))
    return warnings


def write_moodle_worksheet(rows: Sequence[GradeRow], path: Path, when: datetime) -> list[str]:
    """Moodle's grading worksheet for the assignment (rows by participant id), graded at ``when``;
    the warnings for rows left out."""
    warnings = []
    most = _points(sum(max_points(rows).values()))
    modified = when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    with path.open("w", newline="", encoding=ENCODING, errors="backslashreplace") as f:
        writer = csv.writer(f)
        writer.writerow(
            _cells(["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)"])
        )
        for row in rows:
            if problem := _left_out(row) or (
                None if row.participant_id.isdigit() else "not from a Moodle export (no participant id)"
            ):
                warnings.append(f"Moodle worksheet: {row.student} left out: {problem}")
            else:
                writer.writerow(
                    _cells(
                        [
                            f"Participant {row.participant_id}",
                            row.name or row.student,
                            row.email,
                            _points(_score(row)),
                            most,
                            modified,
                        ]
                    )
                )
    return warnings


def write_all(
    rows: Sequence[GradeRow],
    out: Path,
    assignment: str,
    canvas_assignment_id: str | None = None,
    when: datetime | None = None,
) -> list[str]:
    """``grades.csv``, ``canvas_import.csv`` and ``moodle_import.csv`` under ``out``, and
    ``moodle_worksheet.csv`` (graded at ``when``, default now) when some rows came from a Moodle
    export; the LMS files' warnings."""
    write_grades_csv(rows, out / "grades.csv")
    # no 0 for them in an LMS: it keeps its own mark (the summary lists them)
    rows = [row for row in rows if row.status != MISSING]
    warnings = write_canvas_csv(rows, out / "canvas_import.csv", assignment, canvas_assignment_id) + write_moodle_csv(
        rows, out / "moodle_import.csv", assignment
    )
    worksheet = out / "moodle_worksheet.csv"
    if any(row.participant_id for row in rows):
        return warnings + write_moodle_worksheet(rows, worksheet, when or datetime.now(UTC))
    worksheet.unlink(missing_ok=True)  # from an earlier batch: it would hold stale grades
    return warnings


ROWS = "report_rows.json"  # in the output folder: the rows the files were written from


def save_rows(rows: Sequence[GradeRow], out: Path, assignment: str, canvas_assignment_id: str | None) -> None:
    """Keep the rows the files were written from (``out/report_rows.json``), so that they can be
    written again without a student (:func:`load_rows`; ``course remove``)."""
    data = {"assignment": assignment, "canvas_assignment_id": canvas_assignment_id,
            "rows": [asdict(row) | {"submitted_at": row.submitted_at.isoformat() if row.submitted_at else None}
                     for row in rows]}  # fmt: skip
    (out / ROWS).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8", errors="backslashreplace")


def load_rows(out: Path) -> tuple[list[GradeRow], str, str | None]:
    """The rows, assignment and Canvas assignment id :func:`save_rows` kept in ``out``; OSError
    if there are none, ValueError if the file is not what it wrote."""
    try:
        data = json.loads((out / ROWS).read_text(encoding="utf-8"))
        rows = [
            GradeRow(
                **row | {"submitted_at": datetime.fromisoformat(row["submitted_at"]) if row["submitted_at"] else None}
            )
            for row in data["rows"]
        ]
        return rows, data["assignment"], data["canvas_assignment_id"]
    except (KeyError, TypeError) as error:
        raise ValueError(f"{out / ROWS} is not a file course grade wrote ({error})") from None


def check_total(row: GradeRow) -> None:
    """Refuse a row whose total is not the sum of its parts less the late penalty, or whose part
    scores lie outside 0..their maximum (a grade the LMS files must never carry)."""
    if row.total is None:
        return
    for part, points in row.points.items():
        if not 0 <= points <= row.max_points.get(part, points):
            raise ValueError(
                f"{row.student}: {part} has {points_text(points)} points, outside "
                f"0..{points_text(row.max_points[part])}"
            )
    expected = max(0.0, sum(row.points.values()) - row.late_penalty)
    if abs(row.total - expected) > 1e-6:
        raise ValueError(
            f"{row.student}: the total {points_text(row.total)} is not the sum of the parts less the late "
            f"penalty ({points_text(expected)})"
        )


def max_points(rows: Sequence[GradeRow]) -> dict[str, float]:
    """Each part's maximum, in the order parts first appear; ValueError if two rows disagree on one."""
    parts: dict[str, tuple[float, str]] = {}
    for row in rows:
        for part, most in row.max_points.items():
            seen, first = parts.setdefault(part, (most, row.student))
            if seen != most:
                raise ValueError(
                    f"part {part!r} is worth {points_text(seen)} points for {first} but {points_text(most)} "
                    f"for {row.student}"
                )
    return {part: most for part, (most, _) in parts.items()}


def _cells(values: Sequence[str | float | None]) -> list[str]:
    """A CSV row: every field through :func:`course_grading.text.csv_cell`."""
    return [csv_cell(value) for value in values]


def _points(points: float) -> float:
    """Points as the files write them: two decimals at most (:func:`course_grading.lms.late.points_text`), as a
    number."""
    return round(points, 2)


def _score(row: GradeRow) -> float:
    """The total of a row :func:`_left_out` lets through (it keeps rows without one out)."""
    if row.total is None:
        raise ValueError(f"{row.student}: a row without a total cannot go to an LMS")
    return row.total


def _left_out(row: GradeRow) -> str | None:
    """Why a row cannot go to an LMS whatever its ids, or None."""
    if row.status == NOT_GRADED or row.total is None:
        return "not graded (a grader error): grade it again"
    return None if row.status == GRADED else f"its status is {row.status!r}: grade it by hand"


def _canvas_problem(row: GradeRow) -> str | None:
    """Why a row cannot be found by Canvas, or None."""
    if not row.lms_id:
        return "no lms_id (Canvas user id) on the roster"
    return None if row.lms_id.isdigit() else f"lms_id {row.lms_id!r} is not a Canvas user id (digits)"


def _moodle_problem(row: GradeRow) -> str | None:
    """Why a row cannot be found by Moodle through its email, or None."""
    if not row.email:
        return "no email on the roster"
    if "@" not in row.email:
        return f"{row.email!r} is not an email address"
    return (
        None
        if csv_cell(row.email) == row.email
        else f"the email {row.email!r} holds characters a CSV file cannot carry as they are (a formula's start, a "
        "control character)"
    )
