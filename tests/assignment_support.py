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
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from course_grading.markers import HIDDEN_BLOCK, SOLUTION_BLOCK, answer_code, answer_ids, defined_names, with_answers

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GRADING = ASSIGNMENTS / "grading"


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
    return {
        line.strip()
        for found in block.finditer(text)
        for line in found.group("body").splitlines()
        if len(line.strip()) >= min_length
    }


def hidden_lines(assignment: str) -> set[str]:
    """Every non-blank line of the source's hidden tests: none may reach a student."""
    return _block_lines(assignment, HIDDEN_BLOCK, 1)


def solution_lines(assignment: str) -> set[str]:
    """The distinctive lines of the source's solutions (short ones like ``return x`` tell nothing)."""
    return _block_lines(assignment, SOLUTION_BLOCK, 24)


def exercise_solution_lines() -> set[str]:
    """The distinctive lines of the instructor solutions to the book's exercises (solutions/exercises/),
    less those the book's own pages contain (code a solution shares with its chapter is public)."""
    lines: set[str] = set()
    for path in (ROOT / "solutions" / "exercises").glob("*.py"):
        lines |= {line.strip() for line in path.read_text().splitlines() if len(line.strip()) >= 40}
    book = "\n".join(page.read_text() for page in (ROOT / "book").glob("*.md"))
    return {line for line in lines if line not in book}


def assignment_ids() -> list[str]:
    return sorted(p.name for p in (ASSIGNMENTS / "source").iterdir() if p.is_dir())


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


def students_course(dest: Path) -> Path:
    """A student's copy of the course in ``dest``: the release notebooks alone, what ``course check`` reads. (The real
    course holds the course secret wherever it was released or graded, and ``course check`` refuses such a course.)"""
    shutil.copytree(ASSIGNMENTS / "release", dest / "release")
    return dest


def release_notebook(assignment: str) -> nbformat.NotebookNode:
    return nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)


def submission_notebook(
    assignment: str, fixture: Fixture | None, base: nbformat.NotebookNode | None = None
) -> nbformat.NotebookNode:
    """``base`` (default: the source notebook) with every answer cell filled in from the answer key,
    then the fixture's cells swapped in: a submission as a student would make it."""
    answers = answer_code(source_notebook(assignment)) | (fixture.cells if fixture else {})
    return with_answers(base if base is not None else source_notebook(assignment), answers)


def imported_distributions(sources: list[Path]) -> dict[str, set[str]]:
    """Distribution -> the files that import one of its top-level modules (anywhere in the file, inside
    functions too), for every module that is neither the standard library's nor the project's own."""
    import ast
    from importlib import metadata

    from packaging.utils import canonicalize_name

    providers = metadata.packages_distributions()
    local = {p.stem for p in sources} | {"course_grading", "course_lib"}
    found: dict[str, set[str]] = {}
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for top in {name.split(".")[0] for name in names} - local - set(sys.stdlib_module_names):
                for distribution in providers.get(top, [top]):
                    found.setdefault(canonicalize_name(distribution), set()).add(path.name)
    return found


def variants(assignment: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Submission name -> (the part it breaks, the answer cells that differ from the key). The wrong cell of a part
    is a fixture's that the shortcut review does not hold (a held part needs attention, which the tests of these
    submissions do not expect), one-part before several-part."""
    from course_grading.sandbox import shortcuts
    from course_grading.sandbox.worker import load_checks

    rules = load_checks(GRADING, assignment).shortcuts
    stubs = answer_code(release_notebook(assignment))
    bugs: dict[str, dict[str, str]] = {}  # a wrong cell per part: a one-part fixture's, else a several-part one's
    bugs_of = [f for f in fixtures(assignment) if f.name.startswith("bug_")]
    held = {f.name for f in bugs_of if shortcuts.review(submission_notebook(assignment, f), rules)}
    for f in sorted(bugs_of, key=lambda f: (f.name in held, len(f.loses), f.name)):
        for part in sorted(f.loses):
            bugs.setdefault(part, {part: f.cells[part]})
    made: dict[str, tuple[str, dict[str, str]]] = {}
    for part in answer_ids(release_notebook(assignment)):
        names = defined_names(stubs[part])
        made[f"{part}-unfinished"] = (part, {part: stubs[part]})
        made[f"{part}-hangs"] = (
            part,
            {part: "\n\n".join(f"def {name}(*args, **kwargs):\n    while True:\n        pass\n" for name in names)},
        )
        made[f"{part}-wrong"] = (part, bugs[part])
    return made
