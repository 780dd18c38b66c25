"""Reading assignment notebooks and submission fixtures, shared by the assignment tests.

A fixture is a Python file under ``tests/fixtures/<assignment>/``::

    # expect: loses sdpa -- forgot to divide by sqrt(d_k)
    # %% [sdpa]
    def scaled_dot_product_attention(q, k, v, mask=None):
        ...

It replaces the named answer cells of the answer key; every other answer cell keeps the key's
solution. ``expect`` names the parts whose points must be lost, or says ``full marks``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GRADING = ASSIGNMENTS / "grading"

_SOLUTION = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.MULTILINE)
_HIDDEN_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)
_SOLUTION_BLOCK = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.DOTALL)


@dataclass(frozen=True)
class Fixture:
    name: str
    cells: dict[str, str]  # grade_id -> replacement source
    loses: frozenset[str]  # grade_ids of the answer cells whose points are lost


def source_notebook(assignment: str) -> nbformat.NotebookNode:
    return nbformat.read(ASSIGNMENTS / "source" / assignment / f"{assignment}.ipynb", as_version=4)


def grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _block_lines(assignment: str, block: re.Pattern, min_length: int) -> set[str]:
    text = "\n".join(c.source for c in source_notebook(assignment).cells)
    return {line.strip() for found in block.findall(text) for line in found.splitlines() if len(line.strip()) >= min_length}


def hidden_lines(assignment: str) -> set[str]:
    """Every non-blank line of the source's hidden tests: none may reach a student."""
    return _block_lines(assignment, _HIDDEN_BLOCK, 1)


def solution_lines(assignment: str) -> set[str]:
    """The distinctive lines of the source's solutions (short ones like ``return x`` tell nothing)."""
    return _block_lines(assignment, _SOLUTION_BLOCK, 24)


def assignment_ids() -> list[str]:
    return sorted(p.name for p in (ASSIGNMENTS / "source").iterdir() if p.is_dir())


def answer_cells(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The solution code of each answer cell, with the nbgrader delimiters removed."""
    return {grade_id(c): _SOLUTION.sub("", c.source) for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution") and c.cell_type == "code"}


def load_fixture(path: Path) -> Fixture:
    text = path.read_text()
    header = re.match(r"# expect: (full marks|loses ([\w, ]+))", text)
    if header is None:
        raise ValueError(f"{path}: first line must be '# expect: full marks' or '# expect: loses <grade_id>'")
    loses = frozenset() if header.group(1) == "full marks" else frozenset(p.strip() for p in header.group(2).split(","))
    pieces = re.split(r"^# %% \[(\w+)\]\n", text, flags=re.MULTILINE)
    cells = {pieces[i]: pieces[i + 1] for i in range(1, len(pieces), 2)}
    return Fixture(path.stem, cells, loses)


def fixtures(assignment: str) -> list[Fixture]:
    return [load_fixture(p) for p in sorted((FIXTURES / assignment).glob("*.py"))]


def release_notebook(assignment: str) -> nbformat.NotebookNode:
    return nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)


def submission_notebook(assignment: str, fixture: Fixture | None, base: nbformat.NotebookNode | None = None) -> nbformat.NotebookNode:
    """``base`` (default: the source notebook) with every answer cell filled in from the answer key,
    then the fixture's cells swapped in: a submission as a student would make it."""
    nb = nbformat.from_dict(base) if base is not None else source_notebook(assignment)
    key = answer_cells(source_notebook(assignment))
    for cell in nb.cells:
        gid = grade_id(cell)
        if gid in key:
            cell.source = fixture.cells.get(gid, key[gid]) if fixture else key[gid]
    return nb


def grading_on_path() -> None:
    """Make the instructor-only check modules importable, as the autograder's kernel has them."""
    if str(GRADING) not in sys.path:
        sys.path.insert(0, str(GRADING))
