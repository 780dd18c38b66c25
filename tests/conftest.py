"""Fixtures shared by test modules: the built book (built once per test session)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = str(Path(sys.executable).parent / "jupyter-book")


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
