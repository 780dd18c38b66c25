"""``course check``: run a student's notebook and summarise its visible tests per part."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .harness import nbgrader_meta, part_of


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read and validate a notebook, or raise ValueError saying what is wrong with the file."""
    if not path.is_file():
        raise ValueError("no such file")
    if path.stat().st_size == 0:
        raise ValueError("the file is empty")
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # json, schema or encoding errors all mean "not a notebook"
        raise ValueError(f"not a valid Jupyter notebook ({type(error).__name__}: {str(error).splitlines()[0][:200]})") from None
    return nb


def check_notebook(path: Path, timeout: int = 120) -> dict[str, str | None]:
    """Execute ``path`` in a fresh kernel (in its own folder) and return, for each graded part,
    None if its test cell passed or the error it raised. The notebook file is not modified."""
    nb = read_notebook(path)
    graded = [c for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("grade")]
    if not graded:
        raise ValueError("it has no graded test cells: is it one of the course's assignment notebooks?")
    client = NotebookClient(nb, timeout=timeout, allow_errors=True, kernel_name="python3", resources={"metadata": {"path": str(path.parent.resolve())}})
    client.execute()
    results: dict[str, str | None] = {}
    for cell in graded:
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        error = f"{errors[0].get('ename')}: {errors[0].get('evalue')}" if errors else None
        if error is not None and errors[0].get("ename") == "NotImplementedError":
            error = "not implemented yet (NotImplementedError)"
        results[part_of(nbgrader_meta(cell)["grade_id"])] = error
    return results
