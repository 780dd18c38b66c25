"""The ``course`` command: release with validation, a student's check, the grader self-test's gate."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course_grading.cli import ProgressBar
from course_grading.notebook import assignments
from course_grading.notebook.assignments import copy_course

from assignment_support import FIXTURES, load_fixture, release_notebook, students_course, submission_notebook

pytestmark = pytest.mark.slow
COURSE = str(Path(sys.executable).parent / "course")
ASSIGNMENT = "a1_attention"


def course(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([COURSE, *map(str, args)], capture_output=True, text=True, timeout=600)


def test_help_lists_every_command() -> None:
    result = course("--help")
    assert result.returncode == 0
    for command in ("release", "check", "grade", "mutants"):
        assert command in result.stdout


def test_release_generates_and_validates(tmp_path: Path) -> None:
    scratch = copy_course(tmp_path / "course")
    result = course("--course", scratch, "release", "--solutions", tmp_path / "solutions")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ASSIGNMENT}: release/{ASSIGNMENT}/ and solutions/{ASSIGNMENT}/ written; validation ok" in result.stdout
    assert nbformat.read(scratch / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4) == release_notebook(
        ASSIGNMENT
    )
    assert (tmp_path / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").is_file()


def test_release_refuses_an_answer_key_that_fails_its_tests(tmp_path: Path) -> None:
    scratch = copy_course(tmp_path / "course")
    path = scratch / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    path.write_text(path.read_text().replace("/ math.sqrt(q.shape[-1])", "/ q.shape[-1]", 1))
    result = course("--course", scratch, "release", "--solutions", tmp_path / "solutions")
    assert result.returncode == 1
    assert "validation INVALID" in result.stdout and "the answer key fails sdpa" in result.stdout


def test_release_names_an_unknown_assignment(tmp_path: Path) -> None:
    scratch = copy_course(tmp_path / "course")  # were the id not refused, release would write into the course
    result = course("--course", scratch, "release", "a9_nothing", "--solutions", tmp_path / "solutions")
    assert result.returncode == 2 and "no source notebook for: a9_nothing" in result.stderr


@pytest.mark.parametrize(
    "fixture, failing",
    [("answer key", set()), ("untouched", {"sdpa", "masks", "split_merge", "mha"}), ("bug_sdpa_no_scale", {"sdpa"})],
)
def test_check_summarises_visible_tests_per_part(tmp_path: Path, fixture: str, failing: set[str]) -> None:
    release = release_notebook(ASSIGNMENT)
    if fixture == "untouched":
        nb = release
    else:
        nb = submission_notebook(
            ASSIGNMENT,
            None if fixture == "answer key" else load_fixture(FIXTURES / ASSIGNMENT / f"{fixture}.py"),
            release,
        )
    path = tmp_path / f"{ASSIGNMENT}.ipynb"
    nbformat.write(nb, path)
    before = path.read_bytes()
    result = course("--course", students_course(tmp_path / "course"), "check", path)
    assert result.returncode == (1 if failing else 0), result.stdout + result.stderr
    lines = {
        part: next(line for line in result.stdout.splitlines() if line.startswith(name))
        for part, name in {"sdpa": "Part 1:", "masks": "Part 2:", "split_merge": "Part 3:", "mha": "Part 4:"}.items()
    }
    assert {part for part, line in lines.items() if "FAILED" in line} == failing
    assert f"{4 - len(failing)} of 4 parts pass" in result.stdout
    assert path.read_bytes() == before, "check must not modify the student's notebook"


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "the file is empty"),
        ('{"cells": [', "not a valid Jupyter notebook"),
        ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}', "no graded test cells"),
    ],
)
def test_check_rejects_what_is_not_an_assignment_notebook(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "submission.ipynb"
    path.write_text(content)
    result = course("check", path)
    assert result.returncode == 2 and message in result.stderr


def test_mutants_gate_fails_when_a_part_is_untested(tmp_path: Path) -> None:
    """With part 3's test cell emptied, its mutants survive and the self-test fails, naming them."""
    scratch = copy_course(tmp_path / "course")
    path = scratch / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "test_split_merge":
            cell.source = "pass"
    nbformat.write(nb, path)
    result = course("--course", scratch, "mutants", ASSIGNMENT, "--jobs", "2")
    assert result.returncode == 1
    assert "SURVIVED split_merge:" in result.stdout
    split_row = next(line for line in result.stdout.splitlines() if line.startswith("split_merge"))
    assert split_row.split()[1] == "0"  # none killed


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_lines_in_a_log() -> None:
    log, terminal = io.StringIO(), Terminal()
    for done in (1, 2, 4):
        line = f"[{done}/4] student{done}: 12"
        ProgressBar(log)(done, 4, line)
        ProgressBar(terminal)(done, 4, line)
    assert log.getvalue().splitlines() == ["[1/4] student1: 12", "[2/4] student2: 12", "[4/4] student4: 12"]
    drawn = terminal.getvalue().split("\r\033[K")[1:]  # each redraw clears the bar's line first
    assert len(drawn) == 3
    assert drawn[1].startswith("[2/4] student2: 12\ngrading [" + "#" * 15 + "." * 15 + "] 2/4")
    assert drawn[2].endswith("4/4, 0 s, about 0 s left\n")


def _break(course: Path, how: str) -> str:
    """Break one piece of a1's contract in a scratch course; returns the words the refusal must contain."""
    source = course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    checks = course / "grading" / f"{ASSIGNMENT}_checks.py"
    if how == "no checks":
        checks.unlink()
        return "hidden checks"
    if how == "a check missing":
        checks.write_text(checks.read_text().replace('"test_masks": check_masks,', ""))
        return "CHECKS has no check for test_masks"
    if how == "a check of no cell":
        checks.write_text(
            checks.read_text().replace(
                '"test_masks": check_masks,', '"test_masks": check_masks, "test_extra": check_masks,'
            )
        )
        return "CHECKS checks test_extra, which is no test cell"
    if how == "no reference parts":
        (course / "grading" / f"{ASSIGNMENT}_reference_parts.py").unlink()
        return "reads a1_attention_reference_parts.py, which is not in"
    nb = nbformat.read(source, as_version=4)
    test = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_masks")
    if how == "no points":
        test.metadata["nbgrader"]["points"] = 0
        words = "test cell 'test_masks' is worth no points"
    else:  # "no answer cell"
        test.metadata["nbgrader"]["grade_id"] = "test_mask"
        words = "grades an answer cell 'mask' that the source does not have"
    nbformat.write(nb, source)
    return words


@pytest.mark.parametrize(
    "how", ["no checks", "a check missing", "a check of no cell", "no reference parts", "no points", "no answer cell"]
)
def test_release_refuses_an_assignment_that_lacks_what_grading_needs(tmp_path: Path, how: str) -> None:
    scratch = copy_course(tmp_path / "course")
    words = _break(scratch, how)
    before = sorted(p.relative_to(scratch) for p in scratch.rglob("*"))
    result = course("--course", scratch, "release", "--solutions", tmp_path / "solutions")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{ASSIGNMENT}: not released; it lacks what grading needs" in result.stderr and words in result.stderr, (
        result.stderr
    )
    # nothing generated
    assert (
        sorted(p.relative_to(scratch) for p in scratch.rglob("*")) == before and not (tmp_path / "solutions").exists()
    )


def test_every_assignment_of_the_course_keeps_its_contract() -> None:
    ids = assignments.assignment_ids()
    assert len(ids) >= 6
    assert {a: assignments.contract(a) for a in ids} == {a: [] for a in ids}
