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
import sys
from collections.abc import Collection
from pathlib import Path

import nbformat

from course_grading.markers import is_test, nbgrader_meta, part_of

__all__ = ["run_tests"]


def run_tests(
    nb: nbformat.NotebookNode, grading_dir: Path, only: Collection[str] | None = None
) -> dict[str, str | None]:
    """Execute every nbgrader cell of ``nb`` in order in a fresh namespace (of the graded test cells, only
    those of the parts in ``only``, if given: each part's test depends on the answer cells alone, as under
    ``course grade``, where the other parts' correct versions stand in).

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
        if only is not None and is_test(cell) and part_of(meta["grade_id"]) not in only:
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
