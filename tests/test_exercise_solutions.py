"""Every exercise of the book states its difficulty and its cost, and has an instructor solution in
``solutions/exercises/`` that runs (on a tiny configuration here) and asserts its own answer.

The chapters are found, not listed: every page of the book with an ``## Exercises`` section. Each
numbered exercise there reads ``N. **Title.** *(easy|medium|hard · cost)* ...``; the solution file of
the chapter (``solutions/exercises/<chapter>.py``) answers exactly those numbers, each with a written
answer (its docstring). Solutions never reach the built book: tests/test_book.py checks the HTML for
their lines.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT

BOOK = ROOT / "book"
SOLUTIONS = ROOT / "solutions" / "exercises"
EXERCISE = re.compile(r"^(\d+)\. \*\*[^*]+\*\* \*\((easy|medium|hard) · ([^)]+)\)\*", re.MULTILINE)
ITEM = re.compile(r"^(\d+)\. ", re.MULTILINE)
COST = re.compile(r"^(seconds|about [\w ]+ (minutes?|hours?) on one core)$")


def exercise_section(chapter: Path) -> str:
    """The text of a chapter's ``## Exercises`` section ('' if it has none)."""
    text = chapter.read_text()
    match = re.search(r"^## Exercises\n(.*?)(?=^## |^```|\Z)", text, re.MULTILINE | re.DOTALL)
    return match.group(1) if match else ""


CHAPTERS = sorted(p for p in BOOK.glob("*.md") if exercise_section(p))


def solution_module(chapter: Path) -> ModuleType:
    path = SOLUTIONS / f"{chapter.stem}.py"
    assert path.is_file(), f"{chapter.name} has exercises but no instructor solutions at {path.relative_to(ROOT)}"
    sys.path.insert(0, str(SOLUTIONS))
    try:
        spec = importlib.util.spec_from_file_location(f"exercise_solutions_{chapter.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SOLUTIONS))
    return module


def test_the_chapters_with_exercises_are_found() -> None:
    assert {p.stem for p in CHAPTERS} >= {"01_attention", "04_bert", "06_finetune", "appendix_scaling"}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_states_its_difficulty_and_cost(chapter: Path) -> None:
    section = exercise_section(chapter)
    numbers = [int(n) for n in ITEM.findall(section)]
    marked = {int(n): cost for n, _, cost in EXERCISE.findall(section)}
    assert numbers == list(range(1, len(numbers) + 1)), f"{chapter.name}: exercises numbered {numbers}"
    unmarked = [n for n in numbers if n not in marked]
    assert not unmarked, f"{chapter.name}: exercises {unmarked} lack '*(easy|medium|hard · cost)*' after the title"
    vague = {n: cost for n, cost in marked.items() if not COST.match(cost)}
    assert not vague, f"{chapter.name}: costs must read 'seconds' or 'about N minutes on one core': {vague}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_has_a_written_and_executable_solution(chapter: Path) -> None:
    module = solution_module(chapter)
    numbers = [int(n) for n in ITEM.findall(exercise_section(chapter))]
    assert sorted(module.EXERCISES) == numbers, (
        f"{chapter.name}: solutions answer {sorted(module.EXERCISES)}, the chapter asks {numbers}"
    )
    for number, function in module.EXERCISES.items():
        answer = inspect.getdoc(function) or ""
        assert len(answer.split()) >= 30, (
            f"{chapter.stem} exercise {number}: the docstring is the written answer; it has {len(answer.split())} words"
        )
        assert "quick" in inspect.signature(function).parameters


SOLUTION_CASES = [
    (chapter, number) for chapter in CHAPTERS for number in range(1, len(ITEM.findall(exercise_section(chapter))) + 1)
]


@pytest.mark.parametrize(("chapter", "number"), SOLUTION_CASES, ids=lambda v: v.stem if isinstance(v, Path) else str(v))
def test_each_solution_runs_on_a_tiny_configuration(
    chapter: Path, number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick run executes the solution's code path and the asserts it makes at that size."""
    monkeypatch.chdir(tmp_path)  # anything a solution writes lands in a temporary folder
    module = solution_module(chapter)
    results = module.EXERCISES[number](quick=True)
    assert isinstance(results, dict) and results, f"{chapter.stem} exercise {number} returned {results!r}"
