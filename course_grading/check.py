"""``course check``: run a student's notebook in a fresh kernel and report its visible tests per part.

A *part* is one graded test cell with the answer cells before it (back to the previous test cell),
named as the notebook names it: by its ``## Part N: title (P points)`` heading, without the points,
or by the test cell's grade id where it has no such heading.

The notebook runs cell by cell, up to its last test cell, with a time limit per cell. A cell that
runs past it (an endless loop) is interrupted, as Jupyter's stop button does, and the next cell
runs. If the cell does not stop (code that catches KeyboardInterrupt) or kills the kernel (a crash,
memory exhausted), the notebook is run again from the top in a fresh kernel without the cells that
stopped one, so every other part is still checked. The student's file is never modified.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbclient.util import run_sync

from .notebooks import is_answer, is_test, nbgrader_meta, part_of

KERNEL = "python3"  # jupyter_client resolves it to the Python running `course`, when ipykernel is installed there
INTERRUPT_GRACE_S = 5  # how long an interrupted cell has to stop before its kernel is abandoned
SYNTAX_ERRORS = {"SyntaxError", "IndentationError", "TabError"}

_HEADING = re.compile(r"^##[ \t]+(.*?)[ \t]*$", re.MULTILINE)  # level 2 only: "###" does not match
_PART_TITLE = re.compile(r"(?P<name>(?P<label>Part[ \t]+[\w.]+)[ \t]*:.*?)[ \t]*(?:\([^()]*\bpoints?\))?")
# What a cell defines at its top level, found without parsing it (it may not parse: a syntax error).
_DEFINITION = re.compile(r"^(?:(?:async[ \t]+)?def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*=(?!=)", re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Part:
    """One graded part of an assignment notebook."""

    name: str  # "Part 2: causal and padding masks", or the grade id ("masks") without a heading
    label: str  # how other parts' hints refer to it: "part 2", or the grade id
    test: int  # the index of its test cell in the notebook's cells
    answers: tuple[int, ...]  # the indices of its answer cells


@dataclass(frozen=True)
class PartResult:
    """What ``course check`` found for one part."""

    name: str
    failure: str | None  # None when the visible tests passed
    details: tuple[str, ...] = ()  # lines that show where: the line of a syntax error and a caret under it
    hint: str | None = None  # when earlier parts that this one uses fail too


@dataclass(frozen=True)
class Report:
    """``course check``'s findings: each part in order, and the other cells (set-up, the student's
    own) that failed before the last part's tests, which the parts after them may depend on."""

    parts: list[PartResult]
    other_cells: list[PartResult]  # named "cell N" (counted from 1), hint None


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read and validate a notebook, or raise ValueError saying what is wrong with the file."""
    if not path.is_file():
        raise ValueError("no such file")
    if path.stat().st_size == 0:
        raise ValueError("the file is empty")
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # json, schema or encoding errors all mean "not a notebook"
        raise ValueError(f"not a valid Jupyter notebook ({type(error).__name__}: {str(error).splitlines()[0][:200]})") from None
    return nb


def find_parts(nb: nbformat.NotebookNode) -> list[Part]:
    """The notebook's graded parts, in order: each test cell with the answer cells and the
    level-2 heading that come after the previous test cell."""
    parts: list[Part] = []
    answers: list[int] = []
    title: re.Match[str] | None = None
    for index, cell in enumerate(nb.cells):
        headings = _HEADING.findall(cell.source) if cell.cell_type == "markdown" else []
        if headings:  # the last level-2 heading before the test cell names the part
            title = _PART_TITLE.fullmatch(headings[-1])
        elif is_answer(cell):
            answers.append(index)
        elif is_test(cell):
            grade_id = part_of(str(nbgrader_meta(cell).get("grade_id", f"cell {index + 1}")))
            if title is None:
                parts.append(Part(grade_id, grade_id, index, tuple(answers)))
            else:
                parts.append(Part(title["name"], title["label"].lower(), index, tuple(answers)))
            answers, title = [], None
    return parts


def part_uses(nb: nbformat.NotebookNode, parts: list[Part]) -> list[list[int]]:
    """For each part, the earlier parts it may call, directly or through another part: those whose
    answer cells define a name that its own answer or test cells mention (and do not define)."""
    defined = [{name for cell in part.answers for match in _DEFINITION.finditer(nb.cells[cell].source) for name in match.groups() if name} for part in parts]
    uses: list[list[int]] = []
    for number, part in enumerate(parts):
        mentioned = {word for cell in (*part.answers, part.test) for word in _WORD.findall(nb.cells[cell].source)} - defined[number]
        direct = {earlier for earlier in range(number) if defined[earlier] & mentioned}
        uses.append(sorted(direct.union(*(uses[earlier] for earlier in direct))))
    return uses


async def _execute(client: NotebookClient, cell: nbformat.NotebookNode, index: int, deadline: float) -> None:
    """Run one cell, cancelled (nbclient then raises DeadKernelError) if it is still running at ``deadline`` seconds."""
    await asyncio.wait_for(client.async_execute_cell(cell, index), deadline)


def _run(nb: nbformat.NotebookNode, last: int, folder: Path, timeout: int) -> dict[int, str]:
    """Execute the code cells ``nb.cells[:last + 1]`` in place; return, for the cells that ran past
    ``timeout`` seconds or killed the kernel, what happened (the other cells have their outputs)."""
    stopped: dict[int, str] = {}
    with tempfile.TemporaryFile() as kernel_log:  # the kernel's own messages: shown only if it cannot start
        while True:
            # At `timeout`, nbclient interrupts the cell (the kernel answers with a KeyboardInterrupt);
            # a kernel that has not answered INTERRUPT_GRACE_S later is abandoned (the cell is cancelled).
            client = NotebookClient(nb, timeout=timeout, interrupt_on_timeout=True, allow_errors=True, kernel_name=KERNEL,
                                    shutdown_kernel="immediate", resources={"metadata": {"path": str(folder)}})
            with contextlib.ExitStack() as kernel:
                try:
                    kernel.enter_context(client.setup_kernel(stderr=kernel_log))
                except Exception as error:  # NoSuchKernel, a kernel that dies at start, a start timeout
                    kernel_log.seek(0)
                    said = kernel_log.read().decode(errors="replace").strip().splitlines()[-5:]
                    raise RuntimeError("cannot start a Python kernel, is ipykernel installed in this environment? "
                                       f"({type(error).__name__}: {error})" + "".join(f"\n  {line}" for line in said)) from None
                for index, cell in enumerate(nb.cells[: last + 1]):
                    if cell.cell_type != "code" or index in stopped:
                        continue
                    started = time.monotonic()
                    try:
                        run_sync(_execute)(client, cell, index, timeout + INTERRUPT_GRACE_S)
                    except (DeadKernelError, asyncio.TimeoutError):  # nbclient turns the cancellation into DeadKernelError
                        abandoned = time.monotonic() - started >= timeout + INTERRUPT_GRACE_S
                        stopped[index] = f"timed out after {timeout} s" if abandoned else "crashed the kernel (out of memory, or a crash)"
                        break  # to a fresh kernel
                    if time.monotonic() - started >= timeout:  # interrupted: the kernel goes on with the next cell
                        stopped[index] = f"timed out after {timeout} s"
                else:
                    return stopped


def _syntax_error(source: str) -> tuple[str, tuple[str, ...]] | None:
    """Where ``source`` fails to compile, as ("line N: message", (the line, a caret under it)); None
    if it compiles here (IPython's syntax, or an error raised by code the cell runs) or has no line."""
    try:
        compile(source, "<cell>", "exec")
    except SyntaxError as error:
        if error.lineno is None:
            return None
        text = (error.text or "").rstrip("\n")
        column = max((error.offset or 1) - 1, 0)
        caret = "".join("\t" if char == "\t" else " " for char in text[:column]) + "^"
        return f"line {error.lineno}: {error.msg}", (f"{error.lineno:>5} | {text}", f"{'':>5} | {caret}")
    return None


def _cell_failure(nb: nbformat.NotebookNode, index: int, stopped: dict[int, str]) -> tuple[str, tuple[str, ...]] | None:
    """What went wrong in cell ``index`` (None if nothing did), and the lines that show where."""
    if index in stopped:
        return stopped[index], ()
    errors = [output for output in nb.cells[index].get("outputs", []) if output.get("output_type") == "error"]
    if not errors:
        return None
    name, message = errors[0].get("ename", "Error"), errors[0].get("evalue", "")
    located = _syntax_error(nb.cells[index].source) if name in SYNTAX_ERRORS else None
    if located is not None:
        return f"{name} at {located[0]}", located[1]
    if name == "NotImplementedError":
        return "not implemented yet", ()
    return (f"{name}: {message}" if message else name), ()


def _part_failure(nb: nbformat.NotebookNode, part: Part, stopped: dict[int, str]) -> tuple[str | None, tuple[str, ...]]:
    """The first thing that went wrong in the part's cells, its answers first, then its tests."""
    for index in (*part.answers, part.test):
        found = _cell_failure(nb, index, stopped)
        if found is not None:
            return (found[0] if index == part.test else f"your code in cell {index + 1}: {found[0]}"), found[1]
    return None, ()


def _listing(labels: list[str]) -> str:
    """``["part 1", "part 2", "part 3"]`` -> "part 1, part 2 and part 3"."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def check_notebook(path: Path, timeout: int = 120) -> Report:
    """Execute ``path`` in a fresh kernel (in its own folder) and report each graded part: passed,
    or what failed and where. Raises ValueError for a file that is not an assignment notebook and
    RuntimeError when no kernel can be started."""
    nb = read_notebook(path)
    parts = find_parts(nb)
    if not parts:
        raise ValueError("it has no graded test cells: is it one of the course's assignment notebooks?")
    stopped = _run(nb, parts[-1].test, path.parent.resolve(), timeout)
    failures = [_part_failure(nb, part, stopped) for part in parts]
    results = []
    for part, (failure, details), uses in zip(parts, failures, part_uses(nb, parts)):
        failing = [parts[earlier].label for earlier in uses if failures[earlier][0] is not None]
        hint = None
        if failure is not None and failing:
            versions = "a correct version of it" if len(failing) == 1 else "correct versions of them"
            hint = (f"{part.label} uses your {_listing(failing)}, which {'fails' if len(failing) == 1 else 'fail'} too; "
                    f"when graded, {part.label} is run with {versions}, so fix {_listing(failing)} first")
        results.append(PartResult(part.name, failure, details, hint))
    in_parts = {index for part in parts for index in (*part.answers, part.test)}
    others = []
    for index in range(parts[-1].test):
        found = None if index in in_parts or nb.cells[index].cell_type != "code" else _cell_failure(nb, index, stopped)
        if found is not None:
            others.append(PartResult(f"cell {index + 1}", *found))
    return Report(results, others)
