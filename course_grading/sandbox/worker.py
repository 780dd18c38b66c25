"""The trusted grading worker: one process per job that grades one scratch course after another.

For each submission (:func:`autograde`):

1. the student's process starts in its jail (:mod:`course_grading.sandbox.student_server`) and runs the
   notebook's cells, reporting each cell's outputs;
2. for each test cell, in order: its visible tests run in the student's process with correct
   versions of the other parts swapped in (the assignment's ``REFERENCE_PARTS``, minus what the
   part under test defines), then, if they pass, its hidden check runs here, against the
   student's functions in that process, which returns only values. A part's outcome therefore
   depends on that part alone: unfinished, wrong or hanging, it costs its own points, and its hidden check
   runs in a fresh student process that has run the notebook's cells and nothing else (no other part's
   tests, visible or hidden, ran there, so nothing they left in the process reaches it). A hidden
   failure is the student's only if the answer key passes the same check on the same inputs (a
   control run, here, of the course's own code, and, where the student's call raised, once more in a jailed
   student process of the key's own: a request the jail cannot serve fails there too); if the key fails too,
   the submission is not graded;
3. nbgrader autogrades the scratch course with that run replayed as the notebook's outputs
   (:mod:`course_grading.sandbox.replay`) and writes the feedback; the scores and notes go to
   ``outcome.json``, which the student's process cannot write.

The worker runs no student code itself (only the course's: the other parts' correct versions and the
key's controls). It imports nbgrader and torch once, and its jailed zygote imports torch once and forks
a student process per submission in milliseconds, so a submission costs the run of its notebook, its
checks and nbgrader's bookkeeping, not an ``import torch``.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import torch

from course_grading.markers import is_answer, is_own, is_test, nbgrader_meta, part_names, part_of, without_hidden_tests
from course_grading.notebook import assignments
from course_grading.sandbox import container, policy, replay, scratch_course, seeds, shortcuts
from course_grading.sandbox.calls import CUT, GraderFault, LocalStudent, Outputs, RemoteStudent, Student, StudentRaised
from course_grading.sandbox.limits import Limits, SlotGroup, jail_argv
from course_grading.sandbox.messages import (
    GradeRequest,
    JailSettings,
    Outcome,
    WorkerReply,
    read_message,
    write_message,
)
from course_grading.text import shown

__all__ = [
    "Control",
    "GRADER_SECONDS",
    "GraderError",
    "Ledger",
    "RUNNING",
    "SKIPPED_MESSAGE",
    "STARTED",
    "Worker",
    "Zygote",
    "ZygoteChannel",
    "answer_key_student",
    "autograde",
    "check_setup",
    "hidden_verdict",
    "key_process",
    "HiddenChecks",
    "load_checks",
    "notes_on",
    "printable",
    "replay_hint",
    "run_submission",
    "serve",
    "student_process",
    "submission_seed",
]


Check = Callable[[Student], "str | None"]  # a test cell's hidden check: None where the part passes, else why not


@dataclass(frozen=True)
class HiddenChecks:
    """What an assignment's checks module (``grading/<id>_checks.py``) gives the grader, typed and checked
    once as it is loaded: ``by_test``, each test cell's hidden check by its grade id (``CHECKS``);
    ``reference_parts``, the source of the correct parts swapped in while later parts are graded
    (``REFERENCE_PARTS``, None where there are none); ``shortcuts``, each part's forbidden routes
    (``SHORTCUTS``: :class:`course_grading.sandbox.shortcuts.Rules` by part; parts left out get the
    course's rules)."""

    by_test: Mapping[str, Check]
    reference_parts: str | None = None
    shortcuts: Mapping[str, shortcuts.Rules] = field(default_factory=dict)


def load_checks(grading: Path, assignment: str) -> HiddenChecks:
    """The assignment's hidden checks, from ``grading/<assignment>_checks.py``; a module that does not
    declare them as :class:`HiddenChecks` says (``CHECKS`` not a dict of grade ids to functions, ...) is a
    :class:`GraderFault`, named before any submission is run, never a part's failure."""
    if str(grading) not in sys.path:
        sys.path.insert(0, str(grading))
    _imported_from(grading)  # before: a stand-in imported earlier would break the import below obscurely
    module = importlib.import_module(f"{assignment}_checks")
    _imported_from(grading)
    by_test = getattr(module, "CHECKS", None)
    parts = getattr(module, "REFERENCE_PARTS", None)
    rules = getattr(module, "SHORTCUTS", {})
    name = f"{assignment}_checks"
    if not isinstance(by_test, dict) or not all(isinstance(k, str) and callable(v) for k, v in by_test.items()):
        raise GraderFault(f"{name}.CHECKS should be a dict of test cell grade ids to check functions")
    if parts is not None and not isinstance(parts, str):
        raise GraderFault(f"{name}.REFERENCE_PARTS should be the source of the correct parts (a str), or absent")
    if not isinstance(rules, dict) or not all(isinstance(v, shortcuts.Rules) for v in rules.values()):
        raise GraderFault(f"{name}.SHORTCUTS should be a dict of parts to shortcuts.Rules, or absent")
    return HiddenChecks(by_test, parts, rules)


def _imported_from(grading: Path) -> None:
    """Raise :class:`GraderFault` where a module named like a file of ``grading`` (``gradinglib``, ``contracts``,
    a checks module) was imported from somewhere else: an installed package of that name (PyContracts installs a
    ``contracts``) or a module imported before the folder came first on ``sys.path`` would grade with code that is
    not the course's, or fail inside some part's check."""
    folder = grading.resolve()
    for path in sorted(folder.glob("*.py")):
        module = sys.modules.get(path.stem)
        origin = getattr(module, "__file__", None)
        if module is not None and (origin is None or Path(origin).resolve() != path):
            raise GraderFault(
                f"the module {path.stem} was imported from {origin or 'no file'}, not from {path}: another module "
                "of that name (an installed package, or one imported earlier) stands in for the course's; "
                "uninstall or rename it"
            )


class Zygote:
    """The jailed zygote of this worker (:func:`course_grading.sandbox.student_server.zygote`): it imports
    torch once and forks a student process per submission, which connects to its socket in
    ``slot`` (emptied before each submission). Its environment is the policy's
    (:func:`course_grading.sandbox.policy.environment`), nothing else of the worker's. Started again if it dies."""

    STARTUP_S = 60.0

    def __init__(self, settings: JailSettings) -> None:
        if "slot" not in settings or "launch" not in settings:
            raise GraderFault("jail.json names no job slot or launcher: the batch did not set them")
        self.slot = Path(settings["slot"]).resolve()  # the jail shows it at this path
        self.slot.mkdir(parents=True, exist_ok=True)
        self.slot.chmod(0o755)  # the student process, not root, reaches its socket in it
        hide, keep = [Path(p) for p in settings["hide"]], [Path(p) for p in settings["keep"]]
        server = [sys.executable, "-m", "course_grading.sandbox.student_server"]
        if settings.get("jail", container.NAMESPACE) == container.CONTAINER:
            if "uid" not in settings:
                raise GraderFault("jail.json names no user for the container jail's slot: the batch did not set it")
            # what it may see was checked, as that user, before the batch began
            self.argv = settings["launch"] + [*server, container.CONTAINER, str(settings["uid"])]
        else:
            self.argv = settings["launch"] + jail_argv(hide, keep, [self.slot], server)
        self.process: subprocess.Popen[str] | None = None
        self.tasks = 0  # what the last acknowledgement counted

    def command(self, request: dict[str, Any]) -> None:
        """Send one request and wait for its acknowledgement (which says, in :attr:`tasks`, how many
        tasks the previous student process left when it was stopped: counted in the container jail).
        A zygote that fails is stopped and :class:`GraderFault` raised: no student process can be had,
        which is the grader's failure."""
        try:
            if self.process is None or self.process.poll() is not None:
                # stderr: the worker's log, where a jail that cannot start says why; the zygote sends its own to
                # /dev/null before it forks any student process
                self.process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=None,
                    text=True,
                    env=policy.environment(os.environ),
                    cwd=self.slot,
                )
            if "socket" in request:
                # the student process, not root, connects to it; no one else can reach the slot
                os.chmod(request["socket"], 0o666)
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = (
                self.process.stdout.readline()
                if select.select([self.process.stdout], [], [], self.STARTUP_S)[0]
                else ""
            )
            if answer:
                with contextlib.suppress(ValueError, TypeError):
                    self.tasks = int(json.loads(answer).get("tasks", 0))
                return
            why = self._silence()
        except BrokenPipeError:  # it died before it read the request: why is its exit status, not the pipe
            why = self._silence()
        except OSError as error:
            why = f"{type(error).__name__}: {error}"
        self.stop()
        raise GraderFault(f"the student process could not be started ({why})")

    def _silence(self) -> str:
        """Why the zygote gave no answer: it exited (with which status), or it hangs."""
        assert self.process is not None
        try:
            return f"its jail exited with status {self.process.wait(timeout=1)}"
        except subprocess.TimeoutExpired:
            return f"it did not answer within {self.STARTUP_S:g} s"

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class ZygoteChannel:
    """A fresh student process forked by a :class:`Zygote`, reached over a Unix socket in its home."""

    def __init__(self, zygote: Zygote) -> None:
        self.zygote = zygote
        self.connection: socket.socket | None = None

    def open(self) -> tuple[int, int]:
        for leftover in self.zygote.slot.iterdir():  # what the previous student process left in its home
            shutil.rmtree(leftover) if leftover.is_dir() and not leftover.is_symlink() else leftover.unlink()
        address = self.zygote.slot / "s"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(address))
            listener.listen(1)
            listener.settimeout(Zygote.STARTUP_S)
            self.zygote.command({"socket": str(address), "home": str(self.zygote.slot)})
            try:
                self.connection, _ = listener.accept()
            except OSError as error:  # the fresh child never reached its socket: it ran nothing of the student's yet
                raise GraderFault(f"the student process did not connect ({error or 'timed out'})") from None
        address.unlink()
        return self.connection.fileno(), self.connection.fileno()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        self.zygote.command({"reset": True})  # kills the student process and all it started


_ZYGOTE: Zygote | None = None  # this worker's, started with its first submission


def student_process(settings: JailSettings, nb: nbformat.NotebookNode) -> RemoteStudent:
    """The notebook's code (its code cells, test cells excluded) in a fresh jailed student process."""
    cells = [
        (nbgrader_meta(c)["grade_id"], c.source)
        for c in nb.cells
        if c.cell_type == "code" and nbgrader_meta(c).get("grade_id") and not is_test(c)
    ]
    return _jailed(settings, cells)


def _jailed(settings: JailSettings, cells: list[tuple[str, str]]) -> RemoteStudent:
    """``cells`` (``(cell id, source)``) in a fresh student process forked from this worker's jailed zygote."""
    global _ZYGOTE
    if _ZYGOTE is None:
        _ZYGOTE = Zygote(settings)
    return RemoteStudent(
        ZygoteChannel(_ZYGOTE), cells, timeout_s=settings["cell_s"], output_bytes=settings["output_bytes"]
    )


def key_process(settings: JailSettings, assignment: str) -> RemoteStudent:
    """The answer key's set-up and answer cells in a fresh student process, jailed and limited as a submission's
    (for :meth:`Control.in_jail`). Its code is sent through the channel; the process reads nothing of the
    grader's. Raises :class:`GraderFault` if the key's code cannot be read."""
    try:
        sources = json.loads((Path(settings["grading"]) / scratch_course.answer_key_file(assignment)).read_text())
    except (OSError, ValueError) as error:
        raise GraderFault(f"the answer key could not be read for a control ({type(error).__name__})") from None
    return _jailed(settings, [(f"answer-key-{i}", str(source)) for i, source in enumerate(sources)])


def answer_key_student(grading: Path, assignment: str) -> LocalStudent:
    """The answer key's functions in this trusted process (its code is the course's, never a student's), for
    the control runs of :func:`hidden_verdict`: the key's set-up and answer cells run in a fresh namespace,
    their output discarded, torch's default dtype and global generators as they were before.
    Raises :class:`GraderFault` if the key cannot be run."""
    path = grading / scratch_course.answer_key_file(assignment)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    dtype, torch_state, python_state = torch.get_default_dtype(), torch.get_rng_state(), random.getstate()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for i, source in enumerate(json.loads(path.read_text())):
                exec(compile(source, f"<answer key cell {i}>", "exec"), namespace)
    except Exception as error:  # noqa: BLE001 (the course's own code: its failure is the grader's)
        raise GraderFault(f"the answer key could not be run for a control ({type(error).__name__}: {error})") from None
    finally:
        torch.set_default_dtype(dtype)
        torch.set_rng_state(torch_state)
        random.setstate(python_state)
    return LocalStudent(namespace)


def _verdict(check: Check, student: Student) -> str | None:
    """The hidden check's failure message, or None; a check that cannot use a reply fails the part."""
    try:
        return check(student)
    except GraderFault:
        raise
    except Exception as error:  # noqa: BLE001 (a reply of the wrong kind: the student's doing)
        return f"the check could not use the reply ({type(error).__name__}; what the reply held is not shown)"


class Ledger:
    """The seconds a submission's run spent on the grader's own work (controls, the cells run again for a fresh
    process per part), written to ``path`` as they change: :meth:`Worker.run` adds them to the submission's time
    limit, so that they are never the student's."""

    def __init__(self, path: Path) -> None:
        self.path, self.seconds = path, 0.0

    def add(self, seconds: float) -> None:
        """Count ``seconds`` more (fewer where negative: a credit settled)."""
        self.seconds = max(0.0, self.seconds + seconds)
        self.path.write_text(f"{self.seconds:.3f}")


class Control:
    """The answer key as the control of failed hidden checks (:func:`hidden_verdict`): built on the first
    failure, from the code the scratch course keeps beside the checks, and run in this trusted process. The
    seconds it takes are the grader's, not the student's: they go to ``ledger`` (:attr:`seconds` counts them);
    the global random states a control's calls reseed (``Guarded`` seeds every call) are put back. What the key's
    run raises (a MemoryError of the grading machine, a bug of a driver) is named in the failure it returns, which
    :func:`hidden_verdict` shows. Where the student's failing call raised, :meth:`in_jail` runs the key once more in
    a student process of its own (``jailed_key`` starts one: :func:`key_process`)."""

    def __init__(
        self,
        grading: Path,
        assignment: str,
        ledger: Ledger,
        jailed_key: Callable[[], RemoteStudent] | None = None,
    ) -> None:
        self.grading, self.assignment, self.ledger, self.jailed_key = grading, assignment, ledger, jailed_key
        self.key: LocalStudent | None = None
        self.seconds = 0.0

    def __call__(self, check: Check) -> str | None:
        return self._timed(check, lambda: self.key or self._local_key())

    def _local_key(self) -> LocalStudent:
        self.key = answer_key_student(self.grading, self.assignment)
        return self.key

    def in_jail(self, check: Check, like: Student) -> str | None:
        """``check`` on the answer key in a fresh student process of its own, jailed and limited as the student's
        (``jailed_key`` starts it; the part's names as ``like``'s): whether the jail can serve what the check asks
        (its memory, its time, the system calls it allows). Its seconds are the grader's too. Where the student's
        call ran past its time, the key must answer each call within half the limit: a machine so loaded that the
        key nears it cannot tell a slow answer from its own load, and :class:`GraderFault` says so."""
        if self.jailed_key is None:
            return None
        key = self.jailed_key()
        key.part, key.under_test = getattr(like, "part", ""), getattr(like, "under_test", ())
        try:
            verdict = self._timed(check, lambda: key)
        finally:
            key.close()
        timed_out = getattr(like, "raised", None) == "TimeoutError"
        if verdict is None and timed_out and key.slowest_call_s > key.timeout_s / 2:
            raise GraderFault(
                f"the answer key's slowest call of this check took {key.slowest_call_s:.1f} s of the "
                f"{key.timeout_s:g} s limit in a jail of its own: too near the limit, on this machine now, to charge "
                "the submission's time-out to the student"
            )
        return verdict

    def _timed(self, check: Check, key: Callable[[], Student]) -> str | None:
        started = time.monotonic()
        torch_state, python_state = torch.get_rng_state(), random.getstate()
        try:
            return check(key())
        except GraderFault:
            raise
        except Exception as error:  # noqa: BLE001 (the key and the check are the instructor's: what failed is shown)
            return f"the answer key's run raised {type(error).__name__}: {error}"
        finally:
            torch.set_rng_state(torch_state)
            random.setstate(python_state)
            self.seconds += time.monotonic() - started
            self.ledger.add(time.monotonic() - started)


def hidden_verdict(
    check: Check,
    student: Student,
    control: Callable[[Check], str | None] | None = None,
    jailed: Callable[[Check, Student], str | None] | None = None,
) -> str | None:
    """The hidden check's failure message, or None. A failure is the student's only if ``control(check)``, the
    same check on the answer key with the same inputs (the check's draws rewound), passes the case the student
    failed and every case before it: where the key fails there too, the check itself is at fault (its driver,
    its oracle, its tolerance on these inputs), and :class:`GraderFault` says so, so that the submission is not
    graded rather than graded wrong. (A key failing only a later case, which the student never reached, leaves
    the student's failure standing; a check that does not count its cases is judged on all of them.)

    ``control`` runs the key in this trusted process, where nothing is limited. Where the student's failing call
    raised (out of memory, past its time, its process stopped, a system call refused: what a jail can cause),
    ``jailed(check, student)`` runs the key again in a student process of its own, jailed and limited alike: a
    request the jail cannot serve fails the key there too, and is the grader's fault, never the student's."""
    draws = importlib.import_module("gradinglib")
    before = draws.drawn()
    draws.cases_run()
    failure = _verdict(check, student)
    failed_at, raised = draws.cases_run(), getattr(student, "raised", None)
    if failure is None or control is None:
        return failure
    after = draws.drawn()
    runs = [control] + ([lambda c: jailed(c, student)] if jailed is not None and raised is not None else [])
    for where, run in zip(("", " in a student process jailed as the submission's"), runs):
        if isinstance(student, RemoteStudent) and where:
            student.close()  # the key's process never runs beside the student's
        draws.set_drawn(before)
        try:
            controlled = run(check)
            key_failed_at = draws.cases_run()
        finally:
            draws.set_drawn(after)
        if controlled is not None and (failed_at == 0 or key_failed_at <= failed_at):
            raise GraderFault(
                f"a hidden check failed the answer key too{where}, on the inputs it drew for this submission: the "
                f"grader is at fault (the check, its limits, or the machine it ran on), not the student "
                f"({shown(controlled[:300])})"
            )
    return failure


def run_submission(
    student: RemoteStudent,
    nb: nbformat.NotebookNode,
    release: nbformat.NotebookNode,
    checks: HiddenChecks,
    seed: int,
    control: Control | None = None,
    skipped: Collection[str] = (),
    running: Path | None = None,
) -> dict[str, Outputs]:
    """Every cell's outputs, by grade id: the notebook's cells as they ran, and each test cell's
    visible tests (with correct other parts) followed by its hidden check's verdict (drawn from
    ``seed``, which a failure's message names so that the case can be replayed; a failure stands where
    ``control``, the answer key, passes the same case: :func:`hidden_verdict`). A part's own
    functions, never replaced while it is graded, are those its stub in the student version
    (``release``) defines, and whatever else the student's answer cell defines. A part in ``skipped`` (its
    hidden tests ran past the submission's time in an earlier attempt) fails without running them; the part whose
    hidden tests are running is written to ``running``, where :func:`course_grading.grade.grade_one` reads it
    when the submission's time runs out."""
    outputs = dict(student.run_cells())
    # what each part must define, and what the student's cell defines
    stubs, written = part_names(release), part_names(nb)
    own = {test_id: sorted(set(names) | set(written.get(test_id, []))) for test_id, names in stubs.items()}
    tests = [(nbgrader_meta(cell)["grade_id"], cell.source) for cell in nb.cells if is_test(cell)]
    # Every visible test runs before the first hidden call: from then on the student's process holds
    # hidden inputs (and drivers' code), and nothing it prints reaches the feedback.
    for test_id, source in tests:
        student.under_test = own[test_id]
        outputs[test_id] = student.run(test_id, without_hidden_tests(source), checks.reference_parts, own[test_id])
    for test_id, _ in tests:
        if outputs[test_id]["error"] is None and test_id in checks.by_test:
            student.under_test, student.part = own[test_id], part_of(test_id)
            if student.part in skipped:
                outputs[test_id]["error"] = ["TimeoutError", SKIPPED_MESSAGE, []]
                continue
            if running is not None:
                running.write_text(student.part)
            # each part's hidden check in a fresh process that has run the notebook's cells and nothing else: what
            # another part's tests ran (a library patched, a kernel kept in a global, autograd left off) is gone
            student.fresh()
            failure = hidden_verdict(
                checks.by_test[test_id], student, control, control.in_jail if control is not None else None
            )
            if failure is not None:
                outputs[test_id]["error"] = ["AssertionError", f"{failure}\n{replay_hint(seed)}", []]
    if running is not None:
        running.unlink(missing_ok=True)
    return outputs


def notes_on(outputs: dict[str, Outputs], cell_s: int) -> list[str]:
    """What an instructor should know about a run: every limit it hit (time, memory, file size,
    output) and cells that died."""
    errors = {o["error"][0] for o in outputs.values() if o["error"] is not None}
    messages = {o["error"][1] for o in outputs.values() if o["error"] is not None}
    notes = []
    if any(CUT in o["stdout"] or CUT in o["stderr"] for o in outputs.values()):
        notes.append("the notebook printed more than its output limit: the rest was not kept")
    if any("File too large" in m for m in messages):
        notes.append("a cell wrote a file larger than the file-size limit")
    # the grader's and the student process's own words (a TimeoutError of the notebook's own is no time limit)
    timed_out = [
        o["error"][1]
        for o in outputs.values()
        if o["error"] is not None and o["error"][0] == "TimeoutError" and "time limit" in o["error"][1]
    ]
    if any(m != SKIPPED_MESSAGE for m in timed_out):  # a part skipped for the submission's limit has its own note
        notes.append(f"a cell or a part ran past its time limit ({cell_s} s)")
    if "MemoryError" in errors:
        notes.append("a cell ran out of memory")
    if "ProcessDied" in errors or any("stopped the notebook's process" in m for m in messages):
        notes.append("a cell stopped the notebook's process (the rest was run without it)")
    return notes


def replay_hint(seed: int) -> str:
    """How a hidden check's failure names its inputs: the seed, and the command that replays it."""
    return f"(hidden inputs from seed {seed}; an instructor replays them with `course check NOTEBOOK --seed {seed}`)"


def autograde(
    scratch: Path, assignment: str, student: str, seed: int | None = None, skipped: Collection[str] = ()
) -> None:
    """Grade the submission in one scratch course; write ``outcome.json`` (scores, maxima, notes,
    the seed of the hidden inputs). ``seed`` None: derived from the submission (:func:`submission_seed`).
    ``skipped``: parts that fail without their hidden tests running (see :func:`run_submission`)."""
    from nbgrader.api import Gradebook

    settings = read_message(scratch / "jail.json", JailSettings)
    nb = nbformat.read(scratch / "submitted" / student / assignment / f"{assignment}.ipynb", as_version=4)
    checks = load_checks(Path(settings["grading"]), assignment)
    seed = submission_seed(Path(settings["grading"]), assignment, nb) if seed is None else seed
    importlib.import_module("gradinglib").seed_checks(seed)  # the same notebook, the same hidden inputs, the same grade
    remote = student_process(settings, nb)
    try:
        remote.start()  # the jailed process imports torch and runs the notebook while nbgrader loads
    except OSError as error:  # it died before it was handed the notebook
        raise GraderFault(f"the student process died as it started ({type(error).__name__}: {error})") from None
    (scratch / STARTED).touch()  # from here on, the submission's time is the student's (see grade.grade_one)
    api = assignments.nbgrader_api(scratch)
    try:
        release = nbformat.read(scratch / "release" / assignment / f"{assignment}.ipynb", as_version=4)
        ledger = Ledger(scratch / GRADER_SECONDS)
        # each part's re-run credited up to the first run's seconds: within the parts' count times the limit
        remote.grader_time = ledger.add
        remote.rerun_budget_s = sum(is_test(cell) for cell in nb.cells) * (
            settings.get("total_s", 0) + RemoteStudent.RERUN_SLACK_S
        )
        control = Control(Path(settings["grading"]), assignment, ledger, lambda: key_process(settings, assignment))
        outputs = run_submission(remote, nb, release, checks, seed, control, skipped, scratch / RUNNING)
    except StudentRaised as error:  # its process failed after its cells, before its tests: the student's doing
        check_setup(nb, remote.outputs)  # a fault of the grader's, unless the student's code had run
        note = f"the notebook's process failed before its tests ran ({error.message}): every part scores 0"
        write_message(scratch / "outcome.json", Outcome(scores={}, max_scores={}, notes=[note], seed=seed))
        return
    except OSError as error:
        # the container jail: the student's files share the grader's disk (nothing bounds them but per file), and
        # stopping its process sweeps them away; if the grader can write then, the notebook had filled it
        if error.errno not in (errno.ENOSPC, errno.EDQUOT) or settings.get("jail") != container.CONTAINER:
            raise
        remote.close()
        note = "the notebook's files filled the disk, and grading could not go on: every part scores 0"
        write_message(scratch / "outcome.json", Outcome(scores={}, max_scores={}, notes=[note], seed=seed))
        return
    finally:
        remote.close()
    limit = settings.get("processes", 0)
    if (
        settings.get("jail") == container.CONTAINER
        and _ZYGOTE is not None
        and limit
        and _ZYGOTE.tasks >= limit * 9 // 10
    ):
        # no control group counts refusals here: a notebook that left this many tasks was refused more (what ran
        # after depended on timing)
        note = f"the notebook hit the limit of {limit} processes and threads: every part scores 0"
        write_message(scratch / "outcome.json", Outcome(scores={}, max_scores={}, notes=[note], seed=seed))
        return
    setup_note = check_setup(nb, outputs)
    # may take a forbidden route (by its source, or by what ran during its hidden calls): 0 until a person looks
    rules = checks.shortcuts
    parts = [part_of(nbgrader_meta(c)["grade_id"]) for c in nb.cells if is_test(c)]
    cells = {
        nbgrader_meta(c)["grade_id"]: (None if is_own(c) else part_of(nbgrader_meta(c)["grade_id"]))
        for c in nb.cells
        if is_answer(c) or is_own(c)
    }
    conduct = shortcuts.conducted(rules, remote.events, cells, parts)
    if remote.events_tampered:  # the process sent events that were not well-formed: every part with rules
        for part in (p for p in parts if p in rules and rules[p].forbid):
            conduct.setdefault(part, []).append(
                shortcuts.Evidence("(while running)", 0, "tampered", "events", "malformed events")
            )
    for part in parts if remote.changed else ():  # what every part's facts and drivers relied on: every part
        conduct.setdefault(part, []).append(
            shortcuts.Evidence("(while running)", 0, "changed", ", ".join(sorted(remote.changed)), "")
        )
    held = shortcuts.withhold(nb, rules, outputs, remote.operators, remote.tampered, conduct)
    replay.OUTPUTS.clear()
    replay.OUTPUTS.update({cell: printable(run) for cell, run in outputs.items()})
    graded = api.autograde(assignment, student, force=True, create=True)
    (scratch / "nbgrader.log").write_text(graded["log"], errors="backslashreplace")
    # the notebook is the grader's canonical copy, its outputs printable: the failure is nbgrader's
    if not graded["success"]:
        raise GraderFault(
            "nbgrader could not autograde the notebook "
            f"({(graded['log'].strip().splitlines() or ['no log'])[-1][:300]})"
        )
    notes = notes_on(outputs, settings["cell_s"]) + ([setup_note] if setup_note else []) + list(held.values())
    scores: dict[str, float] = {}
    max_scores: dict[str, float] = {}
    feedback = api.generate_feedback(assignment, student, force=True)
    if not feedback["success"]:  # the grades stand (nbgrader scored them); the student has no page to read
        notes.append(
            f"no feedback page could be made: {(feedback['log'].strip().splitlines() or ['no log'])[-1][:300]}"
        )
    with Gradebook(api.coursedir.db_url) as gradebook:
        for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades:
            part = grade.name.removeprefix("test_")
            scores[part], max_scores[part] = float(grade.score), float(grade.max_score)
    write_message(
        scratch / "outcome.json",
        Outcome(scores=scores, max_scores=max_scores, notes=notes, review=sorted(held), seed=seed),
    )


def submission_seed(grading: Path, assignment: str, nb: nbformat.NotebookNode) -> int:
    """The seed of a submission's hidden inputs (:func:`course_grading.sandbox.seeds.checks_seed`): every
    code cell of the canonical notebook under the course secret kept in ``grading``."""
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    return seeds.checks_seed(seeds.read_secret(grading), assignment, code)


def check_setup(nb: nbformat.NotebookNode, outputs: dict[str, Outputs]) -> str | None:
    """Raise :class:`GraderFault` if a cell of the assignment's read-only set-up failed in the student
    process before any of the student's code ran: a jail that cannot run the course's own code is
    the grader's failure, not a reason for zeros. Once a cell of the student's has run (an answer
    cell, or a cell the student added above the set-up, whether it failed or not: it may have broken
    torch or the set-up's names), a failing set-up is the student's doing: the note that says so,
    naming the student's cell, or None if the set-up ran."""
    student_cell = None
    for cell in nb.cells:
        grade_id = nbgrader_meta(cell).get("grade_id", "")
        run = outputs.get(grade_id)
        if is_answer(cell):
            return None  # the set-up is above the first answer cell: it ran
        if is_own(cell):
            student_cell = student_cell or grade_id
            continue
        if run is not None and run["error"] is not None:
            if student_cell is None:
                raise GraderFault(
                    "the assignment's setup cell failed in the student process, before any of the student's "
                    f"code ran ({run['error'][0]}: {run['error'][1][:300]})"
                )
            return (
                f"the assignment's set-up cell {grade_id} failed after the cell {student_cell}, which the "
                "notebook added above it, had run: the parts that need the set-up score 0"
            )
    return None


STARTED = "student-process-started"  # written in the scratch course once the student's process runs
RUNNING = "hidden-tests-running"  # the part whose hidden tests run now (the worker's file: no student reaches it)
SKIPPED_MESSAGE = (
    "its hidden tests ran past the submission's time limit: this part scores 0, and the other parts were graded "
    "again without running them"
)
GRADER_SECONDS = "grader-seconds"  # the seconds the worker spent on controls, which the submission's limit adds


ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")  # a terminal's control sequence (colour, cursor)


def printable(run: Outputs) -> Outputs:
    """A cell's outputs fit for the notebook nbgrader saves and the feedback page: terminal escape
    sequences (colours) removed, carriage returns as line ends (a progress bar's redraws), and every
    other control, bidi or zero-width character and lone surrogate as a visible escape
    (:func:`course_grading.text.shown`)."""

    def text(value: str) -> str:
        value = ANSI.sub("", value).replace("\r\n", "\n").replace("\r", "\n")
        return shown(value, lines=True)

    error = run["error"]
    return {
        "stdout": text(run["stdout"]),
        "stderr": text(run["stderr"]),
        "error": None if error is None else [text(error[0]), text(error[1]), [text(line) for line in error[2]]],
    }


@dataclass(frozen=True)
class GraderError:
    """Why the grader, not the student, failed on a submission, and what its worker wrote to
    stderr meanwhile (a traceback, nbgrader's complaints)."""

    cause: str
    stderr: str


class Worker:
    """A trusted grading process (``python -m course_grading.sandbox.worker``) serving :func:`autograde`
    requests one after another, so that nbgrader and torch are imported once per job slot, not
    once per submission."""

    STDERR_TAIL = 20_000  # bytes of the worker's stderr kept with a submission it failed on
    # the worker (nbgrader, torch) and its jail's zygote started, on a busy machine: the grader's time, before the
    # student's process starts and the submission's own limit begins
    STARTUP_S = 180.0

    def __init__(
        self,
        log: Path,
        threads: int,
        slot: Path,
        group: SlotGroup,
        memory_bytes: int = Limits.worker_memory_bytes,
        uid: int = container.student_id(0),
    ) -> None:
        # slot: its student processes' home; group: their control groups; uid: their user in the container jail
        self.log, self.slot, self.group, self.uid = log, slot, group, uid
        # this worker's own address space (it runs no student code, but the correct parts on the student's arguments)
        self.memory_bytes = memory_bytes
        # for it and its children: jobs share the cores
        self.threads = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
        self.process: subprocess.Popen[str] | None = None
        self.since = 0  # where the worker's log stood when the last request was sent

    def run(self, request: GradeRequest, timeout_s: float) -> GraderError | None:
        """Grade one scratch course: None when it was graded, else the grader's own failure (the
        worker could not be started, died, or failed on it). Raises TimeoutError after ``timeout_s`` counted from the
        start of the student's process (what the worker and its jail take to start before it, after a neighbour's
        timeout too, is the grader's: :data:`STARTUP_S` at most), or if that process has not started by then."""
        self.since = self.log.stat().st_size if self.log.exists() else 0
        try:
            if self.process is None or self.process.poll() is not None:
                with self.log.open("a") as log:
                    command = [sys.executable, "-m", "course_grading.sandbox.worker", str(self.memory_bytes)]
                    self.process = subprocess.Popen(
                        command,
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=log,
                        text=True,
                        start_new_session=True,
                        env=os.environ | self.threads,
                    )
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except OSError as error:
            self.stop()
            return self.failure(f"the grading worker could not be started or reached ({type(error).__name__}: {error})")
        if not self._wait(Path(request["scratch"]), timeout_s):
            self.stop()
            raise TimeoutError
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self.process = None
            return self.failure(f"the grading worker died ({_exit_text(code)})")
        try:
            reported = json.loads(line)["error"]
        except (ValueError, TypeError, KeyError):
            self.stop()
            return self.failure(f"the grading worker answered {line[:100]!r}")
        return None if reported is None else self.failure(str(reported))

    def _wait(self, scratch: Path, timeout_s: float) -> bool:
        """Whether the worker answered within ``timeout_s`` of the student's process starting (``STARTED`` in
        ``scratch``; before it, :data:`STARTUP_S`), plus the seconds it reports in its ledger (``GRADER_SECONDS``)
        having spent on its own work (controls, the cells run again: that time is not the student's)."""
        assert self.process is not None and self.process.stdout is not None
        asked, started = time.monotonic(), None
        while True:
            if started is None and (scratch / STARTED).exists():
                started = time.monotonic()
            try:
                spent = float((scratch / GRADER_SECONDS).read_text())
            except (OSError, ValueError):
                spent = 0.0
            now = time.monotonic()
            left = asked + self.STARTUP_S - now if started is None else started + timeout_s + spent - now
            if left <= 0:
                return False
            ready, _, _ = select.select([self.process.stdout], [], [], min(left, 0.1) if started is None else left)
            if ready:
                return True

    def failure(self, cause: str) -> GraderError:
        """``cause``, with the last :data:`STDERR_TAIL` bytes the worker wrote to its log during the last request."""
        try:
            with self.log.open("rb") as log:
                log.seek(max(self.since, log.seek(0, os.SEEK_END) - self.STDERR_TAIL))
                stderr = log.read().decode(errors="replace")
        except OSError:
            stderr = ""
        return GraderError(cause, stderr)

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def _exit_text(code: int) -> str:
    """How a process ended, from its return code."""
    if code >= 0:
        return f"exit status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}" + (": out of memory, or stopped from outside" if -code == signal.SIGKILL else "")


def serve() -> None:
    """The loop of a :class:`Worker`: one JSON request per line on stdin, one reply per line."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever nbgrader prints goes to the log, not into the replies
    for line in sys.stdin:
        request: GradeRequest = json.loads(line)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        tempfile.tempdir = None  # chosen afresh from this submission's TMPDIR
        try:
            autograde(
                Path(request["scratch"]),
                request["assignment"],
                request["student"],
                request.get("seed"),
                request.get("skipped", []),
            )
            reply = WorkerReply(error=None)
        except Exception as error:  # noqa: BLE001
            # the grader's failure, reported for this submission; the worker goes on
            traceback.print_exc()  # into the log, which the submission's own log keeps the tail of
            reply = WorkerReply(
                error=str(error) if isinstance(error, GraderFault) else f"{type(error).__name__}: {error}"
            )
        replies.write(json.dumps(reply) + "\n")


if __name__ == "__main__":
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    memory = int(sys.argv[1]) if len(sys.argv) > 1 else hard
    # soft only: the student's launcher sets its own
    resource.setrlimit(resource.RLIMIT_AS, (memory if hard == resource.RLIM_INFINITY else min(memory, hard), hard))
    serve()
