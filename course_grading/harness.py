"""Run an assignment notebook's graded cells in-process, as the autograder would, in milliseconds.

nbgrader takes seconds per notebook (a kernel start and ``import torch``). For what runs the same
tests many times over trusted code, the answer key and its mutants, the release check, this module
executes the notebook's cells with ``exec`` in a fresh namespace instead: the answer cells, then each
test cell (visible and hidden tests), recording which test cells raise. Never use it on a student's
submission: it runs the code in the calling process.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

import nbformat

SOLUTION_MARK = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.MULTILINE)


def nbgrader_meta(cell: nbformat.NotebookNode) -> dict:
    return cell.metadata.get("nbgrader", {})


def answer_ids(nb: nbformat.NotebookNode) -> list[str]:
    """The grade ids of the answer cells (the parts students write), in notebook order."""
    return [nbgrader_meta(c)["grade_id"] for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("solution")]


def answer_code(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The code of each answer cell, with nbgrader's solution markers removed."""
    return {nbgrader_meta(c)["grade_id"]: SOLUTION_MARK.sub("", c.source) for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("solution")}


def with_answers(nb: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose answer cells named in ``answers`` hold that code instead."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in answers and nbgrader_meta(cell).get("solution"):
            cell.source = answers[gid]
    return copy


def part_of(test_id: str) -> str:
    """The answer a test cell grades: ``test_sdpa`` grades ``sdpa``."""
    return test_id.removeprefix("test_")


def run_tests(nb: nbformat.NotebookNode, grading_dir: Path) -> dict[str, str | None]:
    """Execute every nbgrader cell of ``nb`` in order in a fresh namespace.

    Returns, for each graded test cell, None if it passed or ``"Error: message"`` if it raised,
    keyed by the answer id it grades. An answer cell that raises (a syntax error, say) is recorded
    and execution goes on, as in nbgrader. Cells without nbgrader metadata (optional extras such as
    plots) are skipped. ``grading_dir`` (the hidden checks) is put on ``sys.path``.
    """
    if str(grading_dir) not in sys.path:
        sys.path.insert(0, str(grading_dir))
    namespace: dict = {"__name__": "__main__"}
    results: dict[str, str | None] = {}
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if cell.cell_type != "code" or not meta:
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # the cells' prints are not ours to show
                exec(compile(cell.source, f"<cell {meta.get('grade_id')}>", "exec"), namespace)
            error = None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = f"{type(exc).__name__}: {exc}"
        if meta.get("grade"):
            results[part_of(meta["grade_id"])] = error
    return results
