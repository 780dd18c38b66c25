"""``course check``: run what grading runs of a student's notebook, in a fresh kernel, and report its
visible tests per part.

What runs is the canonical notebook (:func:`course_grading.notebook.canonical.rebuild`), as at grading: the
release of the assignment the notebook's cells belong to (found in the course's ``release``
folder by grade ids), with the student's answer cells and the code cells the student added; the
release's read-only and test cells, restored if the student edited them (check says so, and says
what else grading will restore, drop or miss). The size rule is grading's (the cells' code and
text, not their outputs). The report names the assignment, and says so when the file's name names
another one.

A *part* is one graded test cell with the answer cells before it (back to the previous test cell),
named as the notebook names it: by its ``## Part N: title (P points)`` heading, without the points,
or by the test cell's grade id where it has no such heading. Cells are numbered as the student's
notebook numbers them (from 1, markdown cells included). Errors are shown where they happen in the
student's code (the cell and line of the innermost notebook frame, not a library's), a missing
answer cell or a renamed function by name.

Limits are grading's (:class:`course_grading.sandbox.limits.Limits`): a time limit per cell (the
assignment's own set-up cells, which start Python and import torch, get :data:`SETUP_S`), the
kernel's address space (``RLIMIT_AS``) and its resident memory, watched from outside. The notebook
runs cell by cell, up to its last test cell, in grading's order: every code cell that is not a test,
then the tests (so a function redefined below a part's test is checked as it is graded). A cell that runs past its limit
(an endless loop) is interrupted, as Jupyter's stop button does, and the next cell runs. If the cell does not stop (code
that catches KeyboardInterrupt), kills the kernel (a crash) or takes more memory than grading
allows (the kernel is then stopped), the notebook is run again from the top in a fresh kernel
without the cells that stopped one, so every other part is still checked. The student's file is
never modified.

It is not jailed: the notebook runs as the user who runs ``course check``, which is right for a student's own
notebook on their own machine and wrong for anyone else's. So it refuses a course that holds the course secret
(an instructor's copy: ``course release`` and ``course grade`` make it), where a submission's code could read the
hidden checks and rewrite grades; there a submission is checked with ``--seed`` (:mod:`course_grading.seeded`), in
grading's jail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbclient.util import run_sync

from course_grading.markers import is_answer, is_own, is_test, nbgrader_meta, part_names, part_of
from course_grading.notebook.assignments import COURSE
from course_grading.notebook.canonical import Canonical, assignment_of, grade_ids, read_submission, rebuild
from course_grading.sandbox.limits import Limits, cap_address_space
from course_grading.sandbox.seeds import SECRET_FILE
from course_grading.text import continued, shown, source_lines

__all__ = [
    "KERNEL",
    "MemoryWatch",
    "Part",
    "PartResult",
    "Report",
    "SETUP_S",
    "cell_limit",
    "check_notebook",
    "refuse_an_instructors_course",
    "find_parts",
    "grading_order",
    "identify",
    "named_assignment",
    "out_of_memory",
    "part_uses",
]

KERNEL = "python3"  # jupyter_client resolves it to the Python running `course`, when ipykernel is installed there
INTERRUPT_GRACE_S = 5  # how long an interrupted cell has to stop before its kernel is abandoned
# the assignment's own set-up cells: a fresh Python importing torch (grading's process has it imported already)
SETUP_S = 60
MEMORY_POLL_S = 0.05  # how often the kernel's memory is read
# a kernel whose address space came this close to its limit ran out of it (and may hang: it is stopped)
ADDRESS_MARGIN = 2**28
SYNTAX_ERRORS = {"SyntaxError", "IndentationError", "TabError"}

_HEADING = re.compile(r"^##[ \t]+(.*?)[ \t]*$", re.MULTILINE)  # level 2 only: "###" does not match
_PART_TITLE = re.compile(r"(?P<name>(?P<label>Part[ \t]+[\w.]+)[ \t]*:.*?)[ \t]*(?:\([^()]*\bpoints?\))?")
# What a cell defines at its top level, found without parsing it (it may not parse: a syntax error).
_DEFINITION = re.compile(
    r"^(?:(?:async[ \t]+)?def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*=(?!=)", re.MULTILINE
)
_WORD = re.compile(r"[A-Za-z_]\w*")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_CELL_FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)")  # IPython's name for a frame in a notebook cell
_UNDEFINED = re.compile(r"name '([A-Za-z_]\w*)' is not defined")


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
    details: tuple[str, ...] = ()  # lines that show where: the line of the error (and a caret under a syntax error)
    hint: str | None = None  # when earlier parts that this one uses fail too


@dataclass(frozen=True)
class Report:
    """``course check``'s findings: the assignment, what grading restores, drops or misses (notes),
    each part in order, and the other cells (set-up, the student's own) that failed before the last
    part's tests, which the parts after them may depend on."""

    assignment: str
    parts: list[PartResult]
    other_cells: list[PartResult]  # named "cell N" (counted from 1), hint None
    notes: list[str]  # from the canonical notebook: as the grader's feedback will say them
    misnamed: str | None = None  # when the file's name names another assignment than its cells

    @property
    def failed(self) -> int:
        return sum(part.failure is not None for part in self.parts)

    def render(self) -> list[str]:
        """The report as ``course check`` prints it, each line :func:`course_grading.text.shown` (tabs
        and newlines kept): a student's exception message or source line cannot drive the terminal."""
        lines = [f"warning: {self.misnamed}"] if self.misnamed else []
        lines += [f"note: {note}" for note in self.notes]
        for cell in self.other_cells:
            failed = continued(cell.failure or "", 4)
            lines.append(f"{cell.name} (not a part; the parts after it may need it) failed: {failed}")
            lines += [f"    {line}" for line in cell.details]
        width = max(len(part.name) for part in self.parts)
        for part in self.parts:
            outcome = "passed" if part.failure is None else "FAILED  " + continued(part.failure, 4)
            lines.append(f"{part.name:<{width}}  {outcome}")
            lines += [f"    {line}" for line in (*part.details, *([f"hint: {part.hint}"] if part.hint else []))]
        lines.append(
            f"{self.assignment}: {len(self.parts) - self.failed} of {len(self.parts)} parts pass their visible tests."
            + (" Hidden tests run when your work is graded." if not self.failed else "")
        )
        return [shown(line, lines=True) for line in lines]


class MemoryWatch:
    """Stops a kernel that holds more memory than grading allows: more than ``resident`` bytes, or an
    address space that came within :data:`ADDRESS_MARGIN` of its ``RLIMIT_AS`` (``address``), where
    an allocation loop ends (its MemoryError leaves the kernel no memory to answer with)."""

    def __init__(self, pid: int, resident: int, address: int) -> None:
        self.pid, self.resident, self.address = pid, resident, address
        self.exceeded = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._done.wait(MEMORY_POLL_S):
            try:
                status = dict(
                    line.split(":", 1)
                    for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
                    if ":" in line
                )
                resident, peak = (int(status[key].split()[0]) * 1024 for key in ("VmRSS", "VmPeak"))
            except (OSError, KeyError, ValueError):  # the kernel is gone, or this is not Linux
                return
            if resident > self.resident or peak > self.address - ADDRESS_MARGIN:
                self.exceeded = True
                with contextlib.suppress(OSError):
                    os.kill(self.pid, signal.SIGKILL)
                return


def _address_limit(limit: int) -> Callable[[], None]:
    """For the kernel's process, before it runs Python: its address space limited to ``limit`` bytes."""

    def apply() -> None:
        cap_address_space(limit)

    return apply


async def _execute(client: NotebookClient, cell: nbformat.NotebookNode, index: int, deadline: float) -> None:
    """Run one cell, cancelled (nbclient then raises DeadKernelError) if it is still running at ``deadline`` seconds."""
    await asyncio.wait_for(client.async_execute_cell(cell, index), deadline)


@contextlib.contextmanager
def _kernel(client: NotebookClient, limits: Limits) -> Iterator[MemoryWatch | None]:
    """A started kernel for ``client``, its address space limited, its memory watched (where Linux shows it)."""
    # the kernel's own messages: shown only if it cannot start
    with tempfile.TemporaryFile() as kernel_log, contextlib.ExitStack() as kernel:
        try:
            kernel.enter_context(client.setup_kernel(stderr=kernel_log, preexec_fn=_address_limit(limits.memory_bytes)))
        except Exception as error:  # NoSuchKernel, a kernel that dies at start, a start timeout
            kernel_log.seek(0)
            said = kernel_log.read().decode(errors="replace").strip().splitlines()[-5:]
            raise RuntimeError(
                "cannot start a Python kernel, is ipykernel installed in this environment? "
                f"({type(error).__name__}: {error})" + "".join(f"\n  {line}" for line in said)
            ) from None
        pid = getattr(getattr(client.km, "provisioner", None), "pid", None)
        if not isinstance(pid, int):
            yield None
            return
        with MemoryWatch(pid, limits.group_memory_bytes, limits.memory_bytes) as watch:
            yield watch


def cell_limit(cell: nbformat.NotebookNode, timeout: int) -> int:
    """The seconds a cell may run: ``timeout``, or :data:`SETUP_S` for the assignment's own set-up cells."""
    return timeout if is_answer(cell) or is_test(cell) or is_own(cell) else max(timeout, SETUP_S)


def grading_order(nb: nbformat.NotebookNode, last: int) -> list[int]:
    """The indices of the code cells of ``nb.cells[:last + 1]`` in the order grading runs them:
    every cell that is not a test, in notebook order, then the test cells (``worker.run_submission``),
    so that a cell below a part's test that redefines its function counts here as it does there."""
    code = [i for i, cell in enumerate(nb.cells[: last + 1]) if cell.cell_type == "code"]
    return [i for i in code if not is_test(nb.cells[i])] + [i for i in code if is_test(nb.cells[i])]


def _run(nb: nbformat.NotebookNode, last: int, folder: Path, timeout: int, limits: Limits) -> dict[int, str]:
    """Execute the code cells ``nb.cells[:last + 1]`` in place, in :func:`grading_order`; return, for the
    cells that ran past their time, took too much memory or killed the kernel, what happened (the other
    cells have their outputs)."""
    stopped: dict[int, str] = {}
    while True:
        # At its limit, nbclient interrupts the cell (the kernel answers with a KeyboardInterrupt);
        # a kernel that has not answered INTERRUPT_GRACE_S later is abandoned (the cell is cancelled).
        client = NotebookClient(
            nb,
            timeout=timeout,
            interrupt_on_timeout=True,
            allow_errors=True,
            kernel_name=KERNEL,
            shutdown_kernel="immediate",
            resources={"metadata": {"path": str(folder)}},
        )
        with _kernel(client, limits) as watch:
            for index in grading_order(nb, last):
                cell = nb.cells[index]
                if index in stopped:
                    continue
                client.timeout = limit = cell_limit(cell, timeout)
                started = time.monotonic()
                try:
                    run_sync(_execute)(client, cell, index, limit + INTERRUPT_GRACE_S)
                except (TimeoutError, DeadKernelError):  # nbclient turns the cancellation into DeadKernelError
                    stopped[index] = _why_stopped(
                        watch, time.monotonic() - started >= limit + INTERRUPT_GRACE_S, limit, limits
                    )
                    break  # to a fresh kernel
                # what it holds may starve the cells after it
                if any(output.get("ename") == "MemoryError" for output in cell.get("outputs", [])):
                    stopped[index] = out_of_memory(limits)
                    break  # to a fresh kernel
                if time.monotonic() - started >= limit:  # interrupted: the kernel goes on with the next cell
                    stopped[index] = f"timed out after {limit} s"
            else:
                return stopped


def _why_stopped(watch: MemoryWatch | None, abandoned: bool, limit: int, limits: Limits) -> str:
    """What stopped a cell whose kernel died or was abandoned."""
    if watch is not None and watch.exceeded:
        return out_of_memory(limits)
    return f"timed out after {limit} s" if abandoned else "crashed the kernel (out of memory, or a crash)"


def out_of_memory(limits: Limits) -> str:
    """How a cell that ran out of memory is reported."""
    return (
        f"ran out of memory (grading allows {limits.group_memory_bytes / 2**30:g} GiB in use, "
        f"{limits.memory_bytes / 2**30:g} GiB of address space)"
    )


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
    defined = [
        {
            name
            for cell in part.answers
            for match in _DEFINITION.finditer(nb.cells[cell].source)
            for name in match.groups()
            if name
        }
        for part in parts
    ]
    uses: list[list[int]] = []
    for number, part in enumerate(parts):
        mentioned = {
            word for cell in (*part.answers, part.test) for word in _WORD.findall(nb.cells[cell].source)
        } - defined[number]
        direct = {earlier for earlier in range(number) if defined[earlier] & mentioned}
        uses.append(sorted(direct.union(*(uses[earlier] for earlier in direct))))
    return uses


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


@dataclass(frozen=True)
class _Failure:
    """An error, at the cell of the notebook it happened in (its innermost frame in a notebook cell)."""

    cell: int
    message: str
    details: tuple[str, ...] = ()


class _Findings:
    """What went wrong in the executed canonical notebook, said in the student's notebook's terms."""

    def __init__(
        self, canon: Canonical, stopped: dict[int, str], parts: list[Part], release: nbformat.NotebookNode
    ) -> None:
        self.nb, self.origin, self.stopped = canon.nb, canon.origin, stopped
        self.counts = {
            cell.get("execution_count"): index
            for index, cell in enumerate(self.nb.cells)
            if cell.cell_type == "code" and index not in stopped
        }
        by_test = {nbgrader_meta(self.nb.cells[part.test]).get("grade_id"): part for part in parts}
        # Which part's answer must define each name the release's stubs define.
        self.owner = {
            name: by_test[test_id]
            for test_id, names in part_names(release).items()
            if test_id in by_test
            for name in names
        }

    def cell_name(self, index: int) -> str:
        """ "cell N", numbered as the student's notebook numbers it; a release cell it lacks by grade id."""
        origin = self.origin[index]
        return (
            f"cell {origin + 1}"
            if origin is not None
            else f"the assignment's cell {nbgrader_meta(self.nb.cells[index]).get('grade_id')}"
        )

    def _errors(self, index: int) -> list[nbformat.NotebookNode]:
        return [output for output in self.nb.cells[index].get("outputs", []) if output.get("output_type") == "error"]

    def failure(self, index: int) -> _Failure | None:
        """What went wrong in cell ``index`` (None if nothing did), and where."""
        if index in self.stopped:
            return _Failure(index, self.stopped[index])
        errors = self._errors(index)
        if not errors:
            return None
        name, message = errors[0].get("ename", "Error"), errors[0].get("evalue", "")
        located = _syntax_error(self.nb.cells[index].source) if name in SYNTAX_ERRORS else None
        if located is not None:
            return _Failure(index, f"{name} at {located[0]}", located[1])
        if name == "NotImplementedError":
            return _Failure(index, "not implemented yet")
        undefined = _UNDEFINED.fullmatch(message) if name == "NameError" else None
        if undefined is not None and undefined[1] in self.owner:
            return _Failure(index, self._undefined(undefined[1]))
        where = self._where(errors[0])
        text = f"{name}: {message}" if message else name
        if where is None or is_test(self.nb.cells[where[0]]):  # a test's own message says what is wrong
            return _Failure(index, text)
        cell, line = where
        quoted = source_lines(self.nb.cells[cell].source)[line - 1 : line]
        return _Failure(
            cell,
            f"{name} at line {line}: {message}" if message else f"{name} at line {line}",
            tuple(f"{line:>5} | {text}" for text in quoted),
        )

    def _undefined(self, name: str) -> str:
        """Why a name a part must define is not defined: renamed, or its answer cell failed first."""
        part = self.owner[name]
        if any(index in self.stopped or self._errors(index) for index in part.answers):
            return f"NameError: name '{name}' is not defined ({part.label}'s answer cell failed before defining it)"
        return f"{part.label} defines no `{name}` (did you rename it?)"

    def _where(self, error: nbformat.NotebookNode) -> tuple[int, int] | None:
        """The cell and line of the innermost notebook frame of an error's traceback, if any."""
        frames = _CELL_FRAME.findall(_ANSI.sub("", "\n".join(str(line) for line in error.get("traceback", []))))
        if not frames:
            return None
        count, line = (int(number) for number in frames[-1])
        return (self.counts[count], line) if count in self.counts else None

    def part(self, part: Part) -> tuple[str | None, tuple[str, ...]]:
        """The first thing that went wrong in the part's cells: a missing answer cell, then its
        answers' errors, then its tests'."""
        for index in part.answers:
            if self.origin[index] is None:
                return (
                    f"answer cell {nbgrader_meta(self.nb.cells[index]).get('grade_id')} is missing from your "
                    "notebook: graded as not answered",
                    (),
                )
        for index in (*part.answers, part.test):
            found = self.failure(index)
            if found is not None:
                return (
                    found.message
                    if is_test(self.nb.cells[found.cell])
                    else f"your code in {self.cell_name(found.cell)}: {found.message}"
                ), found.details
        return None, ()

    def other(self, index: int) -> PartResult | None:
        """A failure of a cell outside the parts (set-up, the student's own), named by its number."""
        found = self.failure(index)
        if found is None:
            return None
        where = "" if found.cell == index else f"your code in {self.cell_name(found.cell)}: "
        return PartResult(self.cell_name(index), where + found.message, found.details)


def _listing(labels: list[str]) -> str:
    """``["part 1", "part 2", "part 3"]`` -> "part 1, part 2 and part 3"."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _hint(part: Part, failing: list[str]) -> str:
    """Why a failing part may fail because of the earlier parts ``failing`` that it uses."""
    versions = "a correct version of it" if len(failing) == 1 else "correct versions of them"
    return (
        f"{part.label} uses your {_listing(failing)}, which {'fails' if len(failing) == 1 else 'fail'} too; "
        f"when graded, {part.label} is run with {versions}, so fix {_listing(failing)} first"
    )


def named_assignment(filename: str, ids: list[str]) -> str | None:
    """The assignment a file's name names ("A4_BERT_final (1).ipynb": a4_bert), if any."""
    name = filename.lower()
    for assignment in ids:
        number = assignment.split("_")[0]
        if assignment in name or re.search(rf"(?<![a-z0-9]){re.escape(number)}(?![0-9])", name):
            return assignment
    return None


def identify(path: Path, raw: nbformat.NotebookNode, releases: Path) -> tuple[str, str | None]:
    """The assignment a notebook's cells belong to, and a warning if its file's name names another."""
    assignment = assignment_of(grade_ids(raw), releases)
    if assignment is None:
        raise ValueError(
            f"it has no graded test cells or answer cells of this course's assignments (looked in {releases}): "
            "is it one of the course's assignment notebooks?"
        )
    named = named_assignment(path.name, sorted(p.stem for p in releases.glob("*/*.ipynb") if p.stem == p.parent.name))
    if named is None or named == assignment:
        return assignment, None
    return (
        assignment,
        f"this is {assignment}'s notebook, not {named}'s as its file name says: it was checked as "
        f"{assignment}, and would score 0 if handed in for {named}",
    )


def refuse_an_instructors_course(course: Path) -> None:
    """ValueError where ``course`` holds the course secret: a notebook run there, unjailed, as the user, could read
    the hidden checks and the secret and rewrite grades (the cache, the gradebook) if it is a submission."""
    secret = course / "grading" / SECRET_FILE
    if secret.exists():
        raise ValueError(
            f"{course} is an instructor's copy of the course (it holds the course secret, {secret}), and `course "
            "check` without --seed runs a notebook unjailed, as you: a submission's code could read the hidden checks "
            "and change grades. Check a submission with `course check NOTEBOOK --seed N`, which runs it in grading's "
            "jail; check a notebook of your own with --course naming a folder that holds only release/"
        )


def check_notebook(
    path: Path, course: Path = COURSE, timeout: int = Limits.cell_s, limits: Limits = Limits()
) -> Report:
    """Rebuild ``path`` as grading does, execute it in a fresh kernel (in the notebook's own folder)
    and report each graded part: passed, or what failed and where. ``timeout``: seconds per cell;
    ``limits``: grading's memory limits. Raises ValueError for a file that is not one of the course's
    assignment notebooks (or too large) or an instructor's course (:func:`refuse_an_instructors_course`), and
    RuntimeError when no kernel can be started."""
    raw, problems = read_submission(path)
    if raw is None:
        raise ValueError(problems[0])
    assignment, misnamed = identify(path, raw, course / "release")
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    canon = rebuild(raw, release)
    parts = find_parts(canon.nb)
    refuse_an_instructors_course(course)
    stopped = _run(canon.nb, parts[-1].test, path.parent.resolve(), timeout, limits)
    findings = _Findings(canon, stopped, parts, release)
    failures = [findings.part(part) for part in parts]
    results = []
    for part, (failure, details), uses in zip(parts, failures, part_uses(canon.nb, parts)):
        failing = [parts[earlier].label for earlier in uses if failures[earlier][0] is not None]
        results.append(
            PartResult(part.name, failure, details, _hint(part, failing) if failure is not None and failing else None)
        )
    in_parts = {index for part in parts for index in (*part.answers, part.test)}
    others = [
        findings.other(index)
        for index, cell in enumerate(canon.nb.cells[: parts[-1].test])
        if index not in in_parts and cell.cell_type == "code"
    ]
    return Report(assignment, results, [other for other in others if other is not None], canon.notes, misnamed)
