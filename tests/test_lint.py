"""The code passes the project's linter (ruff: pyproject.toml's [tool.ruff], lines of 120 columns at most) and type
checker (mypy on course_lib and course_grading: [tool.mypy]), and is as ``ruff format`` lays it out. All run from
the course's environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([BIN / "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_project_is_formatted() -> None:
    """Every module (the library, the grader, the tests, the hidden checks, the book's tools) as ``ruff format``
    lays it out; students' answers written on purpose (fixtures, corpora) are excluded in pyproject.toml."""
    result = subprocess.run(
        [BIN / "ruff", "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_mypy_finds_nothing(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
