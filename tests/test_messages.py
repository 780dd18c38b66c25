"""The schemas of what the grader's processes write for each other (course_grading.sandbox.messages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from course_grading.sandbox.messages import JailSettings, Outcome, read_message, write_message


def test_an_outcome_reads_back_as_written(tmp_path: Path) -> None:
    outcome = Outcome(scores={"softmax": 2.0}, max_scores={"softmax": 2.0}, notes=["a note"], seed=7, review=[])
    write_message(tmp_path / "outcome.json", outcome)
    assert read_message(tmp_path / "outcome.json", Outcome) == outcome


def test_a_file_without_a_required_key_is_refused_with_the_keys_named(tmp_path: Path) -> None:
    path = tmp_path / "jail.json"
    path.write_text('{"hide": [], "keep": [], "cell_s": 15}')  # no output_bytes, no grading
    with pytest.raises(ValueError, match="lacks grading, output_bytes: it does not follow the JailSettings schema"):
        read_message(path, JailSettings)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="lacks max_scores, notes, scores, seed"):
        read_message(path, Outcome)


def test_optional_keys_may_be_left_out(tmp_path: Path) -> None:
    write_message(tmp_path / "outcome.json", Outcome(scores={}, max_scores={}, notes=[], seed=1))
    assert "review" not in read_message(tmp_path / "outcome.json", Outcome)
