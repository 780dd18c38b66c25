"""Fixtures shared by test modules: the built book (built once per test session), and the guard
that fails the session if any test leaves something in the real course (``assignments/``,
``solutions/``): tests grade in temporary copies only (``course_grading.assignments.copy_course``)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = str(Path(sys.executable).parent / "jupyter-book")
# The real course and its answer keys: no test may add, change or remove anything in them, git-ignored
# files included (nbgrader's gradebook.db, submitted/, autograded/, feedback/, graded/, .nbgrader.log).
REAL_COURSE = [ROOT / "assignments", ROOT / "solutions"]
# nbgrader run where there is no nbgrader_config.py (a test's working directory: the project root)
# takes that directory for the course and silently makes a gradebook (and its folders) in it.
STRAY_NBGRADER = [ROOT / name for name in ("gradebook.db", ".nbgrader.log", "submitted", "autograded", "feedback", "release", "graded")]
COURSE_BEFORE = pytest.StashKey[dict[str, str]]()
COURSE_CHECKED = pytest.StashKey[bool]()


def course_state(paths: list[Path] = REAL_COURSE + STRAY_NBGRADER) -> dict[str, str]:
    """Every folder, file and link under ``paths`` (git-ignored ones too) -> what it is: a file by the
    hash of its content. Python's bytecode caches (``__pycache__``, written by importing the hidden
    checks) are left out: they are not course state, and no copy of the course takes them along."""
    state: dict[str, str] = {}

    def add(path: str) -> None:
        name = os.path.relpath(path, ROOT)
        if os.path.islink(path):
            state[name] = f"link to {os.readlink(path)}"
            return
        try:
            with open(path, "rb") as f:
                state[name] = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError as error:
            state[name] = f"unreadable ({error.strerror})"

    for top in paths:
        if os.path.islink(top) or os.path.isfile(top):
            add(str(top))
        for folder, subfolders, files in os.walk(top):  # nothing where top is no folder
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            state[os.path.relpath(folder, ROOT) + "/"] = "folder"
            for name in files + [d for d in subfolders if os.path.islink(os.path.join(folder, d))]:
                add(os.path.join(folder, name))
    return state


def course_changes(before: dict[str, str], after: dict[str, str], shown: int = 15) -> str:
    """What differs between two :func:`course_state` snapshots, for a failure message ('' if nothing)."""
    kinds = {
        "added": sorted(after.keys() - before.keys()),
        "changed": sorted(p for p in before.keys() & after.keys() if before[p] != after[p]),
        "removed": sorted(before.keys() - after.keys()),
    }
    if not any(kinds.values()):
        return ""
    lines = ["the test session left changes in the real course (assignments/, solutions/, or nbgrader's files in the project root); "
             "tests must grade in a temporary copy (course_grading.assignments.copy_course(tmp_path / 'course'), and release/ where needed) "
             "and run nbgrader where that copy's nbgrader_config.py is:"]
    for kind, paths in kinds.items():
        if paths:
            lines.append(f"  {kind} ({len(paths)}): " + ", ".join(paths[:shown]) + (f", and {len(paths) - shown} more" if len(paths) > shown else ""))
    return "\n".join(lines)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The real course as it was before anything was collected or run (pre-existing files included)."""
    session.config.stash[COURSE_BEFORE] = course_state()


@pytest.fixture(scope="session", autouse=True)
def real_course_untouched(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the session (an error at the teardown of its last test) if the real course changed."""
    before = request.config.stash.get(COURSE_BEFORE, None)
    if before is None:
        before = request.config.stash[COURSE_BEFORE] = course_state()
    yield
    request.config.stash[COURSE_CHECKED] = True
    changes = course_changes(before, course_state())
    if changes:
        pytest.fail(changes, pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The same check where no test of tests/ ran, so the fixture never did (``-k`` selecting only answer keys)."""
    before = session.config.stash.get(COURSE_BEFORE, None)
    if before is None or session.config.stash.get(COURSE_CHECKED, False):
        return
    changes = course_changes(before, course_state())
    if changes:
        print("\n" + changes, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def build(source: Path, output: Path) -> subprocess.CompletedProcess:
    """``make book``'s build command, writing to ``output``."""
    env = os.environ | {"PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    command = [JUPYTER_BOOK, "build", "-W", "-n", "--keep-going", str(source), "--path-output", str(output)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)


@pytest.fixture(scope="session")
def html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book built from this checkout into a fresh folder (every chapter executed): its HTML root.

    BOOK_HTML=path/to/_build/html tests an already built book instead (quicker while editing tests;
    the suite as `make test` runs it always builds)."""
    if os.environ.get("BOOK_HTML"):
        return Path(os.environ["BOOK_HTML"]).resolve()
    out = tmp_path_factory.mktemp("book")
    result = build(ROOT, out)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out / "_build" / "html"


def book_pages() -> list[str]:
    """Every page of the book in sidebar order (``_toc.yml``: the root, then chapters or parts' chapters)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = toc.get("chapters", []) + [c for part in toc.get("parts", []) for c in part["chapters"]]
    return [toc["root"]] + [entry["file"] for entry in entries]


def notebook_pages() -> list[str]:
    """The pages that are executed notebooks (a kernelspec in their front matter)."""
    return [p for p in book_pages() if "kernelspec:" in (ROOT / f"{p}.md").read_text().split("\n---", 1)[0]]
