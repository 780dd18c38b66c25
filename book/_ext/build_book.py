"""``make book``'s build: ``jupyter-book build`` with the chapters executed side by side.

Usage: ``python book/_ext/build_book.py [--jobs N] <jupyter-book build's arguments>``.

Sphinx reads pages (and myst-nb executes their notebooks) in forked processes when it is given more than
one job, but Jupyter Book 1's command line always gives it one, so the chapters run one after the other
and a 2-core machine builds the book in the sum of its chapters' times. This runs the same command with
``--jobs`` processes (default: two, or one on a one-core machine). Each process is handed one share of
the pages, the shares balanced by what each chapter took to execute when last measured
(:data:`CHAPTER_SECONDS`; a page not listed counts one second), a chapter that loads another's saved model
in the same share after it: Sphinx's own split cuts the sorted list of pages in equal counts, which put
chapters 1 to 5 in one share and the quick pages in the other, and would have run chapter 6 beside the
chapters whose models it fine-tunes.

Nothing else changes: the same configuration, cache and checks; a chapter's cells see a busy machine (the
other share runs beside it), which chapters already measure for (``course_lib.threads``, ``timing``).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BOOK = Path(__file__).resolve().parents[2]  # the project's root, where _toc.yml names the pages
MODEL_NAME = re.compile(r"""\bload_chapter_model\(["'](\w+)["'],""")  # a reader names the chapter that makes it

# Seconds each chapter took to execute in make test's book build of 2026-12-02 (2 cores, one chapter at a time,
# tests running beside it); chapters 5 to 7 scaled on 2026-12-03 by what their cuts and additions cost alone on an
# idle machine. Only the balance of the shares depends on them: a stale number makes the build slower, never wrong.
CHAPTER_SECONDS = {
    "book/01_attention": 11,
    "book/02_blocks": 124,
    "book/03_gpt": 250,
    "book/03b_tokenization": 43,
    "book/04_bert": 184,
    "book/05_t5": 500,
    "book/06_finetune": 565,
    "book/07_llama": 420,
    "book/appendix_scaling": 93,
}


def needs(page: str, book: Path = BOOK) -> set[str]:
    """The pages whose saved models ``page`` loads: a chapter reads another's model with
    ``load_chapter_model("03_gpt", made_by=...)`` (``course_lib.chapter_models``), which that chapter saves with
    ``save_chapter_model("03_gpt", ...)``, so it must run after it."""
    source = book / f"{page}.md"
    text = source.read_text() if source.is_file() else ""
    own = page.rsplit("/", 1)[-1]
    return {f"{page.rsplit('/', 1)[0]}/{name}" for name in MODEL_NAME.findall(text) if name != own}


def balanced_shares(pages: Sequence[str], n: int, book: Path = BOOK) -> list[list[str]]:
    """``pages`` in at most ``n`` non-empty shares. A page and the pages whose models it loads (:func:`needs`)
    go to one share, in ``pages``' order (Sphinx's, sorted by name: a chapter's number comes first); each such
    group to the share with the fewest seconds so far, the dearest groups first (the longest-processing-time
    rule: within 4/3 of the best split)."""
    group = {page: page for page in pages}

    def root(page: str) -> str:
        while group[page] != page:
            page = group[page]
        return page

    for page in pages:
        for needed in needs(page, book) & set(pages):
            group[root(needed)] = root(page)
    groups: dict[str, list[str]] = {}
    for page in pages:
        groups.setdefault(root(page), []).append(page)

    def cost(members: list[str]) -> float:
        return sum(CHAPTER_SECONDS.get(page, 1) for page in members)

    shares: list[list[str]] = [[] for _ in range(max(1, n))]
    load = [0.0] * len(shares)
    for members in sorted(groups.values(), key=lambda members: -cost(members)):
        lightest = load.index(min(load))
        shares[lightest].extend(members)
        load[lightest] += cost(members)
    return [sorted(share, key=list(pages).index) for share in shares if share]


# Extensions Jupyter Book loads that do not say whether Sphinx may read pages in parallel, so that it reads
# them one at a time and warns (an error under -W), and why each is safe to read in parallel.
UNDECLARED_SAFE = {
    "sphinx_multitoc_numbering": "it only replaces the method that numbers sections, which Sphinx runs in the "
    "main process after every page has been read",
    "sphinx_jupyterbook_latex": "its transforms change only the page being read (marks for a LaTeX build) and "
    "keep nothing across pages",
}


def _declared_parallel_safe(setup: Callable[[Any], Any]) -> Callable[[Any], dict[str, bool]]:
    """``setup`` of one of :data:`UNDECLARED_SAFE`, returning the declaration it leaves out."""

    def declared(app: Any) -> dict[str, bool]:
        setup(app)
        return {"parallel_read_safe": True, "parallel_write_safe": True}

    return declared


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ours, rest = parser.parse_known_args(argv)
    if ours.jobs < 1:
        raise SystemExit(f"--jobs must be at least 1, not {ours.jobs}")

    import jupyter_book.sphinx
    import sphinx.builders
    from jupyter_book.cli import main as cli

    for name in UNDECLARED_SAFE:
        extension = importlib.import_module(name)
        extension.setup = _declared_parallel_safe(extension.setup)  # type: ignore[attr-defined]
    sphinx.builders.make_chunks = lambda arguments, nproc, maxbatch=10: balanced_shares(arguments, nproc)
    # jupyter-book's build command imports build_sphinx from here when it runs
    jupyter_book.sphinx.build_sphinx = functools.partial(jupyter_book.sphinx.build_sphinx, jobs=ours.jobs)
    try:
        cli.main(["build", *rest], standalone_mode=False)
    except SystemExit as stop:
        return int(stop.code or 0)
    except Exception as error:  # jupyter-book reports a failed build by raising: the cause is in the chain printed here
        traceback.print_exc()
        print_share_tracebacks(error)
        return 1
    return 0


def print_share_tracebacks(error: BaseException) -> None:
    """The traceback of each share's process that failed, from ``error``'s chain. Sphinx's parallel read sends
    the main process only the failure's first line ("ExecutionError: <page>") as the exception; the failing
    cell's source and error, the cause of that line in the share's process, travel in the exception's
    ``traceback`` text, which nothing printed (and the share's own log is dropped on a failure)."""
    from sphinx.errors import SphinxParallelError

    link: BaseException | None = error
    while link is not None:
        if isinstance(link, SphinxParallelError):
            print(f"\nthe failing share's own traceback (its cell and error):\n{link.traceback}", file=sys.stderr)
        link = link.__cause__ or link.__context__


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
