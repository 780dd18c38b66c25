"""tests/sweep_fixtures.py, the tool that measures how often each fixture is graded as labelled over many draws."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sweep_fixtures import main

from assignment_support import FIXTURES


def test_the_sweep_counts_draws_graded_as_labelled_and_names_the_seeds_of_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong answer caught on every draw counts every draw; a right answer labelled as losing its part
    (what a fixture that escapes on some draws looks like on those draws) is named with the seed of each draw,
    and the exit status says so."""
    corpus = tmp_path / "a1_attention"
    corpus.mkdir()
    shutil.copy(FIXTURES / "a1_attention" / "bug_masks_causal_upper.py", corpus)
    right = (FIXTURES / "a1_attention" / "alt_masks_styles.py").read_text().splitlines(keepends=True)
    assert right[0].startswith("# expect: full marks")
    (corpus / "mislabelled.py").write_text("# expect: loses masks -- labelled wrong on purpose\n" + "".join(right[1:]))
    status = main(["a1_attention", "--corpus", str(tmp_path), "--draws", "2", "--first-seed", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert any(line.startswith("bug_masks_causal_upper: 2 of 2 as labelled") for line in lines), lines
    mislabelled = next(line for line in lines if line.startswith("mislabelled:"))
    assert "0 of 2 as labelled" in mislabelled and "seed 5: lost nothing" in mislabelled and "seed 6" in mislabelled


def test_the_sweep_refuses_a_fixture_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["a1_attention", "no_such_fixture"])
    assert "no fixture no_such_fixture" in capsys.readouterr().err
