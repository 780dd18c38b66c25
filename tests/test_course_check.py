"""``course check``, a student's own check of a notebook: parts named as the notebook names them,
syntax errors shown where they are, hangs and crashes that leave the other parts checked, and hints
when a part fails because an earlier part it uses fails; what it runs is what grading runs (the
release's test cells, the student's own cells, the size rule), it names the assignment, says where a
runtime error is and what is missing or renamed, and stops a cell at grading's memory limits."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

from course_grading import check, cli
from course_grading.check import MemoryWatch, find_parts, named_assignment, part_uses
from course_grading.markers import MAX_SOURCE_BYTES, answer_code, nbgrader_meta
from course_grading.sandbox import seeds
from course_grading.sandbox.limits import Limits

from assignment_support import (
    Fixture,
    assignment_ids,
    release_notebook,
    source_notebook,
    students_course,
    submission_notebook,
)

COURSE = str(Path(sys.executable).parent / "course")
_STUDENTS = tempfile.TemporaryDirectory(prefix="course-check-")  # kept for the module's tests, removed at exit
STUDENTS_COURSE = students_course(Path(_STUDENTS.name))  # no course secret: `course check` refuses the real course
TIMEOUT = 20  # per cell: well above a fresh kernel's `import torch` on a busy 2-core machine

A1_PARTS = [
    "Part 1: scaled dot-product attention",
    "Part 2: causal and padding masks",
    "Part 3: splitting into heads and merging back",
    "Part 4: multi-head attention",
]
# Catches KeyboardInterrupt, so interrupting the kernel does not stop it.
STUBBORN_LOOP = (
    "\nwhile True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass\n"
)


def course_check(path: Path, timeout: int = TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [COURSE, "--course", str(STUDENTS_COURSE), "check", str(path), "--timeout", str(timeout)],
        capture_output=True,
        text=True,
        timeout=600,
    )


def submission(assignment: str, cells: dict[str, str]) -> nbformat.NotebookNode:
    """The student version with every answer cell taken from the answer key except ``cells``."""
    return submission_notebook(assignment, Fixture("test", cells, frozenset()), release_notebook(assignment))


def cell_number(nb: nbformat.NotebookNode, grade_id: str) -> int:
    return next(i + 1 for i, cell in enumerate(nb.cells) if nbgrader_meta(cell).get("grade_id") == grade_id)


def part_line(stdout: str, name: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith(name))


# a notebook and what ``course check`` said of it (the module fixtures ``broken`` and ``as_graded``)
Checked = tuple[nbformat.NotebookNode, subprocess.CompletedProcess]


# --- parts and their names, without a kernel ------------------------------------------------------


def test_parts_are_named_by_their_headings() -> None:
    assert [part.name for part in find_parts(release_notebook("a1_attention"))] == A1_PARTS
    assert [part.label for part in find_parts(release_notebook("a1_attention"))] == [
        "part 1",
        "part 2",
        "part 3",
        "part 4",
    ]
    for assignment in (a for a in assignment_ids() if a != "a1_attention"):  # a new assignment is held to it too
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
    own = (
        "split_heads = None\n\n\ndef merge_heads(x):\n    return x\n\n\n"
        + answer_code(source_notebook("a1_attention"))["mha"]
    )
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
        check.check_notebook(path, STUDENTS_COURSE)


# --- a notebook with one of each failure, checked once -----------------------------------------------


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """a1 with part 1 not done, a scratch cell that raises, a syntax error in part 2, a crash in
    part 3 and, in part 4's cell, a loop that survives the interrupt; and what ``course check`` says."""
    key = answer_code(source_notebook("a1_attention"))
    nb = submission(
        "a1_attention",
        {
            "sdpa": answer_code(release_notebook("a1_attention"))["sdpa"],
            "masks": key["masks"].replace("def padding_mask(lengths, T):", "def padding_mask(lengths, T)"),
            "split_merge": key["split_merge"].replace(
                "def split_heads(x, n_heads):\n", "def split_heads(x, n_heads):\n    import os\n    os._exit(1)\n"
            ),
            "mha": key["mha"] + STUBBORN_LOOP,
        },
    )
    nb.cells.insert(cell_number(nb, "test_sdpa"), nbformat.v4.new_code_cell("scratch = 1 / 0"))
    path = tmp_path_factory.mktemp("broken") / "a1_attention.ipynb"
    nbformat.write(nb, path)
    before = path.read_bytes()
    result = course_check(path)
    assert path.read_bytes() == before, "check must not modify the student's notebook"
    return nb, result


@pytest.mark.slow
def test_each_failure_is_reported_under_the_parts_name(broken: Checked) -> None:
    _, result = broken
    assert result.returncode == 1, result.stdout + result.stderr
    for name in A1_PARTS:
        assert "FAILED" in part_line(result.stdout, name)
    assert "0 of 4 parts pass their visible tests." in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.slow
def test_an_unfinished_part_is_not_implemented_yet(broken: Checked) -> None:
    assert part_line(broken[1].stdout, A1_PARTS[0]).endswith("FAILED  not implemented yet")


@pytest.mark.slow
def test_a_syntax_error_is_shown_at_its_cell_and_line(broken: Checked) -> None:
    nb, result = broken
    answer = nb.cells[cell_number(nb, "masks") - 1].source
    line = answer.splitlines().index("def padding_mask(lengths, T)") + 1
    assert part_line(result.stdout, A1_PARTS[1]).endswith(
        f"FAILED  your code in cell {cell_number(nb, 'masks')}: SyntaxError at line {line}: expected ':'"
    )
    lines = result.stdout.splitlines()
    at = lines.index(part_line(result.stdout, A1_PARTS[1]))
    assert lines[at + 1] == f"    {line:>5} | def padding_mask(lengths, T)"
    assert lines[at + 2] == f"    {'':>5} | {' ' * len('def padding_mask(lengths, T)')}^"


@pytest.mark.slow
def test_a_crash_and_a_loop_that_survives_the_interrupt_are_reported(broken: Checked) -> None:
    nb, result = broken
    assert part_line(result.stdout, A1_PARTS[2]).endswith("FAILED  crashed the kernel (out of memory, or a crash)")
    assert part_line(result.stdout, A1_PARTS[3]).endswith(
        f"FAILED  your code in cell {cell_number(nb, 'mha')}: timed out after {TIMEOUT} s"
    )


@pytest.mark.slow
def test_a_failing_cell_outside_the_parts_is_reported(broken: Checked) -> None:
    nb, result = broken
    scratch = next(i + 1 for i, cell in enumerate(nb.cells) if cell.source == "scratch = 1 / 0")
    assert (
        f"cell {scratch} (not a part; the parts after it may need it) failed: ZeroDivisionError at line 1: "
        "division by zero\n        1 | scratch = 1 / 0\n"
    ) in result.stdout


@pytest.mark.slow
def test_only_a_part_whose_used_parts_fail_gets_a_hint(broken: Checked) -> None:
    hints = [line for line in broken[1].stdout.splitlines() if "hint:" in line]
    assert hints == [
        "    hint: part 4 uses your part 1, part 2 and part 3, which fail too; when graded, part 4 is run with "
        "correct versions of them, so fix part 1, part 2 and part 3 first"
    ]


# --- a hang ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_hang_is_interrupted_and_the_later_parts_are_checked(tmp_path: Path) -> None:
    """a2's part 2 loops forever in a function its visible tests call; parts 3 and 4 still pass."""
    key = answer_code(source_notebook("a2_blocks"))["sinusoidal"]
    looping = re.sub(
        r'(def sinusoidal_encoding\(T, d_model\):\n    """.*?"""\n)',
        r"\1    while True:\n        pass\n",
        key,
        flags=re.DOTALL,
    )
    assert looping != key
    path = tmp_path / "a2_blocks.ipynb"
    nbformat.write(submission("a2_blocks", {"sinusoidal": looping}), path)
    result = course_check(path)
    assert result.returncode == 1, result.stdout + result.stderr
    names = [part.name for part in find_parts(release_notebook("a2_blocks"))]
    assert [re.split(r"\s{2,}", part_line(result.stdout, name))[-1] for name in names] == [
        "passed",
        f"timed out after {TIMEOUT} s",
        "passed",
        "passed",
    ]
    assert "3 of 4 parts pass their visible tests." in result.stdout
    for noise in ("Traceback", "KeyboardInterrupt", "CellTimeoutError", "hint:"):
        assert noise not in result.stdout + result.stderr


# --- what grading runs, named, with runtime errors located -------------------------------------------

A4 = "a4_bert"
A4_PARTS = [part.name for part in find_parts(release_notebook(A4))]
OWN_HELPER = "import numpy as np_own\n\n\ndef _twice(x):\n    return 2 * x\n"
NEEDS_NUMPY = "    _unused = np.float32(1)\n"


@pytest.fixture(scope="module")
def as_graded(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """An a4 notebook saved as ``a5_t5.ipynb``, with a cell of its own that part 4 uses, part 1's
    function renamed, part 2 unfinished behind an edited test cell, part 3 calling numpy it never
    imported, part 5's answer cell deleted, a cell after the last test, and 26 MB of outputs; and
    what ``course check`` says of it."""
    key = answer_code(source_notebook(A4))
    no_numpy = re.sub(
        r'(def mlm_loss\(logits, labels\):\n    """.*?"""\n)',
        lambda m: m[1] + NEEDS_NUMPY,
        key["mlm_loss"],
        flags=re.DOTALL,
    )
    assert no_numpy != key["mlm_loss"]
    nb = submission(
        A4,
        {
            "wordpiece": key["wordpiece"].replace("def wordpiece(", "def word_piece("),
            "mask_tokens": answer_code(release_notebook(A4))["mask_tokens"],
            "mlm_loss": no_numpy,
            "encoder_block": "_doubled = _twice(1)\n" + key["encoder_block"],
        },
    )
    test = nb.cells[cell_number(nb, "test_mask_tokens") - 1]
    test.source = 'print("Part 2: visible tests passed.")'
    nb.cells[cell_number(nb, "encoder_block") - 1].outputs = [
        nbformat.v4.new_output("display_data", data={"image/png": "A" * (26 * 10**6)})
    ]
    nb.cells.insert(cell_number(nb, "setup"), nbformat.v4.new_code_cell(OWN_HELPER))
    nb.cells.pop(cell_number(nb, "pair_inputs") - 1)
    nb.cells.append(nbformat.v4.new_code_cell("print('after every test')"))
    path = tmp_path_factory.mktemp("as_graded") / "a5_t5.ipynb"
    nbformat.write(nb, path)
    assert path.stat().st_size > 26 * 10**6
    return nb, course_check(path)


@pytest.mark.slow
def test_check_names_the_assignment_it_checked(as_graded: Checked) -> None:
    _, result = as_graded
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == (
        "warning: this is a4_bert's notebook, not a5_t5's as its file name says: it was checked as a4_bert, and "
        "would score 0 if handed in for a5_t5"
    )
    assert result.stdout.splitlines()[-1] == "a4_bert: 1 of 5 parts pass their visible tests."


@pytest.mark.slow
def test_check_runs_the_releases_test_cells_and_says_so(as_graded: Checked) -> None:
    _, result = as_graded
    # the edited test printed "passed"
    assert part_line(result.stdout, A4_PARTS[1]).endswith("FAILED  not implemented yet")
    assert (
        "note: read-only cells edited or deleted (test_mask_tokens): the release's originals are graded"
        in result.stdout
    )


@pytest.mark.slow
def test_check_runs_the_students_own_cells_and_drops_what_grading_drops(as_graded: Checked) -> None:
    nb, result = as_graded
    assert part_line(result.stdout, A4_PARTS[3]).endswith("passed")  # it uses the added cell's helper
    assert f"note: cell {len(nb.cells)} added after the last test cell was not graded" in result.stdout


@pytest.mark.slow
def test_runtime_errors_missing_cells_and_renamed_functions_are_named(as_graded: Checked) -> None:
    nb, result = as_graded
    assert part_line(result.stdout, A4_PARTS[0]).endswith("FAILED  part 1 defines no `wordpiece` (did you rename it?)")
    answer = nb.cells[cell_number(nb, "mlm_loss") - 1].source
    line = answer.splitlines().index(NEEDS_NUMPY.rstrip("\n")) + 1
    assert part_line(result.stdout, A4_PARTS[2]).endswith(
        f"FAILED  your code in cell {cell_number(nb, 'mlm_loss')}: NameError at line {line}: name 'np' is not defined"
    )
    lines = result.stdout.splitlines()
    assert lines[lines.index(part_line(result.stdout, A4_PARTS[2])) + 1] == f"    {line:>5} | {NEEDS_NUMPY.rstrip()}"
    assert part_line(result.stdout, A4_PARTS[4]).endswith(
        "FAILED  answer cell pair_inputs is missing from your notebook: graded as not answered"
    )
    assert "Traceback" not in result.stdout + result.stderr


def test_the_size_rule_is_gradings_and_counts_code_not_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Over 20 MiB of code is refused as grading refuses it (26 MB of outputs pass: see ``as_graded``)."""
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(submission("a1_attention", {"sdpa": "# " + "x" * MAX_SOURCE_BYTES}), path)
    # no kernel is started for it
    assert cli.main(["--course", str(STUDENTS_COURSE), "check", str(path)]) == cli.EXIT_BAD_INPUT
    assert (
        "its cells' code and text come to 20.0 MiB, over the limit of 20 MiB (outputs do not count)"
        in capsys.readouterr().err
    )


def test_a_notebook_of_no_assignment_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")]), path)
    assert cli.main(["--course", str(STUDENTS_COURSE), "check", str(path)]) == cli.EXIT_BAD_INPUT
    assert "it has no graded test cells or answer cells of this course's assignments" in capsys.readouterr().err


def test_an_instructors_course_is_refused_before_any_cell_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unjailed, a submission's cell would run as the instructor, beside the hidden checks, the secret and the grade
    cache (attacks_t's atk05 rewrote the cache). A course that holds the course secret is refused, nothing of the
    notebook runs, and the message names the jailed way (``--seed``); the same notebook runs in a student's copy."""
    ran = tmp_path / "ran"
    nb = submission("a1_attention", {})
    nb.cells.insert(3, nbformat.v4.new_code_cell(f"open({str(ran)!r}, 'w').write('ran')"))
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(nb, path)
    instructors = students_course(tmp_path / "instructors")
    seeds.ensure_secret(instructors / "grading")
    assert cli.main(["--course", str(instructors), "check", str(path)]) == cli.EXIT_BAD_INPUT
    said = " ".join(capsys.readouterr().err.split())
    assert "holds the course secret" in said and "course check NOTEBOOK --seed N" in said, said
    assert not ran.exists()
    assert cli.main(["--course", str(STUDENTS_COURSE), "check", str(path)]) == 0
    assert ran.read_text() == "ran"


def test_the_file_name_names_an_assignment() -> None:
    ids = ["a1_attention", "a4_bert", "a5_t5"]
    assert named_assignment("A4_BERT_final (1).ipynb", ids) == "a4_bert"
    assert named_assignment("smith_a5.ipynb", ids) == "a5_t5"
    assert named_assignment("a10_extra.ipynb", ids) is None and named_assignment("data1.ipynb", ids) is None


# --- grading's limits ---------------------------------------------------------------------------------


def test_the_default_limits_are_gradings(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.parser().parse_args(["check", "n.ipynb"]).timeout == Limits.cell_s
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"(default: {Limits.cell_s})" in shown and f"{Limits.memory_bytes / 2**30:g} GiB of address space" in shown


def test_a_kernel_over_its_resident_memory_is_stopped() -> None:
    """The watch reads the kernel's memory from outside and stops it: an allocation that touches
    its pages (no address-space limit sees those in time) is stopped at the resident limit."""
    hog = subprocess.Popen([sys.executable, "-c", "import time\nx = bytearray(300 * 2**20)\ntime.sleep(60)"])
    started = time.monotonic()
    with MemoryWatch(hog.pid, resident=100 * 2**20, address=2**40) as watch:
        hog.wait(timeout=30)
    assert watch.exceeded and hog.returncode == -9 and time.monotonic() - started < 30


@pytest.mark.slow
def test_a_cell_that_allocates_without_end_is_stopped_and_the_rest_checked(tmp_path: Path) -> None:
    """An endless allocation in part 2 is stopped at grading's memory limit, well before its time
    limit, and reported as such; the other parts are still checked."""
    key = answer_code(source_notebook("a1_attention"))
    path = tmp_path / "a1_attention.ipynb"
    nbformat.write(
        submission(
            "a1_attention", {"masks": "_hog = []\nwhile True:\n    _hog.append(bytes(2**28))\n\n" + key["masks"]}
        ),
        path,
    )
    started = time.monotonic()
    result = course_check(path, timeout=300)
    assert time.monotonic() - started < 300, "stopped by the time limit, not the memory limit"
    assert part_line(result.stdout, A1_PARTS[1]).endswith(
        f"FAILED  your code in cell {cell_number(release_notebook('a1_attention'), 'masks')}: "
        f"ran out of memory (grading allows {Limits.group_memory_bytes / 2**30:g} GiB in use, "
        f"{Limits.memory_bytes / 2**30:g} GiB of address space)"
    )
    # part 4 uses part 2
    assert [part_line(result.stdout, name).endswith("passed") for name in A1_PARTS] == [True, False, True, False]
