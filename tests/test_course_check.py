"""``course check``, a student's own check of a notebook: parts named as the notebook names them,
syntax errors shown where they are, hangs and crashes that leave the other parts checked, and hints
when a part fails because an earlier part it uses fails."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from assignment_support import Fixture, release_notebook, source_notebook, submission_notebook
from course_grading import check, cli
from course_grading.check import find_parts, part_uses
from course_grading.notebooks import answer_code, nbgrader_meta

COURSE = str(Path(sys.executable).parent / "course")
TIMEOUT = 20  # per cell: well above a fresh kernel's `import torch` on a busy 2-core machine

A1_PARTS = ["Part 1: scaled dot-product attention", "Part 2: causal and padding masks",
            "Part 3: splitting into heads and merging back", "Part 4: multi-head attention"]
# Catches KeyboardInterrupt, so interrupting the kernel does not stop it.
STUBBORN_LOOP = "\nwhile True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass\n"


def course_check(path: Path, timeout: int = TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run([COURSE, "check", str(path), "--timeout", str(timeout)], capture_output=True, text=True, timeout=600)


def submission(assignment: str, cells: dict[str, str]) -> nbformat.NotebookNode:
    """The student version with every answer cell taken from the answer key except ``cells``."""
    return submission_notebook(assignment, Fixture("test", cells, frozenset()), release_notebook(assignment))


def cell_number(nb: nbformat.NotebookNode, grade_id: str) -> int:
    return next(i + 1 for i, cell in enumerate(nb.cells) if nbgrader_meta(cell).get("grade_id") == grade_id)


def part_line(stdout: str, name: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith(name))


# --- parts and their names, without a kernel ------------------------------------------------------


def test_parts_are_named_by_their_headings() -> None:
    assert [part.name for part in find_parts(release_notebook("a1_attention"))] == A1_PARTS
    assert [part.label for part in find_parts(release_notebook("a1_attention"))] == ["part 1", "part 2", "part 3", "part 4"]
    for assignment in ("a2_blocks", "a3_gpt", "a4_bert", "a5_t5", "a6_finetune"):
        names = [part.name for part in find_parts(release_notebook(assignment))]
        assert names == [f"Part {n}: {name.split(': ', 1)[1]}" for n, name in enumerate(names, 1)]
        assert not any("point" in name for name in names), names


def test_a_part_without_a_part_heading_is_named_by_its_grade_id() -> None:
    nb = release_notebook("a1_attention")
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == "part2":
            cell.source = cell.source.replace("## Part 2: causal and padding masks (2 points)", "### Masks")
        if nbgrader_meta(cell).get("grade_id") == "part3":
            cell.source = "## Heads\n\n" + cell.source.replace("## Part 3", "Part 3")
    assert [part.name for part in find_parts(nb)] == [A1_PARTS[0], "masks", "split_merge", A1_PARTS[3]]


def test_a_part_uses_the_earlier_parts_its_code_and_tests_call() -> None:
    key = submission("a1_attention", {})
    assert part_uses(key, find_parts(key)) == [[], [], [], [0, 1, 2]]  # mha calls parts 1 and 3, its tests part 2
    release = release_notebook("a1_attention")
    assert part_uses(release, find_parts(release)) == [[], [], [], [1]]  # the stub calls nothing; the tests call part 2
    own = "split_heads = None\n\n\ndef merge_heads(x):\n    return x\n\n\n" + answer_code(source_notebook("a1_attention"))["mha"]
    with_own = submission("a1_attention", {"mha": own})
    assert part_uses(with_own, find_parts(with_own))[3] == [0, 1]  # its own split and merge, not part 3's


def test_a_timeout_below_one_second_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(release_notebook("a1_attention"), path)
    assert cli.main(["check", str(path), "--timeout", "0"]) == cli.EXIT_BAD_INPUT
    assert "--timeout must be at least 1 second" in capsys.readouterr().err


def test_a_kernel_that_cannot_start_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(release_notebook("a1_attention"), path)
    monkeypatch.setattr(check, "KERNEL", "no-such-kernel")
    with pytest.raises(RuntimeError, match="cannot start a Python kernel, is ipykernel installed"):
        check.check_notebook(path)


# --- a notebook with one of each failure, checked once -----------------------------------------------


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[nbformat.NotebookNode, subprocess.CompletedProcess]:
    """a1 with part 1 not done, a scratch cell that raises, a syntax error in part 2, a crash in
    part 3 and, in part 4's cell, a loop that survives the interrupt; and what ``course check`` says."""
    key = answer_code(source_notebook("a1_attention"))
    nb = submission("a1_attention", {
        "sdpa": answer_code(release_notebook("a1_attention"))["sdpa"],
        "masks": key["masks"].replace("def padding_mask(lengths, T):", "def padding_mask(lengths, T)"),
        "split_merge": key["split_merge"].replace("def split_heads(x, n_heads):\n", "def split_heads(x, n_heads):\n    import os\n    os._exit(1)\n"),
        "mha": key["mha"] + STUBBORN_LOOP,
    })
    nb.cells.insert(cell_number(nb, "test_sdpa"), nbformat.v4.new_code_cell("scratch = 1 / 0"))
    path = tmp_path_factory.mktemp("broken") / "a1_attention.ipynb"
    nbformat.write(nb, path)
    before = path.read_bytes()
    result = course_check(path)
    assert path.read_bytes() == before, "check must not modify the student's notebook"
    return nb, result


@pytest.mark.slow
def test_each_failure_is_reported_under_the_parts_name(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    _, result = broken
    assert result.returncode == 1, result.stdout + result.stderr
    for name in A1_PARTS:
        assert "FAILED" in part_line(result.stdout, name)
    assert "0 of 4 parts pass their visible tests." in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.slow
def test_an_unfinished_part_is_not_implemented_yet(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    assert part_line(broken[1].stdout, A1_PARTS[0]).endswith("FAILED  not implemented yet")


@pytest.mark.slow
def test_a_syntax_error_is_shown_at_its_cell_and_line(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    nb, result = broken
    answer = nb.cells[cell_number(nb, "masks") - 1].source
    line = answer.splitlines().index("def padding_mask(lengths, T)") + 1
    assert part_line(result.stdout, A1_PARTS[1]).endswith(f"FAILED  your code in cell {cell_number(nb, 'masks')}: SyntaxError at line {line}: expected ':'")
    lines = result.stdout.splitlines()
    at = lines.index(part_line(result.stdout, A1_PARTS[1]))
    assert lines[at + 1] == f"    {line:>5} | def padding_mask(lengths, T)"
    assert lines[at + 2] == f"    {'':>5} | {' ' * len('def padding_mask(lengths, T)')}^"


@pytest.mark.slow
def test_a_crash_and_a_loop_that_survives_the_interrupt_are_reported(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    nb, result = broken
    assert part_line(result.stdout, A1_PARTS[2]).endswith("FAILED  crashed the kernel (out of memory, or a crash)")
    assert part_line(result.stdout, A1_PARTS[3]).endswith(f"FAILED  your code in cell {cell_number(nb, 'mha')}: timed out after {TIMEOUT} s")


@pytest.mark.slow
def test_a_failing_cell_outside_the_parts_is_reported(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    nb, result = broken
    scratch = next(i + 1 for i, cell in enumerate(nb.cells) if cell.source == "scratch = 1 / 0")
    assert f"cell {scratch} (not a part; the parts after it may need it) failed: ZeroDivisionError: division by zero" in result.stdout


@pytest.mark.slow
def test_only_a_part_whose_used_parts_fail_gets_a_hint(broken: tuple[nbformat.NotebookNode, subprocess.CompletedProcess]) -> None:
    hints = [line for line in broken[1].stdout.splitlines() if "hint:" in line]
    assert hints == ["    hint: part 4 uses your part 1, part 2 and part 3, which fail too; when graded, part 4 is run with "
                     "correct versions of them, so fix part 1, part 2 and part 3 first"]


# --- a hang ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_hang_is_interrupted_and_the_later_parts_are_checked(tmp_path: Path) -> None:
    """a2's part 2 loops forever in a function its visible tests call; parts 3 and 4 still pass."""
    key = answer_code(source_notebook("a2_blocks"))["sinusoidal"]
    looping = re.sub(r'(def sinusoidal_encoding\(T, d_model\):\n    """.*?"""\n)', r"\1    while True:\n        pass\n", key, flags=re.DOTALL)
    assert looping != key
    path = tmp_path / "a2_blocks.ipynb"
    nbformat.write(submission("a2_blocks", {"sinusoidal": looping}), path)
    result = course_check(path)
    assert result.returncode == 1, result.stdout + result.stderr
    names = [part.name for part in find_parts(release_notebook("a2_blocks"))]
    assert [re.split(r"\s{2,}", part_line(result.stdout, name))[-1] for name in names] == ["passed", f"timed out after {TIMEOUT} s", "passed", "passed"]
    assert "3 of 4 parts pass their visible tests." in result.stdout
    for noise in ("Traceback", "KeyboardInterrupt", "CellTimeoutError", "hint:"):
        assert noise not in result.stdout + result.stderr
