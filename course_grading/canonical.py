"""The canonical notebook: what is graded of a submission, whatever else the student changed.

Only the student's *answer cells* are taken (by grade id) and put into a fresh copy of the student
version: edited, deleted or duplicated test cells, changed points or metadata, or duplicated cell
ids cannot change what is graded; each is recorded as a note for the instructor.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import nbformat

from .check import read_notebook
from .notebooks import answer_ids, nbgrader_meta

MAX_NOTEBOOK_BYTES = 20 * 2**20


def canonical(path: Path, release: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode | None, list[str]]:
    """The student version with the student's answer cells in it, and notes on what else was off."""
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        return None, [f"the notebook is larger than {MAX_NOTEBOOK_BYTES >> 20} MB"]
    try:
        with warnings.catch_warnings():  # duplicated cell ids are noted below, not warned about
            warnings.simplefilter("ignore")
            raw = nbformat.reads(path.read_text(errors="replace"), as_version=4)
    except Exception as error:
        try:
            read_notebook(path)
        except ValueError as reason:
            return None, [str(reason)]
        return None, [f"not a valid Jupyter notebook ({type(error).__name__})"]
    notes = []
    answers: dict[str, str] = {}
    for cell in raw.get("cells", []):
        meta = nbgrader_meta(cell) if isinstance(cell, dict) else {}
        gid = meta.get("grade_id")
        if gid in answers:
            notes.append(f"answer cell {gid} appears twice: the first is graded")
        elif gid is not None and meta.get("solution") and cell.get("cell_type") == "code":
            answers[gid] = str(cell.get("source", ""))
    for gid in answer_ids(release):
        if gid not in answers:
            notes.append(f"answer cell {gid} is missing: graded as not answered")
    originals = {nbgrader_meta(c)["grade_id"]: c.source for c in release.cells if nbgrader_meta(c).get("locked")}
    kept = {nbgrader_meta(c).get("grade_id"): c.get("source") for c in raw.get("cells", []) if isinstance(c, dict)}
    changed = sorted(gid for gid, source in originals.items() if kept.get(gid) != source)
    if changed:
        notes.append(f"read-only cells edited or deleted ({', '.join(changed)}): the originals were graded")
    nb = nbformat.from_dict(release)
    # Ungraded code cells (optional plots) are the release's own, not the student's: grading skips them.
    nb.cells = [c for c in nb.cells if c.cell_type != "code" or nbgrader_meta(c)]
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in answers and nbgrader_meta(cell).get("solution"):
            cell.source = answers[gid]
    if notes:  # the student's feedback says what was restored or missing, first thing
        note = nbformat.v4.new_markdown_cell("**Notes from the grader.**\n\n" + "\n".join(f"- {n}" for n in notes))
        note.id = "grader-notes"
        nb.cells.insert(0, note)
    return nb, notes
