"""The same notebook gets the same hidden inputs, hence the same grade (issue 27, item 1, in part):
``course grade`` seeds every hidden check from the submission's answers and the check that draws."""

from __future__ import annotations

import importlib
import sys

import nbformat
import torch

from course_grading.sandbox.worker import checks_seed

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
    cell.metadata["nbgrader"] = {"grade_id": "sdpa", "solution": True, "grade": False, "locked": False, "schema_version": 3}
    return cell


def test_the_seed_follows_the_answers_and_the_assignment_only() -> None:
    nb = nbformat.v4.new_notebook(cells=[answer_cell("def f(): return 1"), nbformat.v4.new_code_cell("print('not an answer')")])
    same = nbformat.v4.new_notebook(cells=[answer_cell("def f(): return 1"), nbformat.v4.new_code_cell("print('other')")])
    other = nbformat.v4.new_notebook(cells=[answer_cell("def f(): return 2")])
    assert checks_seed("a1_attention", nb) == checks_seed("a1_attention", same)
    assert checks_seed("a1_attention", nb) != checks_seed("a1_attention", other)
    assert checks_seed("a1_attention", nb) != checks_seed("a2_blocks", nb)
    assert checks_seed("a1_attention", nbformat.v4.new_notebook(cells=[answer_cell("x = '\ud800'")])) >= 0  # a lone surrogate does not stop it
