"""The instructor's manual scores: ``OUT/overrides.csv``, with columns ``student, part, points, reason``.

A row sets one part of one student's grade; it is applied on every run, after the cache, so it
survives a regrade. The file is checked as a whole before anything is graded, and every bad row is
reported in one error, each with its line number:

* ``student`` must be a student of this batch or of the roster;
* ``part`` names a part of the assignment by its grade id (``mask_tokens``), its number (``2``,
  ``Part 2``) or its heading in the notebook (``Part 2: masking tokens for the masked language model
  (3 points)``, or the title alone, ``masking tokens for the masked language model``); case and
  spacing are ignored;
* ``points`` is a number from 0 to the part's maximum, so a grade's total is always the sum of its
  parts (less the late penalty) and never more than the assignment's maximum;
* one row per student and part: a second row for the same part is an error, not a silent overwrite.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_grading.lms.late import points_text
from course_grading.markers import is_answer, nbgrader_meta

__all__ = ["OVERRIDES", "OverridesError", "Parts", "normal", "read_overrides"]

OVERRIDES = "overrides.csv"  # in the output folder
COLUMNS = ("student", "part", "points", "reason")
HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+?)\s*#*\s*$", re.MULTILINE)
NUMBERED = re.compile(r"^part\s+(?P<number>\d+)\s*[:.\-–—]?\s*(?P<title>.*?)\s*(\(\s*[\d.]+\s+points?\s*\))?\Z")

Overrides = dict[str, dict[str, tuple[float, str]]]  # student -> grade id -> (points, reason)


@dataclass(frozen=True)
class Parts:
    """The parts of an assignment as an instructor may name them, and what each is worth."""

    maxima: dict[str, float]  # grade id -> points, in notebook order
    names: dict[str, str]  # a normalised name (grade id, number, "part N", heading, title) -> grade id

    @classmethod
    def of(cls, release: nbformat.NotebookNode, maxima: dict[str, float]) -> Parts:
        """The parts of ``release`` (the student version), named by grade id, number and the
        heading above each answer cell; a heading two parts share names neither, and a grade id or
        a number always names its own part."""
        names: dict[str, set[str]] = {}
        exact: dict[str, str] = {}
        heading = ""
        answers = [c for c in release.cells if c.get("cell_type") == "markdown" or is_answer(c)]
        number = 0
        for cell in answers:
            if cell.get("cell_type") == "markdown":
                found = HEADING.findall(cell.source)
                heading = found[-1] if found else heading
                continue
            part, number = nbgrader_meta(cell)["grade_id"], number + 1
            exact |= {normal(part): part, str(number): part, f"part {number}": part}
            aliases = set()
            if heading:
                aliases.add(heading)
                if match := NUMBERED.match(normal(heading)):
                    aliases.add(match["title"])
            for alias in filter(None, map(normal, aliases)):
                names.setdefault(alias, set()).add(part)
            heading = ""
        return cls(maxima, {alias: next(iter(parts)) for alias, parts in names.items() if len(parts) == 1} | exact)

    def find(self, name: str) -> str | None:
        """The grade id ``name`` stands for, or None."""
        return self.names.get(normal(name))

    def listing(self) -> str:
        """The parts as an error message lists them: ``1 wordpiece (2 points), 2 ...``."""
        return ", ".join(
            f"{n} {part} (max {points_text(most)})" for n, (part, most) in enumerate(self.maxima.items(), 1)
        )


def normal(name: str) -> str:
    """``name`` compared without case, surrounding blanks or repeated spaces."""
    return " ".join(name.split()).casefold()


class OverridesError(ValueError):
    """``overrides.csv`` has rows that cannot be applied; the message lists every one."""


def read_overrides(path: Path, parts: Parts, students: set[str]) -> Overrides:
    """The overrides in ``path`` (none if it does not exist), by student and grade id; raises
    :class:`OverridesError` listing every bad row (see the module's docstring)."""
    if not path.exists():
        return {}
    overrides: Overrides = {}
    seen: dict[tuple[str, str], int] = {}
    problems: list[str] = []
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        columns = [(c or "").strip().lower() for c in reader.fieldnames or []]
        missing = [c for c in COLUMNS[:3] if c not in columns]
        if missing:
            raise OverridesError(
                f"{path}, line 1: the header must name {', '.join(COLUMNS)} (missing {', '.join(missing)})"
            )
        for row in reader:
            cells = {(k or "").strip().lower(): (v or "").strip() if isinstance(v, str) else "" for k, v in row.items()}
            line = reader.line_num
            if not any(cells.values()):
                continue  # a blank line
            try:
                student, part, points = _row(cells, parts, students)
            except ValueError as error:
                problems.append(f"line {line}: {error}")
                continue
            if (student, part) in seen:
                problems.append(
                    f"line {line}: a second row for {student}'s {part} (the first is on line "
                    f"{seen[student, part]}): keep one"
                )
                continue
            seen[student, part] = line
            overrides.setdefault(student, {})[part] = (points, cells.get("reason", ""))
    if problems:
        raise OverridesError(
            f"{path}: {len(problems)} row(s) cannot be applied (nothing was graded; fix them and run again):\n"
            + "\n".join(f"  {p}" for p in problems)
        )
    return overrides


def _row(cells: dict[str, str], parts: Parts, students: set[str]) -> tuple[str, str, float]:
    """One row's student, grade id and points; ValueError naming what is wrong with it."""
    student, name, text = cells.get("student", ""), cells.get("part", ""), cells.get("points", "")
    wrong = []
    if student not in students:
        wrong.append(f"{student!r} is not a student of this batch or the roster" if student else "no student")
    part = parts.find(name)
    if part is None:
        wrong.append(f"{name!r} is not a part of this assignment (parts: {parts.listing()})" if name else "no part")
    try:
        points: float | None = float(text)
    except ValueError:
        wrong.append(f"points {text!r} is not a number")
        points = None
    if part is not None and points is not None and not 0 <= points <= parts.maxima[part]:  # NaN too
        wrong.append(f"{text} points is outside 0..{points_text(parts.maxima[part])}, what {part} is worth")
    if wrong:
        raise ValueError("; ".join(wrong))
    assert part is not None and points is not None
    return student, part, points
