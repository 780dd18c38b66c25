"""The canonical notebook: what is graded of a submission, whatever else the student changed.

Only the student's *answer cells* are taken (by grade id) and put into a fresh copy of the student
version: edited, deleted or duplicated test cells, changed points or metadata, or duplicated cell
ids cannot change what is graded; each is recorded as a note for the instructor. Metadata of any
shape is read without failing (a grade id that is not text marks no cell), and characters UTF-8
cannot encode (lone surrogates) are graded as ``\\uXXXX`` escapes, which mean the same inside a string.
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
    wanted = set(answer_ids(release))
    cells = [c for c in raw.get("cells", []) if isinstance(c, dict)] if isinstance(raw.get("cells"), list) else []
    odd = 0  # cells whose grade id is not text (a list, say): they mark nothing
    for cell in cells:
        meta = nbgrader_meta(cell)
        gid = meta.get("grade_id")
        if gid is not None and not isinstance(gid, str):
            odd += 1
        elif gid in answers:
            notes.append(f"answer cell {gid} appears twice: the first is graded")
        elif gid in wanted and meta.get("solution") and cell.get("cell_type") == "code":
            source = _text(cell.get("source", ""))
            answers[gid] = encodable(source)
            if answers[gid] != source:
                notes.append(f"answer cell {gid} holds characters UTF-8 cannot encode (lone surrogates): graded as \\u escapes")
    if odd:
        notes.append(f"{odd} cell(s) with a grade id that is not text: ignored")
    for gid in answer_ids(release):
        if gid not in answers:
            notes.append(f"answer cell {gid} is missing: graded as not answered")
    originals = {nbgrader_meta(c)["grade_id"]: c.source for c in release.cells if nbgrader_meta(c).get("locked")}
    kept = {gid: c.get("source") for c in cells if isinstance(gid := nbgrader_meta(c).get("grade_id"), str)}
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


def _text(source: object) -> str:
    """A cell's source as one string (nbformat joins a list of lines; anything else is read as text)."""
    return "".join(source) if isinstance(source, list) and all(isinstance(line, str) for line in source) else str(source)


def encodable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (lone surrogates) written as ``\\uXXXX`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
