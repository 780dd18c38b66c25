"""book/_ext/build_book.py: how it shares the pages between the build's processes."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import yaml

from conftest import ROOT, in_short, run_as_group

spec = importlib.util.spec_from_file_location("build_book", ROOT / "book" / "_ext" / "build_book.py")
build_book = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_book)


def pages_of_the_book() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]


def seconds(share: list[str]) -> float:
    return sum(build_book.CHAPTER_SECONDS.get(page, 1) for page in share)


def test_every_page_goes_to_exactly_one_share_and_the_shares_balance() -> None:
    pages = sorted(pages_of_the_book())  # as Sphinx passes them
    shares = build_book.balanced_shares(pages, 2)
    assert sorted(p for share in shares for p in share) == pages
    # what the build takes is the dearer share's time: under 0.7 of one after the other (the chapters that
    # chapter 6 needs share its share)
    assert max(map(seconds, shares)) < 0.7 * sum(map(seconds, shares))


def test_a_chapter_runs_after_the_chapters_whose_models_it_loads_in_their_share() -> None:
    pages = sorted(pages_of_the_book())
    assert build_book.needs("book/06_finetune") == {"book/03_gpt", "book/04_bert"}
    assert build_book.needs("book/03_gpt") == set()  # it saves its own model: no need
    for share in build_book.balanced_shares(pages, 2):
        for page in share:
            for needed in build_book.needs(page):
                assert needed in share and share.index(needed) < share.index(page), (page, needed, share)


def test_dependencies_are_read_from_the_chapters_and_chain(tmp_path: Path) -> None:
    """A chapter that loads a model made by one that itself loads another: all three in one share, in order."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "a.md").write_text('save_chapter_model("a", m)\n')
    (book / "b.md").write_text("x = load_chapter_model('a', made_by='chapter a')\nsave_chapter_model('b', x)\n")
    (book / "c.md").write_text('y = load_chapter_model("b", made_by="chapter b")\n')
    (book / "d.md").write_text("no models here\n")
    pages = ["book/a", "book/b", "book/c", "book/d"]
    shares = build_book.balanced_shares(pages, 2, tmp_path)
    assert ["book/a", "book/b", "book/c"] in shares and ["book/d"] in shares


def test_every_chapter_has_a_measured_cost_and_nothing_else_does() -> None:
    executed = {p for p in pages_of_the_book() if "code-cell" in (ROOT / f"{p}.md").read_text()}
    assert set(build_book.CHAPTER_SECONDS) == executed


def test_one_job_or_few_pages_make_no_empty_share() -> None:
    assert build_book.balanced_shares(["a", "b"], 1) == [["a", "b"]]
    assert build_book.balanced_shares(["book/03_gpt"], 4) == [["book/03_gpt"]]
    assert build_book.balanced_shares([], 2) == []


def test_a_build_past_its_limit_is_stopped_with_every_process_it_started() -> None:
    """As the book's build forks readers that start kernels: a grandchild must not outlive the limit."""
    import os
    import time

    nap = "sleep 61.25"  # a duration no other process sleeps
    start = time.monotonic()
    result = run_as_group(["bash", "-c", f"({nap}; true) & {nap}"], dict(os.environ), 1)
    assert time.monotonic() - start < 10 and result.returncode != 0
    assert "ran past 1 s" in result.stderr
    time.sleep(0.5)
    assert not [line for line in os.popen("ps -eo args").read().splitlines() if line == nap]


def test_the_execution_cache_exists_before_the_parallel_read(tmp_path: Path) -> None:
    """Two readers that each found no database created its tables at once, and one failed ("table nbcache
    already exists"): the extension makes it in the main process, where it must then exist with its tables."""
    import sqlite3
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location("execution_cache", ROOT / "book" / "_ext" / "execution_cache.py")
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    cache = tmp_path / "build" / ".jupyter_cache"
    app = SimpleNamespace(env=SimpleNamespace(mystnb_config=SimpleNamespace(execution_cache_path=str(cache))))
    extension.create_cache(app)
    tables = {row[0] for row in sqlite3.connect(cache / "global.db").execute("select name from sqlite_master")}
    assert "nbcache" in tables, tables
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["sphinx"]["local_extensions"]["execution_cache"] == "book/_ext"


def test_a_cell_failing_in_a_parallel_share_is_named_with_its_source_and_error(tmp_path: Path) -> None:
    """Sphinx's parallel read hands the main process only "ExecutionError: <page>"; the failing cell's source and
    error live in the share's traceback text. A book of six pages, one of whose cells fails an assert, built with
    two shares as make test builds: the build's output names the cell's code and its error (a CI log that only
    said "ExecutionError: book/03_gpt.md" is what this closes)."""
    book = tmp_path / "book"
    book.mkdir()
    header = "---\njupytext:\n  text_representation:\n    format_name: myst\nkernelspec:\n  name: python3\n---\n"
    pages = [f"page{i}" for i in range(6)]
    for i, page in enumerate(pages):
        code = "claim = 41\nassert claim == 42, 'the measured claim 4217 does not hold'" if i == 3 else f"x = {i}"
        (book / f"{page}.md").write_text(f"{header}\n# Page {i}\n\n```{{code-cell}} ipython3\n{code}\n```\n")
    (book / "_toc.yml").write_text(
        yaml.safe_dump({"format": "jb-book", "root": pages[0], "chapters": [{"file": p} for p in pages[1:]]})
    )
    (book / "_config.yml").write_text(
        yaml.safe_dump(
            {
                "title": "t",
                "execute": {"execute_notebooks": "force", "timeout": 120, "allow_errors": False},
                "sphinx": {"config": {"nb_execution_raise_on_error": True}},
            }
        )
    )
    command = [sys.executable, str(ROOT / "book" / "_ext" / "build_book.py"), "--jobs", "2", "-n", str(book)]
    command += ["--path-output", str(tmp_path / "out")]
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]))
    result = run_as_group(command, env, 300)
    assert result.returncode != 0
    log = result.stdout + result.stderr
    assert "ExecutionError" in log, log[-3000:]
    assert "the measured claim 4217 does not hold" in log and "claim = 41" in log, log[-3000:]
    # and in one line, the last of make test's failure message, which a log cut to its end keeps
    assert in_short(log).endswith("page3.md: AssertionError: the measured claim 4217 does not hold"), in_short(log)
