"""A fault of the grader never becomes a grade, no notebook stops a batch, and an interrupted run
resumes cleanly (issue 26, item 5).

* A submission the grader fails on (no student process, a dead or failing worker, an exception in
  the grading code) is "not graded": no score in grades.csv or the LMS files, nothing cached or
  recorded in the nbgrader gradebook, and ``course grade`` exits non-zero saying how many.
* Notebooks whose metadata has odd shapes, or which hold or print lone surrogates, are graded as
  they deserve beside a correct one, in one batch.
* A truncated cache entry is graded again; stale scratch folders are removed; an unwritable output
  folder is refused before grading; a locked gradebook is retried, then reported, and the students
  it left out are recorded by the next run, as are those graded by a run that recorded nothing.
"""

from __future__ import annotations

import csv
import fcntl
import importlib
import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
import torch
from test_course_grade import LIMITS, course_copy

from course_grading import cli, scratch
from course_grading import grade as grading
from course_grading.lms import reports
from course_grading.lms.gradebook_files import GradeRow, write_all
from course_grading.lms.intake import Intake, intake
from course_grading.markers import part_names
from course_grading.notebook import assignments, gradebook
from course_grading.notebook.canonical import canonical, own_cell
from course_grading.sandbox import limits as sandbox
from course_grading.sandbox import scratch_course, worker
from course_grading.sandbox.calls import GraderFault, LocalStudent, Student
from course_grading.sandbox.worker import Worker

from assignment_support import ASSIGNMENTS, ROOT, assignment_ids, source_notebook
from hostile_submissions import ASSIGNMENT, FULL, batch_stopper_cases, escaped, notebook

needs_sandbox = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)
RELEASE = nbformat.read(ASSIGNMENTS / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)


def recorded_scores(course: Path) -> dict[str, float]:
    """Each student's score of the assignment in the course's nbgrader gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(assignments.nbgrader_api(course).coursedir.db_url) as book:
        return {s.student.id: s.score for s in book.assignment_submissions(ASSIGNMENT)}


# ------------------------------------------------------------------------ reading any notebook


def _set(path: list[str | int], value: object):  # noqa: ANN202 (a JSON edit)
    def edit(nb: dict) -> None:
        target = nb
        for key in path[:-1]:
            target = target[key]  # type: ignore[index]
        target[path[-1]] = value  # type: ignore[index]

    return edit


ODD_NOTEBOOKS = {
    "grade id a list": _set(["cells", 0, "metadata", "nbgrader"], {"grade_id": ["sdpa"], "solution": True}),
    "grade id a dict": _set(["cells", 0, "metadata", "nbgrader"], {"grade_id": {"a": 1}, "solution": True}),
    "grade id a number": _set(["cells", 0, "metadata", "nbgrader"], {"grade_id": 3, "solution": True}),
    "nbgrader metadata a list": _set(["cells", 0, "metadata", "nbgrader"], [1, 2]),
    "cell metadata a list": _set(["cells", 0, "metadata"], [1, 2]),
    "cells a dict": _set(["cells"], {"a": 1}),
    "a cell that is a string": lambda nb: nb["cells"].append("hello"),
    "top-level metadata a list": _set(["metadata"], []),
    "nbformat a string": _set(["nbformat"], "4"),
    "source a list of numbers": _set(["cells", 0, "source"], [1, 2]),
    "lone surrogate in a grade id": _set(
        ["cells", 0, "metadata", "nbgrader"], {"grade_id": "sdpa\ud800", "solution": True}
    ),
    "lone surrogate in an output": _set(
        ["cells", 0, "outputs"], [{"output_type": "stream", "name": "stdout", "text": "\udcff"}]
    ),
}


@pytest.mark.parametrize("odd", list(ODD_NOTEBOOKS))
def test_a_notebook_of_any_shape_reads_without_raising(tmp_path: Path, odd: str) -> None:
    """Whatever the JSON holds, canonical() gives a notebook that can be written and hashed, or none
    with a reason: never an exception."""
    path = tmp_path / "n.ipynb"
    path.write_bytes(escaped(notebook(), ODD_NOTEBOOKS[odd]))
    nb, notes = canonical(path, RELEASE)
    assert nb is not None or notes
    if nb is not None:
        from course_grading.notebook.assignments import copy_course
        from course_grading.sandbox.seeds import ensure_secret

        nbformat.writes(nb).encode()  # no lone surrogate left
        course = copy_course(tmp_path / "course", ASSIGNMENTS)
        ensure_secret(course / "grading")  # the course's own secret, made in the copy: the real course is not written
        grading.content_key(nb, course, ASSIGNMENT)


def test_a_lone_surrogate_in_an_answer_is_graded_as_an_escape(tmp_path: Path) -> None:
    def edit(nb: dict) -> None:
        next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "sdpa")["source"] = (
            "x = '\ud800'"
        )

    path = tmp_path / "n.ipynb"
    path.write_bytes(escaped(notebook(), edit))
    nb, notes = canonical(path, RELEASE)
    assert nb is not None and any("lone surrogates" in n for n in notes)
    source = next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "sdpa")
    assert source == "x = '\\ud800'"  # the same string to Python


# --------------------------------------------------------------------------- cache and folders


def test_an_unreadable_cache_entry_is_graded_again(tmp_path: Path) -> None:
    result = grading.Result("ann", grading.GRADED, scores={"sdpa": 4.0}, key="k")
    grading.cache_result(tmp_path, result)
    path = tmp_path / "ann.json"
    assert grading.cached_result(path, "k") == result
    assert grading.pending(tmp_path, "ann").exists()  # cached, not yet in the gradebook
    assert grading.cached_result(path, "other key") is None
    full = path.read_text()
    for broken in (
        full[: len(full) // 2],
        "",
        "[1, 2]",
        json.dumps({"student": "ann"} | {"surprise": 1}),
        json.dumps({**json.loads(full), "status": grading.NOT_GRADED}),
    ):
        path.write_text(broken)
        assert grading.cached_result(path, "k") is None, broken
    path.write_bytes(b"\xff\xfe")
    assert grading.cached_result(path, "k") is None


def test_scratch_folders_are_private_and_a_killed_runs_are_removed(tmp_path: Path) -> None:
    old = time.time() - 3600
    stale = tmp_path / f"{scratch.PREFIX}killed"
    (stale / "grading").mkdir(parents=True)
    (stale / "grading" / "a1_attention_checks.py").write_text("secret")
    young = tmp_path / f"{scratch.PREFIX}starting"
    young.mkdir()
    held = tmp_path / f"{scratch.PREFIX}running"
    held.mkdir()
    fd = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a live run holds its folder's lock
    for folder in (stale, held):
        os.utime(folder, (old, old))
    try:
        assert scratch.remove_stale(tmp_path) == [stale]
        assert not stale.exists() and young.exists() and held.exists()
    finally:
        os.close(fd)
    with scratch.private_folder() as folder:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        os.utime(folder, (old, old))
        assert folder not in scratch.remove_stale(folder.parent)  # held while in use
    assert not folder.exists()


def test_an_output_folder_that_cannot_be_written_is_refused_before_grading(tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("")
    with pytest.raises(RuntimeError, match="cannot write in the output folder"):
        grading.grade(
            grading.Batch(tmp_path / "no_course", ASSIGNMENT, tmp_path, tmp_path / "a_file" / "out"),
            grading.Options(jobs=1),
        )


@needs_sandbox
def test_course_grade_refuses_a_read_only_out_folder(tmp_path: Path) -> None:
    """Through the command, with the folder on a read-only mount (as root, permissions alone would not stop a write)."""
    out, inbox = tmp_path / "out", tmp_path / "inbox"
    out.mkdir()
    inbox.mkdir()
    (inbox / "ann.ipynb").write_bytes(notebook())
    course = course_copy(tmp_path / "course")
    command = (
        f"mount --bind {out} {out} && mount -o remount,bind,ro {out} && exec {sys.executable} -m "
        f"course_grading.cli --course {course} grade {ASSIGNMENT} {inbox} --out {out}"
    )
    run = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == cli.EXIT_BAD_INPUT, run.stderr
    assert "cannot grade: cannot write in the output folder" in run.stderr and "Traceback" not in run.stderr
    assert list(out.iterdir()) == []


# ------------------------------------------------------------------- the reports of a failure


def test_a_submission_not_graded_has_no_score_in_any_report(tmp_path: Path) -> None:
    row = GradeRow(
        "ann",
        "Ann",
        "ann@uni.edu",
        "101",
        {},
        {"sdpa": 4.0, "mha": 4.0},
        0.0,
        None,
        grading.NOT_GRADED,
        "not graded: grader error: worker died",
        None,
    )
    graded = GradeRow(
        "bob",
        "Bob",
        "bob@uni.edu",
        "102",
        {"sdpa": 4.0, "mha": 0.0},
        {"sdpa": 4.0, "mha": 4.0},
        0.0,
        4.0,
        grading.GRADED,
        "",
        None,
    )
    warnings = write_all([row, graded], tmp_path, ASSIGNMENT)
    with (tmp_path / "grades.csv").open(encoding="utf-8-sig") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert [rows["ann"][c] for c in ("sdpa", "mha", "total", "percentage", "status")] == ["", "", "", "", "not graded"]
    assert rows["bob"]["total"] == "4"
    for name in ("canvas_import.csv", "moodle_import.csv"):
        text = (tmp_path / name).read_text()
        assert "Bob" in text and "Ann" not in text
    assert "Canvas: ann left out: not graded (a grader error): grade it again" in warnings


def test_the_summary_counts_the_submissions_not_graded_and_survives_odd_file_names(tmp_path: Path) -> None:
    results = [
        grading.Result("ann", grading.NOT_GRADED, notes=["not graded: grader error: the grading worker died"]),
        grading.Result("bob", grading.GRADED, scores={"sdpa": 4.0}, max_scores={"sdpa": 4.0}),
    ]
    taken = Intake({}, ["a\udcff.ipynb: 'a\udcff' is not a usable student id"], entries=3, rejected_entries=1)
    reports.write_reports(
        results,
        {"sdpa": 4.0},
        taken,
        tmp_path,
        ASSIGNMENT,
        None,
        None,
        ["nbgrader gradebook: bob not recorded (locked)"],
    )
    summary = (tmp_path / "summary.txt").read_text()
    assert (
        "1 graded, 0 from the cache (unchanged since they were graded); 1 NOT GRADED because of grader errors"
        in summary
        and "sdpa                     1/1" in summary
    )
    assert re.search(r"ann\s+NOT GRADED", summary) and "WARNING: nbgrader gradebook: bob not recorded" in summary
    assert "a\\udcff.ipynb" in summary  # the name as an escape: the file is UTF-8


def test_a_zip_whose_entry_names_are_not_utf8_is_refused_with_a_reason(tmp_path: Path) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("ann.ipynb", "{}")
        z.writestr("b\u00e9.ipynb", "{}")  # a name zipfile flags as UTF-8
    archive.write_bytes(archive.read_bytes().replace("b\u00e9".encode(), b"b\xff\xfe"))
    with pytest.raises(ValueError, match="an entry's name is marked as UTF-8 but is not"):
        intake(archive, ASSIGNMENT, tmp_path / "unpacked")


# ------------------------------------------------------------------------------ the worker


def test_the_submissions_clock_starts_with_its_student_process(tmp_path: Path) -> None:
    """attacks_q: after a neighbour's timeout the worker is started cold, and a right notebook graded next lost
    every part to that start. What the worker and its jail take before the student's process starts is the
    grader's (at most STARTUP_S, then the grader's fault), not the submission's."""
    graded = Worker(tmp_path / "worker.log", 1, tmp_path / "slot", sandbox.SlotGroup())
    answers_at = "import time; time.sleep({}); print('done', flush=True)"
    for started_after, limit, answers, answered in ((1.0, 1.0, 1.5, True), (None, 100.0, 5.0, False)):
        scratch_folder = tmp_path / f"scratch_{started_after}"
        scratch_folder.mkdir()
        graded.process = subprocess.Popen([sys.executable, "-c", answers_at.format(answers)], stdout=subprocess.PIPE)
        graded.STARTUP_S = 2.0
        timer = threading.Timer(started_after or 0, lambda f=scratch_folder: (f / worker.STARTED).touch())
        if started_after is not None:
            timer.start()
        begun = time.monotonic()
        try:
            # answered 0.5 s after its student process started, 1.5 s after it was asked: within a 1 s limit; a
            # student process that never starts: the grader's, after STARTUP_S however long the limit
            assert graded._wait(scratch_folder, limit) is answered
            assert answered or 1.9 < time.monotonic() - begun < 10
        finally:
            timer.cancel()
            graded.process.kill()
            graded.process.wait()


def test_the_attempts_of_a_submission_stop_at_a_ceiling(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """attacks_q: a part that runs the submission past its limit has the submission graded again without it, and
    each attempt runs the cells once per part: attempts stop once they have taken (2 + parts) times the limit, every
    part at 0; below that, a retry grades the rest."""
    release = nbformat.read(ASSIGNMENTS / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    limits = sandbox.Limits(total_s=10)
    ceiling = (grading.CEILING_LIMITS + len(FULL)) * limits.total_s
    for attempt_s, retried in ((ceiling / 3 + 1, False), (ceiling / 4, True)):
        calls: list[list[str]] = []

        def once(
            attempt: Any, skipped: list[str], attempt_s: float = attempt_s, calls: list[list[str]] = calls
        ) -> tuple[Any, str | None]:
            calls.append(list(skipped))
            result = grading.Result("ann", grading.ATTENTION, seconds=attempt_s)
            if len(calls) <= 3:  # sdpa, masks, then split_merge run past the limit
                return result, list(FULL)[len(calls) - 1]
            result.scores = {"mha": 4.0}
            return result, None

        monkeypatch.setattr(grading, "_grade_once", once)
        result = grading.grade_one(tmp_path, ASSIGNMENT, "ann", release, limits, tmp_path, None, None)  # type: ignore[arg-type]
        if retried:  # four attempts of a quarter each: the last starts below the ceiling
            assert len(calls) == 4 and result.scores == {"mha": 4.0}, (calls, result)
        else:  # three of a third: no fourth
            assert len(calls) == 3 and not result.scores and "every part scores 0" in result.notes[-1], result


def test_the_worker_reports_its_own_failures_and_death_with_its_stderr(tmp_path: Path) -> None:
    """An exception in the grading code and a worker killed mid-submission come back as grader
    errors (with the worker's traceback), and the next submission gets a fresh worker."""
    worker = Worker(tmp_path / "worker.log", 1, tmp_path / "slot", sandbox.SlotGroup())
    request = {
        "scratch": str(tmp_path / "nothing"),
        "assignment": ASSIGNMENT,
        "student": "ann",
        "env": dict(os.environ),
        "cwd": str(tmp_path),
    }
    try:
        error = worker.run(request, 120)
        assert error is not None and error.cause.startswith("FileNotFoundError") and "Traceback" in error.stderr
        stuck = tmp_path / "stuck"
        stuck.mkdir()
        os.mkfifo(stuck / "jail.json")  # the worker blocks reading it

        def kill_when_read() -> None:
            with open(stuck / "jail.json", "w"):  # returns once the worker has opened it
                assert worker.process is not None
                os.killpg(worker.process.pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_read)
        killer.start()
        error = worker.run(request | {"scratch": str(stuck)}, 120)
        killer.join()
        assert error is not None and "the grading worker died (killed by SIGKILL" in error.cause
        error = worker.run(request, 120)
        assert error is not None and error.cause.startswith("FileNotFoundError")
    finally:
        worker.stop()


def test_a_failure_before_any_student_code_is_the_graders(tmp_path: Path) -> None:
    """The assignment's setup cell failing in the student process before any of the student's code ran
    (a jail that cannot run the course's own code) is a grader fault; after a cell of the student's
    ran, and a failing answer cell, are the student's."""
    path = tmp_path / "n.ipynb"
    path.write_bytes(notebook())
    nb, _ = canonical(path, RELEASE)
    assert nb is not None
    ok = {"stdout": "", "stderr": "", "error": None}
    died = {"stdout": "", "stderr": "", "error": ["ProcessDied", "this cell was not run to its end", []]}
    assert worker.check_setup(nb, {"imports": ok, "sdpa": died}) is None
    with pytest.raises(GraderFault, match=r"setup cell failed .*\(ProcessDied"):
        worker.check_setup(nb, {"imports": died, "sdpa": ok})
    # A cell the student added above the set-up has run (cleanly or not: `torch.nn = None` runs cleanly
    # and breaks the set-up): the set-up's failure is the student's, with a note naming that cell.
    nb.cells.insert(0, own_cell("import torch\ntorch.nn = None\n", 1))
    for before in (ok, died):
        note = worker.check_setup(nb, {"student-cell-1": before, "imports": died, "sdpa": ok})
        assert note is not None and "student-cell-1" in note and "score 0" in note
    assert worker.check_setup(nb, {"student-cell-1": ok, "imports": ok, "sdpa": died}) is None
    shown = worker.printable({"stdout": "\ud800", "stderr": "ok", "error": ["E\udcff", "m", ["\ud800"]]})
    assert json.dumps(shown, ensure_ascii=False).encode() and shown["stdout"] == "\\ud800"
    # An 8-bit CSI, a bidi override, BEL and a progress bar's carriage returns: visible, or line ends.
    shown = worker.printable({"stdout": "a\x9b31m\u202eb\x07\r\n10%\r20%", "stderr": "", "error": None})
    assert shown["stdout"] == "a\\x9b31m\\u202eb\\x07\n10%\n20%"


# ------------------------------------------------------------------------ the gradebook


def test_a_locked_gradebook_is_retried_reported_and_recorded_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gradebook, "LOCK_PAUSE_S", 0.0)
    monkeypatch.setattr(gradebook, "LOCK_TRIES", 2)
    course, out = course_copy(tmp_path / "course"), tmp_path / "out"
    (out / "results").mkdir(parents=True)
    results = [grading.Result(s, grading.GRADED, scores=dict(FULL), max_scores=dict(FULL)) for s in ("ann", "bob")]
    for result in results:
        grading.cache_result(out / "results", result)
    assert gradebook.record(course, ASSIGNMENT, []) == []  # the gradebook, with the assignment in it
    lock = sqlite3.connect(course / "gradebook.db")
    lock.execute("BEGIN EXCLUSIVE")
    try:
        notices = grading.record_pending(course, ASSIGNMENT, results, {}, out, grading.Options(), {})
    finally:
        lock.rollback()
        lock.close()
    assert len(notices) == 1 and "ann, bob not recorded" in notices[0] and "locked" in notices[0], notices
    assert grading.unrecorded(out, ["ann", "bob"]) == ["ann", "bob"]
    assert grading.record_pending(course, ASSIGNMENT, results, {}, out, grading.Options(), {}) == []
    assert grading.unrecorded(out, ["ann", "bob"]) == []
    assert recorded_scores(course) == {"ann": sum(FULL.values()), "bob": sum(FULL.values())}


# -------------------------------------------------------------------------------- end to end


@needs_sandbox
def test_no_notebook_stops_a_batch_and_a_truncated_cache_entry_is_regraded(tmp_path: Path) -> None:
    """One batch of the notebooks that stopped batches, beside a correct one whose cache entry a
    killed run left truncated, with a killed run's scratch folder (holding hidden checks) left over."""
    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    cases = batch_stopper_cases()
    for case in cases.values():
        (inbox / case.filename).write_bytes(case.content)
    (out / "results").mkdir(parents=True)
    (out / "results" / "correct.json").write_text('{"student": "correct", "status": "gra')
    stale = Path(tempfile.mkdtemp(prefix=scratch.PREFIX))
    (stale / "a1_attention_checks.py").write_text("hidden")
    os.utime(stale, (time.time() - 3600,) * 2)
    progress: list[str] = []
    results, _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, out),
        grading.Options(jobs=2, limits=LIMITS),
        progress=lambda done, total, line: progress.append(line),
    )
    assert not stale.exists()
    by_student = {r.student: r for r in results}
    assert set(by_student) == set(cases) and len(progress) == len(cases)
    for student, case in cases.items():
        result = by_student[student]
        assert result.status != grading.NOT_GRADED and result.scores == case.points, (student, result.notes)
        if case.notes:
            assert any(re.search(case.notes, n) for n in result.notes), (student, result.notes)
    assert json.loads((out / "results" / "correct.json").read_text())["scores"] == FULL
    assert (out / "feedback" / "surrogate_in_output.html").exists()


@needs_sandbox
def test_a_grader_fault_is_not_a_grade_and_the_next_runs_grade_and_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The student process cannot start (its launcher is ``false``): through ``course grade``, the
    submission is "not graded" with the cause and the worker's stderr in its log, nothing is cached,
    recorded or exported for it, and the command fails saying so, while an unreadable notebook beside
    it is graded (0) and recorded. Fixed, a run that records nothing (as a killed one) grades it;
    the next run grades nothing and records it."""
    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    (inbox / "ann.ipynb").write_bytes(notebook())
    (inbox / "bob.ipynb").write_bytes(b'{"cells": [')
    command = [
        "--course",
        str(course),
        "grade",
        ASSIGNMENT,
        str(inbox),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--cell-timeout",
        str(LIMITS.cell_s),
    ]
    monkeypatch.setattr(sandbox, "limited", lambda limits, group, argv: ["false", *argv])
    assert cli.main(command) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert "1 of 2 submissions not graded because of grader errors (ann)" in err
    assert not (out / "results" / "ann.json").exists() and not grading.pending(out / "results", "ann").exists()
    log = (out / "logs" / "ann.log").read_text()
    assert (
        "not graded: grader error: the student process could not be started (its jail exited with status 1)" in log
        and "Traceback" in log
    )
    with (out / "grades.csv").open(encoding="utf-8-sig") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert (rows["ann"]["total"], rows["ann"]["status"]) == ("", "not graded") and rows["bob"]["total"] == "0"
    assert "ann" not in (out / "canvas_import.csv").read_text() + (out / "moodle_import.csv").read_text()
    assert "1 NOT GRADED" in (out / "summary.txt").read_text()
    assert recorded_scores(course) == {"bob": 0.0}

    monkeypatch.undo()
    assert cli.main([*command, "--dry-run"]) == 0
    cached = out / "results" / "ann.json"
    assert json.loads(cached.read_text())["scores"] == FULL
    assert grading.unrecorded(out, ["ann", "bob"]) == ["ann"] and recorded_scores(course) == {"bob": 0.0}
    graded_at = cached.stat().st_mtime_ns
    assert cli.main(command) == 0
    assert cached.stat().st_mtime_ns == graded_at  # nothing graded again
    assert grading.unrecorded(out, ["ann", "bob"]) == [] and recorded_scores(course) == {
        "ann": sum(FULL.values()),
        "bob": 0.0,
    }


# ------------------------------------------------------------------ a check that fails the answer key too


@pytest.fixture
def gradinglib(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The hidden checks' library, importable as the worker imports it, its seed reset afterwards (an in-process
    test after this one draws fresh inputs, as without a seed)."""
    monkeypatch.syspath_prepend(str(ASSIGNMENTS / "grading"))
    lib = importlib.import_module("gradinglib")
    try:
        yield lib
    finally:
        lib.seed_checks(None)


@pytest.mark.parametrize("assignment", assignment_ids())
def test_the_control_runs_the_answer_key_as_the_notebook_defines_it(
    tmp_path: Path, assignment: str, gradinglib: Any
) -> None:
    """The control of a failed hidden check (worker.Control) is the answer key as the scratch course keeps its code
    beside the checks, run in the trusted process: it defines every function the student version asks for, and
    (a6, whose checks build the key's modules through drivers) passes every check, its seconds in the ledger
    that the submission's time limit adds."""
    (tmp_path / scratch_course.answer_key_file(assignment)).write_text(
        json.dumps(assignments.answer_key_code(source_notebook(assignment)))
    )
    key = worker.answer_key_student(tmp_path, assignment)
    release = nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    asked = {name for names in part_names(release).values() for name in names}
    assert asked and all(callable(key.namespace.get(name)) for name in asked), sorted(asked - set(key.namespace))
    if assignment == "a6_finetune":
        gradinglib.seed_checks(2026)
        checks = worker.load_checks(ASSIGNMENTS / "grading", assignment)
        control = worker.Control(tmp_path, assignment, worker.Ledger(tmp_path / worker.GRADER_SECONDS))
        assert {part: control(check) for part, check in checks.by_test.items()} == dict.fromkeys(checks.by_test)
        assert control.seconds > 0
        assert float((tmp_path / worker.GRADER_SECONDS).read_text()) == pytest.approx(control.seconds, abs=1e-3)


def test_a_hidden_failure_is_the_students_only_where_the_answer_key_passes_the_same_inputs(gradinglib: Any) -> None:
    """A check that fails a wrong function but not the key leaves its failure to the student; one that fails
    the key too (a broken oracle) is the grader's fault; the control draws the very inputs the student's run
    drew; and a key that fails only a case after the one the student failed leaves the student's failure."""
    seen: list[list[float]] = []

    def check(factor: float) -> Callable[[Student], str | None]:
        def run(student: Student) -> str | None:
            x = torch.randn(4, generator=gradinglib.fresh_generator())
            seen.append(x.tolist())
            reply = student.call("double", [x])
            return None if torch.equal(reply.value, factor * x) else "double(x) differs from the expected values"

        return run

    def student(factor: float) -> LocalStudent:
        return LocalStudent({"double": lambda x: factor * x})

    def key(check: Callable[[Student], str | None]) -> str | None:
        return worker._verdict(check, student(2.0))

    gradinglib.seed_checks(7)
    assert worker.hidden_verdict(check(2.0), student(3.0), key) is not None
    assert len(seen) == 2 and seen[0] == seen[1]  # the control drew the student's inputs
    assert worker.hidden_verdict(check(2.0), student(3.0), key) is not None
    assert seen[2] != seen[1]  # and the next call of the check draws on, as without a control
    assert worker.hidden_verdict(check(2.0), student(2.0), key) is None
    with pytest.raises(GraderFault, match="failed the answer key too"):
        worker.hidden_verdict(check(3.0), student(2.0), key)

    def two_cases(student: Student) -> str | None:  # a right first case, and a broken second one
        x = torch.ones(3)
        first = lambda: gradinglib.expect_close(student.call("double", [x]).value, 2 * x, "double(x)", "case 1")  # noqa: E731
        second = lambda: gradinglib.expect_close(student.call("double", [x]).value, 3 * x, "double(x)", "case 2")  # noqa: E731
        return gradinglib.run_cases("double", [first, second])

    assert "case 1" in worker.hidden_verdict(two_cases, student(5.0), key)  # the key fails a case never reached
    with pytest.raises(GraderFault, match="case 2"):
        worker.hidden_verdict(two_cases, student(2.0), key)


def test_what_the_answer_keys_run_raises_is_named_in_the_graders_fault(tmp_path: Path, gradinglib: Any) -> None:
    """A control whose run of the key raises (the grading machine out of memory, a driver's bug) makes the
    submission not graded, and the fault names what was raised, not a wrong reply."""
    control = worker.Control(tmp_path, "a1_attention", worker.Ledger(tmp_path / worker.GRADER_SECONDS))
    control.key = LocalStudent({"double": lambda x: 2 * x})

    def check(student: Student) -> str | None:
        reply = student.call("double", [torch.ones(2)])
        if student is control.key:
            raise MemoryError("cannot allocate 8 GB")
        return None if torch.equal(reply.value, 2 * torch.ones(2)) else "double(x) differs from the expected values"

    with pytest.raises(GraderFault, match="the answer key's run raised MemoryError: cannot allocate 8 GB"):
        worker.hidden_verdict(check, LocalStudent({"double": lambda x: 3 * x}), control)
    assert worker.hidden_verdict(check, LocalStudent({"double": lambda x: 2 * x}), control) is None


@needs_sandbox
def test_a_check_that_fails_the_answer_key_leaves_the_submission_not_graded(tmp_path: Path) -> None:
    """Through ``course grade``, with a1's masks check broken so that no answer can pass it: a right
    notebook is "not graded", naming the check's fault, not given 0 for the part."""
    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    checks = course / "grading" / f"{ASSIGNMENT}_checks.py"
    checks.write_text(checks.read_text().replace('"test_masks": check_masks,', '"test_masks": lambda s: "broken",'))
    inbox.mkdir()
    (inbox / "ann.ipynb").write_bytes(notebook())
    [result], _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, out), grading.Options(jobs=1, limits=LIMITS), progress=lambda *_: None
    )
    assert result.status == grading.NOT_GRADED and result.scores == {}, result
    assert "failed the answer key too" in (out / "logs" / "ann.log").read_text()


def test_a_raise_that_the_jail_may_cause_is_the_students_only_where_the_jailed_key_passes(gradinglib: Any) -> None:
    """Where the student's failing call raised (what a jail's limits or refused system calls cause), the key runs
    once more in a jailed process of its own: failing there too, the fault is the grader's; passing, the failure
    stands. A wrong value, which no jail causes, costs no second run of the key; nor does a passing part."""
    jailed: list[str] = []

    def refused(x: torch.Tensor) -> torch.Tensor:
        raise RuntimeError("can't start new thread")

    def check(student: Student) -> str | None:
        x = torch.randn(3, generator=gradinglib.fresh_generator())
        return gradinglib.run_cases(
            "double",
            [lambda: gradinglib.expect_close(student.call("double", [x]).value, 2 * x, "double(x)", "case 1")],
        )

    def key(check: Callable[[Student], str | None]) -> str | None:
        return worker._verdict(check, LocalStudent({"double": lambda x: 2 * x}))

    def jail(passes: bool) -> Callable[[Callable[[Student], str | None], Student], str | None]:
        def run(check: Callable[[Student], str | None], like: Student) -> str | None:
            jailed.append(type(like).__name__)
            return worker._verdict(check, LocalStudent({"double": (lambda x: 2 * x) if passes else refused}))

        return run

    gradinglib.seed_checks(3)
    raising = LocalStudent({"double": refused})
    with pytest.raises(GraderFault, match="failed the answer key too in a student process jailed"):
        worker.hidden_verdict(check, raising, key, jail(passes=False))
    assert raising.raised == "RuntimeError" and jailed == ["LocalStudent"]
    assert "raised RuntimeError" in worker.hidden_verdict(check, raising, key, jail(passes=True))
    assert len(jailed) == 2
    wrong = LocalStudent({"double": lambda x: 3 * x})
    assert "double(x)" in worker.hidden_verdict(check, wrong, key, jail(passes=False))
    assert wrong.raised is None and len(jailed) == 2  # a wrong value: the trusted control alone
    assert worker.hidden_verdict(check, LocalStudent({"double": lambda x: 2 * x}), key, jail(passes=False)) is None
    assert len(jailed) == 2


def test_a_time_out_is_the_students_only_where_the_jailed_key_answers_well_within_the_limit(tmp_path: Path) -> None:
    """A student's call that ran past its time is charged only where the key, in a jail of its own, answers every
    call of the check within half the limit: a machine loaded enough for the key to near the limit cannot tell a
    slow answer from its own load (CI, four gradings on two busy cores: the key's own freeze_except, run as a
    student's, timed out at 6 s). Another raise is judged by the key's verdict alone."""

    class JailedKey(LocalStudent):
        timeout_s, part, under_test = 6.0, "", ()

        def __init__(self, slowest: float) -> None:
            super().__init__({"double": lambda x: 2 * x})
            self.slowest_call_s = slowest

        def close(self) -> None:
            pass

    def check(student: Student) -> str | None:
        reply = student.call("double", [torch.ones(2)])
        return None if torch.equal(reply.value, 2 * torch.ones(2)) else "double(x) differs from the expected values"

    def student(raised: str) -> LocalStudent:
        slow = LocalStudent({})
        slow.raised = raised
        return slow

    for slowest, raised, fault in (
        (4.0, "TimeoutError", True),
        (2.0, "TimeoutError", False),
        (4.0, "MemoryError", False),
    ):
        ledger = worker.Ledger(tmp_path / worker.GRADER_SECONDS)
        control = worker.Control(tmp_path, "a1_attention", ledger, lambda slowest=slowest: JailedKey(slowest))
        if fault:
            with pytest.raises(GraderFault, match="4.0 s of the 6 s limit"):
                control.in_jail(check, student(raised))
        else:
            assert control.in_jail(check, student(raised)) is None


SPAWN_CHECK = r"""

def check_spawn(notebook):
    student = as_student(notebook)
    driver = "def spawn():\n    import threading\n    t = threading.Thread(target=len, args=((),))\n" + (
        "    t.start()\n    t.join()\n    return 1\n"
    )
    return run_cases("masks", [lambda: student.call("spawn", (), driver=driver)])
"""


@needs_sandbox
def test_a_check_that_asks_what_the_jail_refuses_leaves_the_submission_not_graded(tmp_path: Path) -> None:
    """Through ``course grade``, with a1's masks check replaced by one whose driver starts a thread (the jail
    refuses new threads; the trusted process does not): the answer key's own notebook is "not graded", the fault
    named as the jailed key's, not 0 for masks. The other parts' right answers do not stand in for it."""
    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    checks = course / "grading" / f"{ASSIGNMENT}_checks.py"
    text = checks.read_text()
    assert '"test_masks": check_masks,' in text
    text = text.replace('"test_masks": check_masks,', '"test_masks": check_spawn,')
    checks.write_text(text.replace("\nCHECKS: ", SPAWN_CHECK + "\nCHECKS: ", 1))
    inbox.mkdir()
    (inbox / "ann.ipynb").write_bytes(notebook())
    [result], _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, out), grading.Options(jobs=1, limits=LIMITS), progress=lambda *_: None
    )
    assert result.status == grading.NOT_GRADED and result.scores == {}, result
    assert "in a student process jailed as the submission's" in (out / "logs" / "ann.log").read_text()


@pytest.mark.parametrize(
    ("declared", "named"),
    [
        ("CHECKS = ['check_a']", "CHECKS"),
        ("CHECKS = {'test_a': 'check_a'}", "CHECKS"),
        ("CHECKS = {}\nREFERENCE_PARTS = ['def f(): pass']", "REFERENCE_PARTS"),
        ("CHECKS = {}\nSHORTCUTS = {'a': ['torch.softmax']}", "SHORTCUTS"),
        ("", "CHECKS"),
    ],
)
def test_a_checks_module_that_declares_its_checks_wrongly_is_a_grader_fault_at_load(
    tmp_path: Path, declared: str, named: str
) -> None:
    """The checks module is read into a typed :class:`worker.HiddenChecks` once, as it is loaded: a module whose
    CHECKS, REFERENCE_PARTS or SHORTCUTS is not of its type is the grader's fault, named there (not an
    AttributeError or a TypeError inside some part's grading, which a student's part would carry)."""
    name = f"bad_{abs(hash(declared))}"
    (tmp_path / f"{name}_checks.py").write_text(declared + "\n")
    with pytest.raises(worker.GraderFault, match=f"{name}_checks.{named} should be"):
        worker.load_checks(tmp_path, name)


def test_every_assignments_checks_load_as_typed_hidden_checks() -> None:
    for assignment in assignments.assignment_ids(ASSIGNMENTS):
        checks = worker.load_checks(ASSIGNMENTS / "grading", assignment)
        assert checks.by_test and checks.reference_parts, assignment
        assert set(checks.by_test) == assignments.checked_cells(ASSIGNMENTS / "grading" / f"{assignment}_checks.py")


def test_a_module_that_stands_in_for_one_of_the_grading_folders_is_a_grader_fault(tmp_path: Path) -> None:
    """A module named like a file of the grading folder (PyContracts installs a ``contracts``) but imported from
    elsewhere, before the folder or from a place earlier on ``sys.path``, would run checks that are not the
    course's: loading names it as the grader's fault, whichever module it is."""
    name = "stand_in_probe"
    grading, elsewhere = tmp_path / "grading", tmp_path / "site"
    grading.mkdir()
    elsewhere.mkdir()
    (grading / f"{name}_helpers.py").write_text("WHO = 'course'\n")
    (grading / f"{name}_checks.py").write_text(f"from {name}_helpers import WHO\nCHECKS = {{}}\n")
    (elsewhere / f"{name}_helpers.py").write_text("WHO = 'installed'\n")
    sys.path.insert(0, str(elsewhere))
    try:
        importlib.import_module(f"{name}_helpers")  # imported first, from elsewhere
        with pytest.raises(worker.GraderFault, match=f"module {name}_helpers was imported from .*site"):
            worker.load_checks(grading, name)
    finally:
        sys.path.remove(str(elsewhere))
        for module in (f"{name}_helpers", f"{name}_checks"):
            sys.modules.pop(module, None)
        if str(grading) in sys.path:
            sys.path.remove(str(grading))
    assert worker.load_checks(grading, name).by_test == {}  # from the folder itself it loads
    sys.modules.pop(f"{name}_helpers", None)
    sys.modules.pop(f"{name}_checks", None)
