"""book/_ext/book_robust.py: the margins it reports for an assert's comparisons, and the cells it adds."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("book_robust", ROOT / "book" / "_ext" / "book_robust.py")
book_robust = importlib.util.module_from_spec(spec)
spec.loader.exec_module(book_robust)


def margins(namespace: dict, *claims: str, capsys: pytest.CaptureFixture) -> list[object]:
    """What the kernel-side function prints for each claim, evaluated in ``namespace``."""
    import json

    exec(book_robust.PREAMBLE, namespace)
    for claim in claims:
        namespace[book_robust.MARKER](0, claim)
    lines = capsys.readouterr().out.splitlines()
    return [json.loads(line.split(" ", 1)[1])["margin"] for line in lines if line.startswith(book_robust.MARKER)]


def test_margins_are_relative_to_the_larger_side(capsys: pytest.CaptureFixture) -> None:
    import torch

    ns = {"a": 0.8, "b": 1.0, "x": 2.1, "t": torch.tensor(3.0), "ok": True}
    got = margins(
        ns,
        "assert a < b",
        "assert b > a",
        "assert abs(x - 2) < 0.5",
        "assert t > 2 * b",
        "assert a < b and t < 1",
        "assert 0.5 < a < b",
        capsys=capsys,
    )
    assert got[0] == pytest.approx(0.2) and got[1] == pytest.approx(0.2)
    assert got[2] == pytest.approx(0.8)  # |2.1 - 2| = 0.1 against 0.5
    assert got[3] == pytest.approx(1 / 3)  # 3 against 2
    assert got[4] == pytest.approx(-2 / 3)  # 3 < 1 fails by 2, against 3: the smallest part, negative
    assert got[5] == pytest.approx(min(0.3 / 0.8, 0.2))


def test_claims_that_are_no_comparison_of_numbers_hold_or_fail(capsys: pytest.CaptureFixture) -> None:
    ns = {"xs": [1, 2, 3], "name": "a"}
    got = margins(
        ns,
        "assert all(x > 0 for x in xs)",
        "assert xs == [1, 2, 3]",
        "assert name == 'b'",
        "assert missing > 1",
        "assert xs[5] > 1",
        capsys=capsys,
    )
    assert got[:3] == ["holds", "holds", "fails"]
    assert got[3] is None  # a name the kernel's globals lack (an assert inside a function): not read
    assert got[4].startswith("IndexError")


def test_every_assert_of_a_cell_gets_a_margin_cell_after_it() -> None:
    nb = book_robust.instrumented("02_blocks")
    sources = [c.source for c in nb.cells if c.cell_type == "code"]
    assert sources[0] == book_robust.PREAMBLE
    reports = [i for i, s in enumerate(sources) if s.startswith(book_robust.MARKER)]
    assert reports and all(book_robust.asserts(sources[i - 1]) for i in reports)
    claims = sum(len(book_robust.asserts(s)) for s in sources if not s.startswith(book_robust.MARKER))
    assert claims == sum(s.count(f"{book_robust.MARKER}(") for s in sources[1:] if s.startswith(book_robust.MARKER))


def test_the_report_flags_claims_below_the_safety_margin(tmp_path, capsys: pytest.CaptureFixture) -> None:
    import json

    now = book_robust.code_digest("01_attention")
    runs = {"a": [0.5, "holds", now], "b": [0.05, "holds", now], "old": [-1.0, "holds", "0" * 16]}
    for config, (first, second, code) in runs.items():
        margins = [
            {"cell": 1, "claim": "assert x < 1", "margin": first},
            {"cell": 2, "claim": "assert ok", "margin": second},
        ]
        (tmp_path / f"01_attention.{config}.json").write_text(
            json.dumps(
                {
                    "chapter": "01_attention",
                    "config": config,
                    "code": code,
                    "seconds": 1.0,
                    "margins": margins,
                    "errors": [],
                }
            )
        )
    assert book_robust.report(tmp_path, safety=0.1) == 1  # the failing run executed other code: left out
    out = capsys.readouterr().out
    assert "below the safety margin" in out and math.isclose(float(out.split("x < 1")[1].split()[0]), 0.05)
    assert "01_attention old: stale" in out and "FAILS" not in out


def test_a_configuration_is_named_by_what_it_sets_and_drawn_from_the_sources(tmp_path: Path) -> None:
    assert book_robust.configuration("avx2-1t-s37") == book_robust.AVX2 | book_robust.threads(1) | {
        "COURSE_SEED_OFFSET": "37"
    }
    assert book_robust.configuration("native-s5") == {"COURSE_SEED_OFFSET": "5"}  # the machine's kernels and threads
    for wrong in ("avx512-1t-s1", "avx2-s", "avx2-0t-s1", "avx2-1t-s1000"):
        with pytest.raises(ValueError, match="no configuration"):
            book_robust.configuration(wrong)
    for name in book_robust.drawn(20, random.Random(0)) + book_robust.CONFIGS:
        book_robust.configuration(name)
    (tmp_path / "book").mkdir()
    (tmp_path / "course_lib").mkdir()
    (tmp_path / "book" / "01.md").write_text("a")
    (tmp_path / "course_lib" / "x.py").write_text("b")
    names = {book_robust.of_sources(tmp_path)}
    for text in ("c", "d", "e", "f", "g", "h"):  # each change of a chapter draws again: six draws, not all alike
        (tmp_path / "book" / "01.md").write_text(text)
        assert book_robust.of_sources(tmp_path) == book_robust.of_sources(tmp_path)
        names.add(book_robust.of_sources(tmp_path))
    assert len(names) > 1 and all(book_robust.configuration(n) for n in names)


def test_a_saved_model_made_by_other_code_is_not_lent_to_a_configuration(tmp_path: Path, monkeypatch) -> None:
    """Chapter 6 run alone borrows the reader's saved models of chapters 3 and 4, only where this checkout's code made
    each: a model saved by an older chapter 4 once failed a claim that chapter 4's own model meets."""
    import torch

    from course_lib.chapter_models import save_chapter_model

    monkeypatch.setenv("COURSE_MODELS", str(tmp_path / "reader"))
    save_chapter_model("04_bert", {"state_dict": {}})
    torch.save({"state_dict": {}, "made_with": "an older course"}, tmp_path / "reader" / "03_gpt.pt")
    folder = book_robust.models_for("native-s1", tmp_path / "out")
    assert sorted(p.name for p in folder.iterdir()) == ["04_bert.pt"]
