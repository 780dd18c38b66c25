"""The trusted grading worker: one process per job that grades one scratch course after another.

For each submission (:func:`autograde`):

1. the student's process starts in its jail (:mod:`course_grading.student_server`) and runs the
   notebook's cells, reporting each cell's outputs;
2. for each test cell, in order: its visible tests run in the student's process with correct
   versions of the other parts swapped in (the assignment's ``REFERENCE_PARTS``, minus what the
   part under test defines), then, if they pass, its hidden check runs here, against the
   student's functions in that process, which returns only values. A part's outcome therefore
   depends on that part alone: unfinished, wrong or hanging, it costs its own points;
3. nbgrader autogrades the scratch course with that run replayed as the notebook's outputs
   (:mod:`course_grading.replay`) and writes the feedback; the scores and notes go to
   ``outcome.json``, which the student's process cannot write.

The worker runs no student code itself. It imports nbgrader and torch once, and its jailed zygote
imports torch once and forks a student process per submission in milliseconds, so a submission
costs the run of its notebook, its checks and nbgrader's bookkeeping, not an ``import torch``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

from . import assignments, replay
from .calls import Outputs, RemoteStudent
from .notebooks import is_test, nbgrader_meta, part_names, without_hidden_tests
from .sandbox import jail_argv


def load_checks(grading: Path, assignment: str) -> ModuleType:
    """The assignment's hidden checks module (``CHECKS`` by test cell, ``REFERENCE_PARTS``)."""
    if str(grading) not in sys.path:
        sys.path.insert(0, str(grading))
    return importlib.import_module(f"{assignment}_checks")


class Zygote:
    """The jailed zygote of this worker (:func:`course_grading.student_server.zygote`): it imports
    torch once and forks a student process per submission, whose home is ``slot`` (emptied before
    each submission). Started again if it dies."""

    STARTUP_S = 60.0

    def __init__(self, settings: dict[str, Any]) -> None:
        self.slot = Path(settings["slot"])
        self.slot.mkdir(parents=True, exist_ok=True)
        hide, keep = [Path(p) for p in settings["hide"]], [Path(p) for p in settings["keep"]]
        self.argv = settings["launch"] + jail_argv(hide, keep, [self.slot], [sys.executable, "-m", "course_grading.student_server"])
        self.process: subprocess.Popen[str] | None = None

    def command(self, request: dict[str, Any]) -> None:
        """Send one request and wait for its acknowledgement; a zygote that fails is stopped."""
        if self.process is None or self.process.poll() is not None:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"HOME": str(self.slot), "MPLBACKEND": "Agg"}
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=self.slot)
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            if not select.select([self.process.stdout], [], [], self.STARTUP_S)[0] or not self.process.stdout.readline():
                raise TimeoutError("the student process could not be started")
        except (OSError, TimeoutError):
            self.stop()
            raise

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
            self.connection, _ = listener.accept()
        address.unlink()
        return self.connection.fileno(), self.connection.fileno()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        self.zygote.command({"reset": True})  # kills the student process and all it started


_ZYGOTE: Zygote | None = None  # this worker's, started with its first submission


def student_process(settings: dict[str, Any], nb: nbformat.NotebookNode) -> RemoteStudent:
    """The notebook's code (its code cells, test cells excluded) in a fresh jailed student process."""
    global _ZYGOTE
    if _ZYGOTE is None:
        _ZYGOTE = Zygote(settings)
    cells = [(nbgrader_meta(c)["grade_id"], c.source) for c in nb.cells if c.cell_type == "code" and nbgrader_meta(c).get("grade_id") and not is_test(c)]
    return RemoteStudent(ZygoteChannel(_ZYGOTE), cells, timeout_s=settings["cell_s"], output_bytes=settings["output_bytes"])


def hidden_verdict(check: Callable[[RemoteStudent], str | None], student: RemoteStudent) -> str | None:
    """The hidden check's failure message, or None; a check that cannot use a reply fails the part."""
    try:
        return check(student)
    except Exception as error:  # noqa: BLE001 (a reply of the wrong kind: the student's doing)
        return f"the check could not use the reply ({type(error).__name__}: {error})"


def run_submission(student: RemoteStudent, nb: nbformat.NotebookNode, release: nbformat.NotebookNode, checks: ModuleType) -> dict[str, Outputs]:
    """Every cell's outputs, by grade id: the notebook's cells as they ran, and each test cell's
    visible tests (with correct other parts) followed by its hidden check's verdict. A part's own
    functions, never replaced while it is graded, are those its stub in the student version
    (``release``) defines, and whatever else the student's answer cell defines."""
    outputs = dict(student.run_cells())
    stubs, written = part_names(release), part_names(nb)  # what each part must define, and what the student's cell defines
    own = {test_id: sorted(set(names) | set(written.get(test_id, []))) for test_id, names in stubs.items()}
    for cell in nb.cells:
        if not is_test(cell):
            continue
        test_id = nbgrader_meta(cell)["grade_id"]
        student.under_test = own[test_id]
        result = student.run(test_id, without_hidden_tests(cell.source), getattr(checks, "REFERENCE_PARTS", None), own[test_id])
        if result["error"] is None and test_id in checks.CHECKS:
            failure = hidden_verdict(checks.CHECKS[test_id], student)
            if failure is not None:
                result["error"] = ["AssertionError", failure, []]
        outputs[test_id] = result
    return outputs


def notes_on(outputs: dict[str, Outputs], cell_s: int) -> list[str]:
    """What an instructor should know about a run: cells that hung, ran out of memory, or died."""
    errors = {o["error"][0] for o in outputs.values() if o["error"] is not None}
    messages = {o["error"][1] for o in outputs.values() if o["error"] is not None}
    notes = []
    if "TimeoutError" in errors:
        notes.append(f"a cell or a part ran past its time limit ({cell_s} s)")
    if "MemoryError" in errors:
        notes.append("a cell ran out of memory")
    if "ProcessDied" in errors or any("stopped the notebook's process" in m for m in messages):
        notes.append("a cell stopped the notebook's process (the rest was run without it)")
    return notes


def autograde(scratch: Path, assignment: str, student: str) -> None:
    """Grade the submission in one scratch course; write ``outcome.json`` (scores, maxima, notes)."""
    from nbgrader.api import Gradebook

    settings = json.loads((scratch / "jail.json").read_text())
    nb = nbformat.read(scratch / "submitted" / student / assignment / f"{assignment}.ipynb", as_version=4)
    checks = load_checks(Path(settings["grading"]), assignment)
    remote = student_process(settings, nb)
    remote.start()  # the jailed process imports torch and runs the notebook while nbgrader loads
    api = assignments.nbgrader_api(scratch)
    try:
        release = nbformat.read(scratch / "release" / assignment / f"{assignment}.ipynb", as_version=4)
        outputs = run_submission(remote, nb, release, checks)
    finally:
        remote.close()
    replay.OUTPUTS.clear()
    replay.OUTPUTS.update(outputs)
    graded = api.autograde(assignment, student, force=True, create=True)
    (scratch / "nbgrader.log").write_text(graded["log"])
    notes = notes_on(outputs, settings["cell_s"])
    scores: dict[str, float] = {}
    max_scores: dict[str, float] = {}
    if graded["success"]:
        api.generate_feedback(assignment, student, force=True)
        with Gradebook(api.coursedir.db_url) as gradebook:
            for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades:
                part = grade.name.removeprefix("test_")
                scores[part], max_scores[part] = float(grade.score), float(grade.max_score)
    else:
        notes.append("nbgrader could not autograde the notebook: every part scores 0")
    (scratch / "outcome.json").write_text(json.dumps({"scores": scores, "max_scores": max_scores, "notes": notes}))


class Worker:
    """A trusted grading process (``python -m course_grading.worker``) serving :func:`autograde`
    requests one after another, so that nbgrader and torch are imported once per job slot, not
    once per submission."""

    def __init__(self, log: Path, threads: int, slot: Path, group: Path | None) -> None:
        self.log, self.slot, self.group = log, slot, group  # slot: its student processes' home; group: their pids cgroup
        self.threads = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}  # for it and its children: jobs share the cores
        self.process: subprocess.Popen[str] | None = None

    def run(self, request: dict[str, Any], timeout_s: float) -> str | None:
        """Grade one scratch course; None when done, else what went wrong. Raises TimeoutError."""
        if self.process is None or self.process.poll() is not None:
            with self.log.open("a") as log:
                command = [sys.executable, "-m", "course_grading.worker"]
                self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True, env=os.environ | self.threads)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout_s)
        if not ready:
            self.stop()
            raise TimeoutError
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self.process = None
            tail = self.log.read_text(errors="replace").strip().splitlines()[-1:] or ["no message"]
            return f"exit {code}: {tail[0][:300]}"
        return json.loads(line).get("error")

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def serve() -> None:
    """The loop of a :class:`Worker`: one JSON request per line on stdin, one reply per line."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever nbgrader prints goes to the log, not into the replies
    for line in sys.stdin:
        request = json.loads(line)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        tempfile.tempdir = None  # chosen afresh from this submission's TMPDIR
        try:
            autograde(Path(request["scratch"]), request["assignment"], request["student"])
            replies.write(json.dumps({"error": None}) + "\n")
        except Exception as error:  # noqa: BLE001 (reported for this submission; the worker goes on)
            replies.write(json.dumps({"error": f"{type(error).__name__}: {error}"}) + "\n")


if __name__ == "__main__":
    serve()
