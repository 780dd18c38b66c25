"""Generate the student versions and answer keys of the assignments, and autograde through nbgrader.

``assignments/source/<id>/<id>.ipynb`` is the single source of truth. From it:

* ``assignments/release/<id>/<id>.ipynb``: the student version, made by ``nbgrader
  generate_assignment`` (solutions replaced by stubs, hidden tests removed);
* ``solutions/<id>/<id>.ipynb``: the answer key, a plain notebook with the solution code, the
  visible tests, and no hidden test.

Generation runs in a scratch copy of the course folder, so the repository never holds a gradebook.
Run ``course release [ID ...]`` (``make assignments``) after editing a source.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from course_grading.markers import (
    SOLUTION_MARK,
    answer_code,
    is_answer,
    is_test,
    nbgrader_meta,
    part_names,
    with_answers,
    without_hidden_tests,
)
from course_grading.notebook import harness

__all__ = [
    "COURSE",
    "SOLUTIONS",
    "answer_key",
    "answer_key_code",
    "assignment_ids",
    "checked_cells",
    "checkout_course",
    "contract",
    "copy_course",
    "default_course",
    "generate",
    "load_config",
    "nbgrader_api",
    "validate",
]

REPO = Path(__file__).resolve().parents[2]
COURSE = REPO / "assignments"  # the course this code was installed with (an editable install's checkout)
SOLUTIONS = REPO / "solutions"


def checkout_course(start: Path) -> Path | None:
    """The course of the checkout ``start`` lies in: ``assignments/`` of the first folder from
    ``start`` upwards that has ``assignments/source``; None outside any checkout."""
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / "assignments" / "source").is_dir():
            return folder / "assignments"
    return None


def default_course(start: Path) -> Path:
    """The course ``course`` works on without ``--course``: the checkout's (:func:`checkout_course`),
    else the installed one, :data:`COURSE`, which it then names on stderr (a shared or editable
    install may hold another clone's course)."""
    found = checkout_course(start)
    if found is None:
        print(
            f"course: {start} is not inside a checkout of the course (no assignments/source above it): using "
            f"{COURSE}; pass --course to choose",
            file=sys.stderr,
        )
        return COURSE
    return found


def assignment_ids(course: Path = COURSE) -> list[str]:
    """The ids of the assignments that have a source notebook."""
    return sorted(p.parent.name for p in (course / "source").glob("*/*.ipynb") if p.stem == p.parent.name)


def copy_course(dest: Path, course: Path = COURSE) -> Path:
    """Copy what grading needs (config, sources, hidden checks) into ``dest``; return it."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(course / "nbgrader_config.py", dest / "nbgrader_config.py")
    for folder in ("source", "grading"):
        shutil.copytree(
            course / folder,
            dest / folder,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"),
        )
    return dest


def load_config(course: Path) -> Config:
    """The course's nbgrader config, rooted at ``course``."""
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    return config


def nbgrader_api(course: Path, db_url: str | None = None):  # -> nbgrader.apps.NbGraderAPI (imported lazily: it is slow)
    """nbgrader's Python API on ``course`` (and its gradebook, or ``db_url``'s), with the venv's tools (alembic) on
    PATH."""
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    config = load_config(course)
    if db_url is not None:
        config.CourseDirectory.db_url = db_url
    return NbGraderAPI(CourseDirectory(config=config), config=config)


def _key_source(source: str) -> str:
    """A source cell's code as the answer key has it: solution markers and hidden tests removed."""
    return without_hidden_tests(SOLUTION_MARK.sub("", source)).strip("\n")


def answer_key_code(source: nbformat.NotebookNode) -> list[str]:
    """The answer key's code as a notebook runs it before its tests: every code cell nbgrader manages
    (the set-up and the answers, in order), but the test cells."""
    return [
        _key_source(cell.source)
        for cell in source.cells
        if cell.cell_type == "code" and nbgrader_meta(cell) and not is_test(cell)
    ]


def answer_key(source: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The source notebook as an answer key: solution markers and hidden tests removed, no outputs."""
    key = nbformat.from_dict(source)
    for cell in key.cells:
        cell.metadata.pop("nbgrader", None)
        if cell.cell_type == "code":
            cell.source = _key_source(cell.source)
            cell.outputs, cell.execution_count = [], None
    key.cells.insert(
        0,
        nbformat.v4.new_markdown_cell(
            "**Answer key, for instructors. Do not publish.** Generated from the source notebook by `make assignments`."
        ),
    )
    key.cells[0].id = "answer-key-banner"
    return key


def generate(assignment: str, release_dir: Path, solutions_dir: Path, course: Path = COURSE) -> None:
    """Write the student version of ``assignment`` under ``release_dir`` and its key under ``solutions_dir``."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = copy_course(Path(tmp) / "course", course)
        result = nbgrader_api(scratch).generate_assignment(assignment, force=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader could not generate {assignment}:\n{result['log']}")
        shutil.rmtree(release_dir / assignment, ignore_errors=True)
        shutil.copytree(scratch / "release" / assignment, release_dir / assignment)
    source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    (solutions_dir / assignment).mkdir(parents=True, exist_ok=True)
    nbformat.write(answer_key(source), solutions_dir / assignment / f"{assignment}.ipynb")


def validate(assignment: str, course: Path = COURSE) -> list[str]:
    """Problems with a generated assignment: the answer key must pass every graded test cell, and
    the untouched student version must pass none. Runs the instructor's own code, in-process."""
    source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    grading = course / "grading"
    key = harness.run_tests(source, grading)
    problems = [] if key else ["the source has no graded test cells"]
    problems += [f"the answer key fails {part}: {error}" for part, error in key.items() if error]
    untouched = harness.run_tests(with_answers(source, answer_code(release)), grading)
    problems += [f"the untouched student version passes {part}" for part, error in untouched.items() if error is None]
    return problems


# ------------------------------------------------------------------------ an assignment's contract
#
# An assignment is a source notebook and, in grading/, its hidden checks: <id>_checks.py with a CHECKS
# dict from each test cell's grade id to its check, and the files that module reads beside it (the
# correct versions of the parts, REFERENCE_PARTS; drivers). Everything the grader relies on is checked
# here, before anything is generated, so that a missing piece fails `course release`, not a grading run.


def checked_cells(checks: Path) -> set[str]:
    """The test cells a checks module's ``CHECKS`` dict names, read without importing it (the
    grading process imports the checks; this one should not hold them)."""
    for node in ast.walk(ast.parse(checks.read_text())):
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else node.targets[0]
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            else None
        )
        value = getattr(node, "value", None)  # an Assign's or AnnAssign's right-hand side
        if isinstance(target, ast.Name) and target.id == "CHECKS" and isinstance(value, ast.Dict):
            return {k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    raise RuntimeError(f"{checks} defines no CHECKS dict literal")


def contract(assignment: str, course: Path = COURSE) -> list[str]:
    """What ``assignment`` lacks that grading will need (empty if nothing), read without running the
    instructor's code: its source notebook; graded test cells ``test_<part>`` with points, each with an
    answer cell ``<part>`` that defines the part's functions; a checks module whose ``CHECKS`` names
    exactly those test cells; and the files the checks module reads beside it (the reference parts,
    drivers)."""
    source_path = course / "source" / assignment / f"{assignment}.ipynb"
    checks_path = course / "grading" / f"{assignment}_checks.py"
    problems = []
    if not re.fullmatch(r"[a-z][a-z0-9_]*", assignment):
        problems.append(
            f"the id {assignment!r} is not lower-case letters, digits and underscores (nbgrader and the "
            "grading modules use it as a name)"
        )
    try:
        source = nbformat.read(source_path, as_version=4)
    except (OSError, ValueError) as error:
        return problems + [f"its source notebook {source_path} cannot be read: {error}"]
    tests = {nbgrader_meta(c)["grade_id"]: nbgrader_meta(c) for c in source.cells if is_test(c)}
    answers = {nbgrader_meta(c)["grade_id"] for c in source.cells if is_answer(c)}
    if not tests:
        problems.append("the source has no graded test cells")
    for test_id, meta in tests.items():
        if not test_id.startswith("test_"):
            problems.append(
                f"test cell {test_id!r}: a test cell's grade id is test_<part>, the grade id of the part's "
                "answer cell after test_"
            )
        elif test_id.removeprefix("test_") not in answers:
            problems.append(
                f"test cell {test_id!r} grades an answer cell {test_id.removeprefix('test_')!r} that the "
                "source does not have"
            )
        if not float(meta.get("points", 0) or 0) > 0:
            problems.append(f"test cell {test_id!r} is worth no points")
    parts = part_names(source)
    problems += [
        f"the answer cell of {test_id!r} defines no function or class (nothing to grade)"
        for test_id, names in parts.items()
        if test_id.startswith("test_") and test_id.removeprefix("test_") in answers and not names
    ]
    if not checks_path.is_file():
        return problems + [
            f"its hidden checks {checks_path} are missing (a module with a CHECKS dict: test cell grade id -> check)"
        ]
    try:
        checked = checked_cells(checks_path)
    except (SyntaxError, RuntimeError) as error:
        return problems + [f"{checks_path.name}: {error}"]
    problems += [f"{checks_path.name}: CHECKS has no check for {test_id}" for test_id in sorted(set(tests) - checked)]
    problems += [
        f"{checks_path.name}: CHECKS checks {test_id}, which is no test cell of the source"
        for test_id in sorted(checked - set(tests))
    ]
    for name in _files_read_beside(checks_path):
        if not (checks_path.parent / name).is_file():
            problems.append(f"{checks_path.name} reads {name}, which is not in {checks_path.parent}")
    return problems


def _files_read_beside(checks: Path) -> list[str]:
    """The file names a checks module reads from its own folder: ``Path(__file__).with_name("...")``."""
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(checks.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "with_name"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]
