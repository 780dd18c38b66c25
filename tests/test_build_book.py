"""book/_ext/build_book.py: how it shares the pages between the build's processes."""

from __future__ import annotations

import importlib.util

import yaml

from conftest import ROOT

spec = importlib.util.spec_from_file_location("build_book", ROOT / "book" / "_ext" / "build_book.py")
build_book = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_book)


def pages_of_the_book() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]


def seconds(share: list[str]) -> float:
    return sum(build_book.CHAPTER_SECONDS.get(page, 1) for page in share)


def test_every_page_goes_to_exactly_one_share_and_the_shares_balance() -> None:
    pages = pages_of_the_book()
    shares = build_book.balanced_shares(pages, 2)
    assert sorted(p for share in shares for p in share) == sorted(pages)
    # Sphinx's own split (equal counts of the sorted pages) put every chapter to 5 in one share
    equal_counts = [sorted(pages)[: len(pages) // 2], sorted(pages)[len(pages) // 2 :]]
    assert max(map(seconds, shares)) < max(map(seconds, equal_counts))
    # the longest-processing-time rule: the dearer share exceeds half the total by at most the dearest page
    total = sum(map(seconds, shares))
    assert max(map(seconds, shares)) <= total / 2 + max(build_book.CHAPTER_SECONDS.values())


def test_every_chapter_has_a_measured_cost_and_nothing_else_does() -> None:
    executed = {p for p in pages_of_the_book() if "code-cell" in (ROOT / f"{p}.md").read_text()}
    assert set(build_book.CHAPTER_SECONDS) == executed


def test_one_job_or_few_pages_make_no_empty_share() -> None:
    assert build_book.balanced_shares(["a", "b"], 1) == [["a", "b"]]
    assert build_book.balanced_shares(["book/03_gpt"], 4) == [["book/03_gpt"]]
    assert build_book.balanced_shares([], 2) == []
