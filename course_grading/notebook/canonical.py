"""The canonical notebook: what is graded of a submission, whatever else the student changed.

It is a fresh copy of the student version (the release) with the student's code in it:

* **Answer cells** are taken by grade id. A missing one is graded as not answered; of a duplicated
  one the first is graded.
* **Read-only cells** (the set-up, the headings, every test cell) are always the release's: an
  edited, deleted or duplicated one, changed points or metadata cannot change what is graded, and
  each is noted. They are anchors: a read-only cell sits where the release has it, once.
* **Code cells the student added** (an import, a helper) are kept where the student put them, as
  nbgrader does: each goes right after the release cell (answer or read-only) that precedes it in
  the submission, in the student's order, marked with a grade id of its own
  (:data:`~course_grading.markers.OWN_CELL` ``1``, ``2``, ...). They run exactly as answer cells
  run: in the same jailed student process, in notebook order, before any part's tests (grading runs
  every code cell first, then each part's tests with correct versions of the other parts), so
  they give the student's code no power it did not have in an answer cell, and the shortcut scan
  reads them. Cells that cannot be kept are dropped, with a note the feedback and the summary show:
  a code cell after the last test cell (in the notebook it runs after every test, so it can change
  no grade; graded first, it could), and every added cell of a notebook that has none of the
  release's cells to place them by (its nbgrader metadata removed, say), and those beyond the first
  :data:`MAX_ADDED_CELLS` (each is a cell of the notebook that grading writes, runs and reports on:
  a million of them would hold up the whole batch before any limit of the student's applies). A code cell that is the
  release's own ungraded cell (an optional plot after the last part) is the release's, not the
  student's: skipped, as grading always has. The student's markdown and empty cells change no
  grade and are dropped silently.

Metadata of any shape is read without failing (a grade id that is not text marks no cell), and
characters UTF-8 cannot encode (lone surrogates) are graded as ``\\uXXXX`` escapes, which mean the
same inside a string. What is graded is the cells' code and text: a notebook over
:data:`~course_grading.markers.MAX_SOURCE_BYTES` of it is refused, whatever its outputs weigh
(outputs are never graded); a file over :data:`~course_grading.markers.MAX_FILE_BYTES` is not read.
A notebook of another assignment (none of this release's answer or test cells, another release's)
is not graded: it is named in the note, for a person to look at.

``course check`` runs the same canonical notebook (:func:`rebuild`), so what it checks is what is graded.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_grading.markers import (
    OWN_CELL,
    answer_ids,
    cell_text,
    defined_names,
    defused,
    file_size_problem,
    is_answer,
    is_test,
    json_values_problem,
    nbgrader_meta,
    part_of,
    source_size_problem,
)

__all__ = [
    "Canonical",
    "MAX_ADDED_CELLS",
    "assignment_of",
    "canonical",
    "encodable",
    "grade_ids",
    "other_assignment",
    "own_cell",
    "part_ids",
    "read_submission",
    "rebuild",
    "redefined_after_tests",
]


MAX_ADDED_CELLS = 500  # code cells a student may add that are graded; a notebook's own scratch cells are far fewer
MAX_NAMED = 10  # cells named one by one in a note; the rest are counted


@dataclass
class Canonical:
    """The notebook that is graded, what was off, and where each of its cells came from."""

    nb: nbformat.NotebookNode  # the release with the student's code in it (no notes cell)
    notes: list[str]  # for the instructor and the student: what was restored, missing or dropped
    # per cell of ``nb``: the index of the submission's cell it stands for, None if the submission has none
    origin: list[int | None]


def read_submission(path: Path) -> tuple[nbformat.NotebookNode | None, list[str]]:
    """The submitted notebook as it is (not validated: metadata of any shape), or None and why it
    cannot be graded (not a notebook, too large)."""
    problem = file_size_problem(path.stat().st_size) if path.is_file() else "no such file"
    if problem is not None:
        return None, [problem]
    if path.stat().st_size == 0:
        return None, ["the file is empty"]
    data = path.read_bytes()
    if (problem := json_values_problem(data)) is not None:  # its cost in this process, before it is parsed
        return None, [problem]
    try:
        with warnings.catch_warnings():  # duplicated cell ids are noted below, not warned about
            warnings.simplefilter("ignore")
            raw = nbformat.reads(data.decode(errors="replace"), as_version=4)
    except Exception as error:  # json, schema or encoding errors all mean "not a notebook"
        return None, [
            f"not a valid Jupyter notebook ({type(error).__name__}: "
            f"{str(error).splitlines()[0][:200] if str(error) else ''})"
        ]
    problem = source_size_problem(_cells(raw))
    return (None, [problem]) if problem is not None else (raw, [])


def canonical(
    path: Path, release: nbformat.NotebookNode, releases: Path | None = None
) -> tuple[nbformat.NotebookNode | None, list[str]]:
    """The student version with the student's code in it (:func:`rebuild`), a first markdown cell
    holding the notes if there are any, and the notes; or None and why not. ``releases``, the
    course's ``release`` folder, names the assignment of a notebook that is another assignment's."""
    raw, notes = read_submission(path)
    if raw is None:
        return None, notes
    other = other_assignment(raw, release, releases) if releases is not None else None
    if other is not None:
        return None, [other]
    rebuilt = rebuild(raw, release)
    nb = rebuilt.nb
    if rebuilt.notes:  # the student's feedback says what was restored, missing or dropped, first thing
        note = nbformat.v4.new_markdown_cell(
            "**Notes from the grader.**\n\n" + "\n".join(f"- {n}" for n in rebuilt.notes)
        )
        note.id = "grader-notes"
        nb.cells.insert(0, note)
    return nb, rebuilt.notes


def rebuild(raw: nbformat.NotebookNode, release: nbformat.NotebookNode) -> Canonical:
    """The canonical notebook of the submission ``raw`` (see the module's docstring)."""
    cells = _cells(raw)
    known = {gid for c in release.cells if isinstance(gid := nbgrader_meta(c).get("grade_id"), str)}
    wanted = set(answer_ids(release))
    notes: list[str] = []
    first: dict[str, int] = {}  # grade id -> the index of its first cell in the submission
    answers: dict[str, str] = {}
    added: list[tuple[str | None, int, str]] = []  # (the release cell it follows, its index, its code)
    anchor: str | None = None
    odd = 0  # cells whose grade id is not text (a list, say): they mark nothing
    extras = _release_extras(release)
    for index, cell in enumerate(cells):
        meta = nbgrader_meta(cell)
        gid = meta.get("grade_id")
        if gid is not None and not isinstance(gid, str):
            odd += 1
        elif gid in known and gid in first:
            kind = "answer" if gid in wanted else "read-only"
            notes.append(
                f"{kind} cell {gid} appears twice (cells {first[gid] + 1} and {index + 1}): the first is graded"
                if gid in wanted
                else f"{kind} cell {gid} appears twice (cells {first[gid] + 1} and {index + 1}): the release's is "
                "graded, once"
            )
        elif gid in known:
            first[gid], anchor = index, gid
            if gid in wanted and meta.get("solution") and cell.get("cell_type") == "code":
                answers[gid] = _encodable_note(cell, f"answer cell {gid}", notes)
        elif (
            cell.get("cell_type") == "code"
            and cell_text(cell.get("source", "")).strip()
            and not _is_extra(cell, extras)
        ):
            added.append((anchor, index, cell_text(cell.get("source", ""))))
    escaped = [index for _, index, source in added if encodable(source) != source]
    if escaped:  # one note for them all: a notebook may have a million such cells
        notes.append(
            f"{_cells_named(escaped)} {'holds' if len(escaped) == 1 else 'hold'} characters UTF-8 cannot "
            "encode (lone surrogates): graded as \\u escapes"
        )
    added = [(anchor, index, encodable(source)) for anchor, index, source in added]
    if odd:
        notes.append(f"{odd} cell(s) with a grade id that is not text: ignored")
    notes += [
        f"answer cell {gid} is missing: graded as not answered" for gid in answer_ids(release) if gid not in answers
    ]
    originals = {nbgrader_meta(c)["grade_id"]: c.source for c in release.cells if nbgrader_meta(c).get("locked")}
    changed = sorted(
        gid
        for gid, source in originals.items()
        if gid not in first or cell_text(cells[first[gid]].get("source", "")) != source
    )
    if changed:
        notes.append(f"read-only cells edited or deleted ({', '.join(changed)}): the release's originals are graded")
    nb = nbformat.from_dict(release)
    # Ungraded code cells (optional plots) are the release's own, not the student's: grading skips them.
    nb.cells = [c for c in nb.cells if c.cell_type != "code" or nbgrader_meta(c)]
    marked = sorted(gid for gid, source in answers.items() if defused(source) != source)
    marked += [f"{n} added cell(s)"] if (n := sum(defused(source) != source for _, _, source in added)) else []
    if marked:
        notes.append(
            f"nbgrader's marker words in the student's cells ({', '.join(marked)}) were hyphenated, so that "
            "nbgrader cannot read them as its own"
        )
    added = [(anchor, index, defused(source)) for anchor, index, source in added]
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in answers and is_answer(cell):
            cell.source = defused(answers[gid])
    canon = _with_added(nb, added, first, notes)
    canon.notes += redefined_after_tests(canon)
    return canon


def redefined_after_tests(canon: Canonical) -> list[str]:
    """A note for each code cell below a part's test cell that defines one of that part's functions
    again: grading runs every cell before the tests, so the later definition is the one graded."""
    notes: list[str] = []
    tested: dict[str, str] = {}  # name -> the test cell's grade id that has tested it so far
    defined: dict[str, str] = {}  # name -> the answer cell that defines it
    for cell, origin in zip(canon.nb.cells, canon.origin):
        if cell.cell_type != "code":
            continue
        if is_test(cell):
            tested |= {
                name: nbgrader_meta(cell)["grade_id"]
                for name, answer in defined.items()
                if part_of(nbgrader_meta(cell)["grade_id"]) == answer
            }
            continue
        again = sorted(set(defined_names(cell.source)) & set(tested))
        if again and origin is not None:
            names = ", ".join(f"`{name}`" for name in again)
            notes.append(
                f"cell {origin + 1} defines {names} again, below the test cell {tested[again[0]]}: grading runs every "
                "cell before the tests, so this later definition is the one graded (and checked)"
            )
        if is_answer(cell):
            defined |= dict.fromkeys(defined_names(cell.source), nbgrader_meta(cell)["grade_id"])
    return notes


def _with_added(
    nb: nbformat.NotebookNode, added: list[tuple[str | None, int, str]], first: dict[str, int], notes: list[str]
) -> Canonical:
    """``nb`` with the student's added code cells after their anchors, and the origin of each cell."""
    position = {nbgrader_meta(c).get("grade_id"): i for i, c in enumerate(nb.cells)}
    last_test = max((i for i, c in enumerate(nb.cells) if is_test(c)), default=-1)
    # release position (-1: before the first cell) -> added cells after it
    placed: dict[int, list[tuple[int, str]]] = {}
    late, unplaced, over = [], [], []
    kept = 0
    for anchor, index, source in added:
        at = -1 if anchor is None else position[anchor]
        if not first:
            unplaced.append(index)
        elif at >= last_test:
            late.append(index)
        elif kept >= MAX_ADDED_CELLS:
            over.append(index)
        else:
            placed.setdefault(at, []).append((index, source))
            kept += 1
    if late:
        notes.append(
            f"{_cells_named(late)} added after the last test cell {'was' if len(late) == 1 else 'were'} not graded "
            "(code there runs after every test, so it cannot count): move code a part needs above that part's test cell"
        )
    if unplaced:
        notes.append(
            "none of the notebook's cells is this assignment's (was its cell metadata removed?): "
            f"{_cells_named(unplaced)} {'was' if len(unplaced) == 1 else 'were'} not graded"
        )
    if over:
        notes.append(
            f"{_cells_named(over)} {'was' if len(over) == 1 else 'were'} not graded: a notebook's first "
            f"{MAX_ADDED_CELLS} added code cells are"
        )
    cells, origin, count = [], [], 0
    for at in range(-1, len(nb.cells)):
        if at >= 0:
            cells.append(nb.cells[at])
            origin.append(first.get(nbgrader_meta(nb.cells[at]).get("grade_id", "")))
        for index, source in placed.get(at, []):
            count += 1
            cells.append(own_cell(source, count))
            origin.append(index)
    nb.cells = cells
    return Canonical(nb, notes, origin)


def own_cell(source: str, number: int) -> nbformat.NotebookNode:
    """The ``number``-th code cell the student added, marked so that grading runs it and no more:
    not graded, not a solution, not read-only."""
    cell = nbformat.v4.new_code_cell(source)
    cell.id = f"{OWN_CELL}{number}"
    cell.metadata["nbgrader"] = {
        "grade": False,
        "solution": False,
        "locked": False,
        "grade_id": cell.id,
        "schema_version": 3,
    }
    return cell


def other_assignment(raw: nbformat.NotebookNode, release: nbformat.NotebookNode, releases: Path) -> str | None:
    """A note if ``raw`` is another assignment's notebook: none of ``release``'s answer and test
    cells, some of another release's in ``releases``; None otherwise."""
    ids = grade_ids(raw)
    if ids & part_ids(release):
        return None
    this, other = assignment_of(part_ids(release), releases), assignment_of(ids, releases)
    if other is None or other == this:
        return None
    return (
        f"this is {other}'s notebook, not {this or 'this assignment'}'s (its answer and test cells are "
        f"{other}'s): not graded, for a person to look at"
    )


def assignment_of(ids: Iterable[str], releases: Path) -> str | None:
    """The assignment in ``releases`` (``<id>/<id>.ipynb``) whose answer and test cells' grade ids
    ``ids`` share most of, or None if it shares none."""
    ids = set(ids)
    best, most = None, 0
    for path in sorted(releases.glob("*/*.ipynb")):
        if path.stem != path.parent.name:
            continue
        shared = len(ids & part_ids(nbformat.read(path, as_version=4)))
        if shared > most:
            best, most = path.stem, shared
    return best


def grade_ids(nb: nbformat.NotebookNode) -> set[str]:
    """The grade ids (text only) of a notebook's cells, of any shape."""
    return {gid for c in _cells(nb) if isinstance(gid := nbgrader_meta(c).get("grade_id"), str)}


def part_ids(nb: nbformat.NotebookNode) -> set[str]:
    """The grade ids of a release's answer and test cells: what tells one assignment from another
    (headings and set-up cells have the same ids in every assignment)."""
    return {nbgrader_meta(c)["grade_id"] for c in nb.cells if is_answer(c) or is_test(c)}


def _cells(nb: nbformat.NotebookNode) -> list:
    """A notebook's cells that are objects, whatever else its ``cells`` holds (nothing, if it is not a list)."""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    return [c for c in cells if isinstance(c, dict)] if isinstance(cells, list) else []


def _release_extras(release: nbformat.NotebookNode) -> tuple[set[str], set[str]]:
    """The ids and sources of the release's ungraded code cells (optional plots)."""
    extras = [c for c in release.cells if c.cell_type == "code" and not nbgrader_meta(c)]
    return {c.get("id") for c in extras if c.get("id")}, {c.source.strip() for c in extras}


def _is_extra(cell: dict, extras: tuple[set[str], set[str]]) -> bool:
    """Whether a submitted cell is one of the release's ungraded code cells (by its id or its code)."""
    return cell.get("id") in extras[0] or cell_text(cell.get("source", "")).strip() in extras[1]


def _encodable_note(cell: dict, name: str, notes: list[str]) -> str:
    """A cell's code as text UTF-8 can encode, noting when characters had to be escaped."""
    source = cell_text(cell.get("source", ""))
    escaped = encodable(source)
    if escaped != source:
        notes.append(f"{name} holds characters UTF-8 cannot encode (lone surrogates): graded as \\u escapes")
    return escaped


def _cells_named(indices: list[int]) -> str:
    """``[4, 6]`` -> "cells 5 and 7" (counted from 1, as the notebook shows them); past
    :data:`MAX_NAMED` cells, the first ones and how many more."""
    numbers = [str(i + 1) for i in indices[:MAX_NAMED]] + (
        [f"{len(indices) - MAX_NAMED} more"] if len(indices) > MAX_NAMED else []
    )
    return f"cell {numbers[0]}" if len(numbers) == 1 else f"cells {', '.join(numbers[:-1])} and {numbers[-1]}"


def encodable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (lone surrogates) written as ``\\uXXXX`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
