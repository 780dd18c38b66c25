"""The lean installs: a student gets what `course check` and JupyterLab need, not the book and test stack."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from assignment_support import GRADING, imported_distributions

ROOT = Path(__file__).resolve().parents[1]
TORCH_PIN = re.search(r"^torch==\S+", (ROOT / "requirements.txt").read_text(), re.MULTILINE).group(0)  # type: ignore[union-attr]
SLOW_AT_IMPORT = {"rfc3987-syntax", "lark"}
BOOK_AND_TESTS = {"jupyter-book", "sphinx", "pytest", "nbval", "transformers", "peft", "playwright", "hypothesis"}


def resolved(extra: str, tmp_path: Path) -> set[str]:
    """The distributions pip would install into an empty environment for ``.[extra]`` and the torch pin."""
    report = tmp_path / f"{extra}.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--report",
            str(report),
            "-e",
            f".[{extra}]",
            TORCH_PIN,
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return {item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"]}


def hidden_check_imports() -> set[str]:
    """The distributions the hidden checks import: an instructor's install must hold them (a7's oracles run
    Hugging Face's Llama code), even where they are also part of the book's stack."""
    return set(imported_distributions(sorted(GRADING.glob("*.py"))))


@pytest.mark.parametrize(
    "extra, needs",
    [
        ("student", lambda: {"torch", "jupyterlab", "nbgrader", "ipykernel", "course-lib"}),
        ("instructor", lambda: {"torch", "nbgrader", "course-lib"} | hidden_check_imports()),
    ],
)
def test_lean_extras_leave_out_the_book_and_test_stack(
    extra: str, needs: Callable[[], set[str]], tmp_path: Path
) -> None:
    """Each lean extra installs what its user runs and nothing else of the book's and tests' stack."""
    wanted = needs()
    names = resolved(extra, tmp_path)
    assert wanted <= names and not names & (BOOK_AND_TESTS - wanted), (wanted - names, names & BOOK_AND_TESTS)
    # nor a package that makes every process importing nbformat 1.75 s slower (tests/test_imports.py says why)
    assert not names & SLOW_AT_IMPORT, names & SLOW_AT_IMPORT


def test_the_hidden_checks_import_scan_finds_the_instructor_packages() -> None:
    """The instructor case's control: the scan sees the packages the checks are known to import, so the case
    above cannot pass by finding nothing."""
    assert {"tokenizers", "transformers", "torch"} <= hidden_check_imports()


def test_make_student_installs_the_pinned_torch_from_the_index_it_is_given() -> None:
    plan = subprocess.run(
        ["make", "-n", "-B", "student", "TORCH_INDEX=https://example.invalid/cpu"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    torch_line, extras_line = [line for line in plan.splitlines() if "pip install" in line and TORCH_PIN in line]
    assert "--index-url https://example.invalid/cpu" in torch_line and ".[student]" not in torch_line
    assert '-e ".[student]"' in extras_line and "--index-url" not in extras_line  # the pin keeps that torch


def test_every_package_of_the_project_is_installed() -> None:
    """setuptools installs only the packages pyproject.toml lists: a subpackage left out (say
    ``course_lib.diagrams``) works in the editable checkout and is missing from a wheel."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("course_lib", "course_grading")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found == listed, (found - listed, listed - found)
