"""The same notebook gets the same hidden inputs, hence the same grade (issue 27, item 1, in part), and
nobody without the course secret can predict them (issue 36): ``course grade`` seeds every hidden check
from a keyed digest of every code cell of the submission and the check that draws."""

from __future__ import annotations

import importlib
import sys

import nbformat
import pytest
import torch

from course_grading.sandbox.seeds import SECRET_FILE, ensure_secret, read_secret
from course_grading.sandbox.worker import submission_seed

from assignment_support import ASSIGNMENTS

sys.path.insert(0, str(ASSIGNMENTS / "grading"))
gradinglib = importlib.import_module("gradinglib")


def draw_in_check_a() -> torch.Tensor:
    return torch.rand(4, generator=gradinglib.fresh_generator())


def draw_in_check_b() -> torch.Tensor:
    return torch.rand(4, generator=gradinglib.fresh_generator())


def test_a_seed_gives_each_check_its_own_inputs_whatever_ran_before() -> None:
    try:
        gradinglib.seed_checks(7)
        a, b = draw_in_check_a(), draw_in_check_b()
        gradinglib.seed_checks(7)
        assert torch.equal(draw_in_check_b(), b) and torch.equal(draw_in_check_a(), a)  # another order, the same inputs
        assert not torch.equal(a, b)
        second = draw_in_check_a()  # a check's second generator is not its first
        assert not torch.equal(second, a)
        gradinglib.seed_checks(8)
        assert not torch.equal(draw_in_check_a(), a)
    finally:
        gradinglib.seed_checks(None)
    assert not torch.equal(draw_in_check_a(), draw_in_check_a())  # unseeded (plain nbgrader): from the OS


def answer_cell(source: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {
        "grade_id": "sdpa",
        "solution": True,
        "grade": False,
        "locked": False,
        "schema_version": 3,
    }
    return cell


def test_the_seed_follows_every_code_cell_the_assignment_and_the_secret(tmp_path) -> None:
    course, other_course = tmp_path / "course", tmp_path / "other"
    ensure_secret(course)
    ensure_secret(other_course)
    nb = nbformat.v4.new_notebook(cells=[answer_cell("def f(): return 1"), nbformat.v4.new_code_cell("print('added')")])
    same = nbformat.v4.new_notebook(
        cells=[answer_cell("def f(): return 1"), nbformat.v4.new_code_cell("print('added')")]
    )
    table = nbformat.v4.new_notebook(
        cells=[answer_cell("def f(): return 1"), nbformat.v4.new_code_cell("TABLE = {1: 2}")]
    )
    other = nbformat.v4.new_notebook(
        cells=[answer_cell("def f(): return 2"), nbformat.v4.new_code_cell("print('added')")]
    )
    seed = submission_seed(course, "a1_attention", nb)
    assert seed == submission_seed(course, "a1_attention", same)  # the same notebook, the same inputs
    assert seed != submission_seed(course, "a1_attention", table)  # an added cell (a lookup table) changes them
    assert seed != submission_seed(course, "a1_attention", other)
    assert seed != submission_seed(course, "a2_blocks", nb)
    assert seed != submission_seed(other_course, "a1_attention", nb)  # another course secret: other inputs
    assert submission_seed(course, "a1_attention", nbformat.v4.new_notebook(cells=[answer_cell("x = '\ud800'")])) >= 0


def test_the_secret_is_made_once_owner_only_and_refused_when_missing_or_malformed(tmp_path) -> None:
    path = ensure_secret(tmp_path)
    key = read_secret(tmp_path)
    assert ensure_secret(tmp_path) == path and read_secret(tmp_path) == key  # kept, not remade
    assert path.stat().st_mode & 0o077 == 0
    assert len(key) == 32 and read_secret(ensure_secret(tmp_path / "another").parent) != key
    with pytest.raises(ValueError, match="missing"):
        read_secret(tmp_path / "none")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / SECRET_FILE).write_text("not hex")
    with pytest.raises(ValueError, match="course secret"):
        read_secret(tmp_path / "bad")
