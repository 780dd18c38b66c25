"""The code passes the project's linter (ruff: pyproject.toml's [tool.ruff], lines of 120 columns at most) and type
checker (mypy on course_lib and course_grading: [tool.mypy]), and is as ``ruff format`` lays it out. All run from
the course's environment."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
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


def _oldest_python() -> tuple[int, int]:
    """pyproject.toml's ``requires-python`` lower bound, the one place the oldest Python is decided."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    match = re.fullmatch(r">=(\d+)\.(\d+)", project["project"]["requires-python"])
    assert match, "requires-python should be a bare lower bound, >=3.N"
    return int(match[1]), int(match[2])


def test_every_place_that_names_the_oldest_python_agrees() -> None:
    """The type checker and the linter judge the code against the oldest Python the project claims (a newer
    library call or syntax is found here, not on a learner's machine); the README and Binder say that one."""
    major, minor = _oldest_python()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
    assert config["mypy"]["python_version"] == f"{major}.{minor}"
    assert config["ruff"]["target-version"] == f"py{major}{minor}"
    stated = re.findall(r"Python (\d+)\.(\d+) or newer", (ROOT / "README.md").read_text())
    assert len(stated) >= 2 and set(stated) == {(str(major), str(minor))}, stated
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == f"python-{major}.{minor}"


def test_make_refuses_an_older_python_and_says_why() -> None:
    """``make`` checks the Python it makes .venv from before anything is installed: this one passes, and
    the same Python against a minimum one above it is refused with a message naming both."""
    major, minor = sys.version_info[:2]
    assert (major, minor) >= _oldest_python()
    passed = subprocess.run(["make", "-s", "python-check", f"PYTHON={sys.executable}"], cwd=ROOT, capture_output=True)
    assert passed.returncode == 0, passed.stderr
    refused = subprocess.run(
        ["make", "-s", "python-check", f"PYTHON={sys.executable}", f"PYTHON_MIN={major}.{minor + 1}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0
    assert f"Python {major}.{minor + 1} or newer is needed" in refused.stderr, refused.stderr
    assert f"Python {major}.{minor}." in refused.stderr and sys.executable in refused.stderr, refused.stderr
