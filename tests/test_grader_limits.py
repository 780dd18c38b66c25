"""The grader's limits and its one trust boundary (issue 26, items 2, 4 and 6), tested piece by piece.

* Replies from a student's process: a frame is decoded only if it is a zip of stored entries
  within the size cap (a deflated entry would inflate in the grader's memory), decodes to a bounded
  number of values, and only with a torch whose ``weights_only`` loading is safe.
* What the notebook prints is capped in the grader, whatever the student's process counts.
* Hidden calls: every visible test runs before the first hidden call, and what a student's
  function raises on a hidden case reaches the feedback without its message.
* Limits from outside: the slot's control groups bind memory, processes and CPU of everything a
  submission starts together; the trusted worker has its own memory limit.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import resource
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import nbformat
import pytest
import torch

from course_grading import markers
from course_grading.sandbox import calls, worker
from course_grading.sandbox import limits as sandbox
from course_grading.sandbox.calls import RemoteStudent, StudentRaised, receive_frame

from assignment_support import ASSIGNMENTS, GRADING


def frame_bytes(message: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(message, buffer)
    return buffer.getvalue()


def send(fd: int, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError):  # a refused frame is not read to its end
        os.write(fd, data)


def receive(data: bytes) -> Any:
    """``receive_frame`` on ``data`` sent as one frame through a pipe."""
    read, write = os.pipe()
    sender = threading.Thread(target=send, args=(write, len(data).to_bytes(8, "little") + data))
    sender.start()
    try:
        return receive_frame(read, 5)
    finally:
        os.close(read)
        sender.join()
        os.close(write)


def deflated(data: bytes) -> bytes:
    """The same archive with every entry compressed: what torch.load would read, and inflate."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            target.writestr(entry.filename, source.read(entry))
    return out.getvalue()


def test_a_plain_frame_crosses() -> None:
    message = {"value": [torch.arange(6).view(2, 3), 1.5, "text", None]}
    received = receive(frame_bytes(message))
    assert torch.equal(received["value"][0], message["value"][0]) and received["value"][1:] == [1.5, "text", None]


def test_a_compressed_frame_is_refused_before_it_is_inflated() -> None:
    bomb = deflated(frame_bytes({"value": torch.zeros(10_000)}))  # 40 kB of zeros deflate to almost nothing
    assert torch.load(io.BytesIO(bomb), weights_only=True)["value"].numel() == 10_000  # torch itself would inflate it
    with pytest.raises(ValueError, match="compressed entries"):
        receive(bomb)


def test_a_frame_over_the_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calls, "MAX_FRAME", 4_000)
    data = frame_bytes({"value": torch.zeros(2_000)})  # 8 kB of entries
    with pytest.raises(ValueError, match="larger than"):
        receive(data)


def test_a_frame_that_is_not_an_archive_is_refused() -> None:
    legacy = io.BytesIO()
    torch.save({"value": 1}, legacy, _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="not a torch.save archive"):
        receive(legacy.getvalue())


def test_a_message_that_shares_itself_into_millions_of_values_is_refused() -> None:
    nested: list[Any] = [0]
    # 24 levels of a list holding the one below twice: 2**24 leaves, a few hundred bytes on the wire
    for _ in range(24):
        nested = [nested, nested]
    data = frame_bytes({"value": nested})
    assert len(data) < 10_000
    with pytest.raises(ValueError, match="more than"):
        receive(data)


def test_an_unsafe_torch_refuses_to_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch, "__version__", "2.5.1+cpu")
    with pytest.raises(RuntimeError, match="CVE-2025-32434"):
        receive(frame_bytes({"value": 1}))
    monkeypatch.setattr(torch, "__version__", "2.6.0")
    assert receive(frame_bytes({"value": 1})) == {"value": 1}


def test_the_project_requires_a_safe_torch() -> None:
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert '"torch>=2.6"' in pyproject


class NoChannel:
    def open(self) -> tuple[int, int]:
        raise AssertionError("not started in this test")

    def close(self) -> None:
        pass


def test_the_cells_run_again_for_a_fresh_process_are_the_graders_time_up_to_the_first_runs() -> None:
    """Each part's hidden check starts a fresh process that runs the cells again: that run is credited to the
    grader before it starts (the first run's seconds and a slack), then settled to what it took; beyond the credit
    the time is the student's; a run that is not a fresh one (the first, a restart after a hang) is the student's;
    and all the credits together stay within the submission's own limit (attacks_q: cells of nearly the limit, run
    again for every part, multiplied its wall time)."""
    student = RemoteStudent(NoChannel(), [], timeout_s=5, output_bytes=1_000)
    credits: list[float] = []
    student.grader_time, student.rerun_budget_s = credits.append, 10.0

    def cells_taking(seconds: float) -> Any:
        def run() -> dict[str, Any]:
            student.started_at = time.monotonic()
            time.sleep(seconds)
            student.ready = True
            return {}

        return run

    student._run_cells = cells_taking(0.05)  # type: ignore[method-assign]
    student.run_cells()
    assert credits == []  # the first run (first_run_s is set by the real run)
    student.first_run_s, student.RERUN_SLACK_S = 1.0, 0.5
    student.fresh()
    student.run_cells()
    assert credits[0] == 1.5 and -1.5 < credits[1] < -1.0 and 0.05 < sum(credits) < 0.5, credits
    student.run_cells()  # ready: no run, no credit
    assert len(credits) == 2
    student.fresh()
    student._run_cells = cells_taking(0.3)  # type: ignore[method-assign]
    student.first_run_s, student.RERUN_SLACK_S = 0.05, 0.0
    student.run_cells()  # slower than its credit: the rest is the student's
    assert credits[2:] == [0.05, 0.0], credits
    student.close()  # a restart that is not a fresh one (after a hang): no credit
    student.run_cells()
    assert len(credits) == 4
    student.first_run_s, student.rerun_budget_s = 1.0, 0.2  # what is left of the submission's seconds
    student._run_cells = cells_taking(0.3)  # type: ignore[method-assign]
    for _ in range(2):  # the first run gets what is left, used up; the second nothing
        student.fresh()
        student.run_cells()
    assert credits[4:] == [0.2, 0.0] and student.rerun_budget_s == 0.0, credits  # 0.0: settled, all of it used


def test_what_the_notebook_prints_is_capped_by_the_grader_whatever_its_process_counts() -> None:
    student = RemoteStudent(NoChannel(), [], timeout_s=5, output_bytes=1_000)
    first = student._capped({"stdout": "a" * 600, "stderr": "", "error": None})
    # a process that reset its own count
    second = student._capped({"stdout": "b" * 600, "stderr": "c" * 600, "error": None})
    assert first["stdout"] == "a" * 600
    assert (
        second["stdout"].startswith("b" * 400)
        and "b" * 401 not in second["stdout"]
        and "output cut" in second["stdout"]
    )
    assert second["stderr"] == ""  # over the allowance: dropped (the cut is marked once)
    student = RemoteStudent(NoChannel(), [], timeout_s=5, output_bytes=1_000)
    # a traceback forged in the process
    fat = student._capped({"stdout": "", "stderr": "", "error": ["ValueError", "m" * 300, ["t" * 500] * 200]})
    assert sum(len(line) for line in fat["error"][2]) + len(fat["error"][1]) < 1_100 and "output cut" in "".join(
        fat["error"][2]
    )


def test_a_hidden_cases_error_message_never_reaches_the_feedback() -> None:
    leaked = calls.hidden_error(["ValueError", "SECRET tensor([0.1234, 0.5678])", []], [])
    assert leaked.type_name == "ValueError" and "SECRET" not in leaked.message and "0.1234" not in leaked.message
    own_class = calls.hidden_error(["Leak_0_1234_0_5678", "anything", []], [])  # a class named after the inputs
    assert own_class.type_name == "Exception" and "1234" not in str(own_class)
    assert calls.hidden_error(["NotImplementedError", "x", []], []).type_name == "NotImplementedError"
    refused = calls.hidden_error(["Refused", "SECRET", []], [("torch.nn.functional", "softmax")])
    assert (
        refused.type_name == "Refused"
        and "torch.nn.functional.softmax" in refused.message
        and "SECRET" not in refused.message
    )


class Recorder:
    """A stand-in student process that logs what the grader asks of it, in order."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.under_test: list[str] = []

    def run_cells(self) -> dict[str, Any]:
        return {}

    def run(self, cell_id: str, source: str, references: str | None, exclude: list[str]) -> dict[str, Any]:
        self.log.append(f"visible {cell_id}")
        return {
            "stdout": "",
            "stderr": "",
            "error": None if cell_id != "test_b" else ["AssertionError", "visible failed", []],
        }

    def call(self, name: str, args: Any, **options: Any) -> Any:
        self.log.append(f"hidden {name}")
        raise StudentRaised("ValueError", "x")

    def fresh(self) -> None:
        self.log.append("fresh process")


def graded_cell(grade_id: str, source: str, test: bool) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {
        "grade_id": grade_id,
        "grade": test,
        "solution": not test,
        "locked": test,
        "points": 1 if test else 0,
        "schema_version": 3,
    }
    return cell


def test_every_visible_test_runs_before_the_first_hidden_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(GRADING))  # the hidden verdicts draw through gradinglib, as load_checks sets up
    nb = nbformat.v4.new_notebook()
    for part in "abc":
        nb.cells += [
            graded_cell(part, f"def {part}(): pass", False),
            graded_cell(f"test_{part}", f"assert {part}", True),
        ]
    checks = worker.HiddenChecks({f"test_{p}": (lambda s, p=p: s.call(p, ()) and None) for p in "abc"})
    student = Recorder()
    outputs = worker.run_submission(student, nb, nb, checks, 7)  # type: ignore[arg-type]
    # and each part's hidden check in a fresh process (attacks_p: another part's tests had patched the process)
    assert student.log == [
        "visible test_a",
        "visible test_b",
        "visible test_c",
        "fresh process",
        "hidden a",
        "fresh process",
        "hidden c",
    ]
    assert outputs["test_b"]["error"][1] == "visible failed"  # a failing visible test: its hidden check is not run
    # a failure names its inputs
    assert "could not use the reply" in outputs["test_a"]["error"][1] and "seed 7;" in outputs["test_a"]["error"][1]


def test_the_trusted_worker_runs_under_its_own_memory_limit() -> None:
    limit = 3 * 2**30
    process = subprocess.Popen(
        [sys.executable, "-m", "course_grading.sandbox.worker", str(limit)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            limits = Path(f"/proc/{process.pid}/limits").read_text()
            line = next(line for line in limits.splitlines() if line.startswith("Max address space"))
            if line.split()[3] == str(limit):
                break
            subprocess.run(["sleep", "0.1"])
        assert line.split()[3] == str(limit), line
    finally:
        process.kill()
        process.wait()
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != limit  # this process is not limited by it


SLOTS = itertools.count()


@pytest.fixture
def slot() -> Any:
    limits = sandbox.Limits(processes=64, group_memory_bytes=300 * 2**20)
    group = sandbox.slot_group(f"test{next(SLOTS)}", limits, cpus=1)
    if group.memory is None or group.pids is None:
        sandbox.release_slot(group)
        pytest.skip(
            "this machine lets no process make memory and pids control groups (not root, no delegated cgroup v2)"
        )
    yield limits, group
    sandbox.release_slot(group)


HOG = """
import subprocess, sys, time
children = [subprocess.Popen([sys.executable, "-c", "import time; x = bytearray(120 * 2**20); x[::4096] = b'x' * len(x[::4096]); time.sleep(30)"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(4)]
time.sleep(3)
print(sum(child.poll() is None for child in children))
for child in children:
    child.kill()
"""  # noqa: E501 (code run as written)


def test_the_slots_memory_limit_binds_everything_a_submission_starts_together(slot: Any) -> None:
    limits, group = slot
    assert (
        int(
            (
                group.memory / ("memory.max" if (group.memory / "memory.max").exists() else "memory.limit_in_bytes")
            ).read_text()
        )
        == limits.group_memory_bytes
    )
    before = sandbox.memory_limit_hits(group)
    # four processes of 120 MB each, every one under its own address-space limit, 480 MB together: over the 300 MB
    done = subprocess.run(
        sandbox.limited(limits, group, [sys.executable, "-c", HOG]), capture_output=True, text=True, timeout=60
    )
    alive = int(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else 0
    assert alive < 4 and sandbox.memory_limit_hits(group) > before, (done.stdout, done.stderr)


def test_the_slot_has_a_cpu_quota_and_a_process_limit(slot: Any) -> None:
    limits, group = slot
    if group.cpu is None:
        pytest.skip("no cpu controller here")
    quota = (
        (group.cpu / "cpu.max").read_text().split()[0]
        if (group.cpu / "cpu.max").exists()
        else (group.cpu / "cpu.cfs_quota_us").read_text().strip()
    )
    assert int(quota) == sandbox.CPU_PERIOD_US  # one core's worth
    forks = (
        "import os, time\nn = 0\ntry:\n    for _ in range(200):\n        if os.fork() == 0:\n"
        "            time.sleep(5); os._exit(0)\n        n += 1\nexcept OSError:\n    pass\nprint(n)"
    )
    done = subprocess.run(
        sandbox.limited(limits, group, [sys.executable, "-c", forks]), capture_output=True, text=True, timeout=60
    )
    assert int(done.stdout.split()[-1]) < limits.processes and sandbox.process_limit_hits(group) > 0


def test_reading_a_notebooks_json_takes_time_linear_in_its_size() -> None:
    """attacks_s: a string that never closes, made of escaped quotes, made the count of a notebook's JSON values
    quadratic (160 KB took 67 s, 640 KB more than 300 s, before anything else read the file). One reading from
    left to right: 400 KB of each hostile shape is read in a fraction of the time a plain notebook of 4 MB takes (a
    quadratic reading took minutes); a file with too many values is still refused."""
    plain = b'{"cells": [' + b'{"source": "x = 1"},' * 200_000 + b"{}]}"
    shapes = {
        "an unclosed string of escaped quotes": b'{"a": "' + b'\\"' * 200_000,
        "escaped quotes outside any string": b'\\"' * 200_000,
        "keys without values": b"{" + b'"a":' * 100_000 + b"1}",
    }
    start = time.process_time()
    assert markers.json_values_problem(plain) is None
    budget = max(time.process_time() - start, 0.05)
    for name, data in shapes.items():
        start = time.process_time()
        markers.json_values_problem(data)
        assert time.process_time() - start < 2 * budget, name
    assert markers.json_values_problem(b"[" + b"{}," * 2_000_000 + b"{}]") is not None


def test_code_is_bounded_per_cell_and_in_all_before_the_grader_parses_it() -> None:
    """attacks_s: the trusted process parses every code cell (up to 1 KB of memory a byte: 6 MiB of one-token lines
    took 5.8 GB). A code cell over MAX_CELL_CODE_BYTES, or code over MAX_CODE_BYTES in all, is refused before any
    parse, named; markdown of the same size is not code; the releases' own cells are far inside."""

    def cells(*sizes: int, kind: str = "code") -> list[dict]:
        return [{"cell_type": kind, "source": "a\n" * (n // 2)} for n in sizes]

    assert markers.source_size_problem(cells(markers.MAX_CELL_CODE_BYTES)) is None
    problem = markers.source_size_problem(cells(1000, markers.MAX_CELL_CODE_BYTES + 2))
    assert problem is not None and "code cell 2" in problem and "256 KiB a cell" in problem
    many = cells(*[markers.MAX_CELL_CODE_BYTES] * 9)
    assert "of code, over the limit of 2 MiB" in (markers.source_size_problem(many) or "")
    assert markers.source_size_problem(cells(markers.MAX_CELL_CODE_BYTES * 9, kind="markdown")) is None
    for release in sorted((ASSIGNMENTS / "release").glob("*/*.ipynb")):
        code = [len(c.source.encode()) for c in nbformat.read(release, as_version=4).cells if c.cell_type == "code"]
        assert max(code) < markers.MAX_CELL_CODE_BYTES / 10 and sum(code) < markers.MAX_CODE_BYTES / 10, release
