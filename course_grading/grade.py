"""``course grade``: take in a class's submissions, grade each in its own sandbox, report.

For every submission:

1. **Intake** (:func:`intake`): ``SUBMISSIONS`` is a folder or a .zip; anything that cannot be
   mapped to a student is rejected with the reason.
2. **Canonical notebook** (:mod:`course_grading.canonical`): the student's answer cells in a fresh
   copy of the student version.
3. **Grading** (:mod:`course_grading.worker`): a trusted worker per job runs the notebook in a
   jailed student process (:mod:`course_grading.sandbox`), each part's visible tests with correct
   versions of the other parts, and the hidden checks outside the student's process; nbgrader
   scores the run in a scratch course (:mod:`course_grading.gradebook`, :mod:`course_grading.replay`).
4. **Report** (:mod:`course_grading.reports`): ``grades.csv``, feedback per student, a summary and a
   figure, under ``--out``. Results are cached by content: re-running on the same input re-grades
   nothing, and a new or changed submission is the only one graded.
"""

from __future__ import annotations

import ast
import concurrent.futures
import csv
import hashlib
import json
import os
import queue
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat

from . import gradebook, reports, sandbox
from .canonical import canonical
from .intake import Intake, Roster, intake
from .late import LatePolicy
from .notebooks import answer_ids, part_points
from .sandbox import Limits
from .worker import Worker


@dataclass
class Result:
    student: str
    status: str  # graded | needs attention
    scores: dict[str, float] = field(default_factory=dict)
    max_scores: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    key: str = ""  # content hash: the same key means the same grading input
    seconds: float = 0.0  # how long grading took
    penalty: float = 0.0  # late penalty (points), applied on every run from the policy of that run
    submitted_at: str | None = None  # ISO time, from the export or the file (see notes)
    overridden: dict[str, str] = field(default_factory=dict)  # part -> the instructor's reason

    @property
    def total(self) -> float:
        return max(0.0, sum(self.scores.values()) - self.penalty)


# --------------------------------------------------------------------------------- one submission


def grade_one(template: Path, assignment: str, student: str, nb: nbformat.NotebookNode, limits: Limits, out: Path, grader: Worker) -> Result:
    """Grade one canonical notebook in a scratch copy of ``template``; never raises for its content."""
    result = Result(student, "needs attention")
    started = time.monotonic()
    batch = template.parent  # holds the template, the unpacked submissions and every job: all hidden
    job = batch / "jobs" / student
    refused = sandbox.process_limit_hits(grader.group)
    try:
        scratch = job / "course"
        shutil.copytree(template, scratch)
        settings = json.loads((scratch / "jail.json").read_text())
        settings |= {"hide": settings["hide"] + [str(batch)], "slot": str(grader.slot), "launch": sandbox.limited(limits, grader.group, [])}
        (scratch / "jail.json").write_text(json.dumps(settings))
        submitted = scratch / "submitted" / student / assignment
        submitted.mkdir(parents=True)
        nbformat.write(nb, submitted / f"{assignment}.ipynb")
        env = dict(os.environ) | grader.threads
        try:
            crashed = grader.run({"scratch": str(scratch), "assignment": assignment, "student": student, "env": env, "cwd": str(job)}, limits.total_s)
        except TimeoutError:
            result.notes.append(f"timed out: grading took longer than {limits.total_s} s in all; every part scores 0")
            return result
        finally:
            starved = sandbox.process_limit_hits(grader.group) > refused
        if starved:  # what ran after that depended on timing: no grade can be trusted
            result.notes.append(f"the notebook hit the limit of {limits.processes} processes and threads: every part scores 0")
            return result
        if (scratch / "nbgrader.log").exists():
            (out / "logs").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(scratch / "nbgrader.log", out / "logs" / f"{student}.log")
        outcome_file = scratch / "outcome.json"  # out of the student process's reach: only the worker writes it
        if crashed is not None or not outcome_file.exists():
            result.notes.append(f"grading crashed ({crashed or 'no outcome'})")
            return result
        outcome = json.loads(outcome_file.read_text())
        result.scores, result.max_scores = outcome["scores"], outcome["max_scores"]
        result.notes = outcome["notes"] + result.notes
        result.status = "graded"
        for kind, source in (("feedback", scratch / "feedback" / student / assignment / f"{assignment}.html"), ("autograded", scratch / "autograded" / student / assignment / f"{assignment}.ipynb")):
            if source.exists():
                (out / kind).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, out / kind / f"{student}.{source.suffix.lstrip('.')}")
    finally:
        shutil.rmtree(job, ignore_errors=True)
        result.seconds = round(time.monotonic() - started, 1)
    return result


# ------------------------------------------------------------------------------------ the batch


def content_key(nb: nbformat.NotebookNode | None, course: Path, assignment: str) -> str:
    """What determines a grade: the canonical notebook, the source and the hidden checks."""
    digest = hashlib.sha256(nbformat.writes(nb).encode() if nb is not None else b"unreadable")
    digest.update((course / "source" / assignment / f"{assignment}.ipynb").read_bytes())
    for check in sorted((course / "grading").glob("*.py")):
        digest.update(check.read_bytes())
    return digest.hexdigest()


def checked_cells(checks: Path) -> set[str]:
    """The test cells a checks module's ``CHECKS`` dict names, read without importing it (the
    grading process imports the checks; this one should not hold them)."""
    for node in ast.walk(ast.parse(checks.read_text())):
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(target, ast.Name) and target.id == "CHECKS" and isinstance(node.value, ast.Dict):  # type: ignore[union-attr]
            return {k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}  # type: ignore[union-attr]
    raise RuntimeError(f"{checks} defines no CHECKS dict literal")


def prepare_template(course: Path, assignment: str, where: Path, out: Path, submissions: Path, limits: Limits) -> Path:
    """The scratch course every submission of the batch is graded in a copy of."""
    hide, keep = sandbox.what_to_hide(course, out, submissions)
    settings = {"hide": [str(p) for p in hide], "keep": [str(p) for p in keep], "cell_s": limits.cell_s, "output_bytes": limits.output_bytes}
    template = gradebook.prepare_template(course, assignment, where, settings)
    release = nbformat.read(template / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    checked = checked_cells(where / "grading" / f"{assignment}_checks.py")
    missing = [f"test_{part}" for part in answer_ids(release) if f"test_{part}" not in checked]
    if missing:
        raise RuntimeError(f"{assignment}_checks.CHECKS has no hidden check for {', '.join(missing)}")
    return template


@dataclass(frozen=True)
class Options:
    """How a batch is graded beyond the limits: who is who, what is late, what to redo."""

    roster: Roster | None = None  # maps LMS names and ids to the course's student ids
    late: LatePolicy | None = None  # due date, extensions, penalty
    regrade: frozenset[str] = frozenset()  # students graded again even if nothing changed
    canvas_assignment_id: str | None = None  # names the Canvas import's column


OVERRIDES = "overrides.csv"  # in the output folder: student, part, points, reason


def read_overrides(path: Path) -> dict[str, dict[str, tuple[float, str]]]:
    """The instructor's manual scores (``student, part, points, reason``), by student and part."""
    if not path.exists():
        return {}
    overrides: dict[str, dict[str, tuple[float, str]]] = {}
    with path.open(newline="") as f:
        for line, row in enumerate(csv.DictReader(f), 2):
            try:
                overrides.setdefault(row["student"].strip(), {})[row["part"].strip()] = (float(row["points"]), (row.get("reason") or "").strip())
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"{path}, line {line}: expected columns student, part, points, reason ({error})") from None
    return overrides


def finish(result: Result, submission_time: str | None, options: Options, overrides: dict[str, tuple[float, str]], parts: list[str]) -> Result:
    """``result`` with this run's manual overrides and late penalty applied (the cache keeps it raw)."""
    from datetime import datetime

    result.submitted_at = submission_time
    for part, (points, reason) in overrides.items():
        if part not in parts:
            raise ValueError(f"{OVERRIDES}: {result.student} has an override for {part!r}, which is not a part of this assignment ({', '.join(parts)})")
        result.scores[part] = points
        result.overridden[part] = reason
        result.notes.append(f"{part} set to {points:g} by the instructor" + (f": {reason}" if reason else ""))
    if options.late is not None:
        when = datetime.fromisoformat(submission_time) if submission_time else None
        assessment = options.late.assess(result.student, when, sum(result.scores.values()))
        result.penalty = assessment.penalty
        if assessment.note:
            result.notes.append(assessment.note)
    return result


def grade(course: Path, assignment: str, submissions: Path, out: Path, jobs: int, limits: Limits = Limits(), progress: Callable[[int, int, str], None] = lambda done, total, line: print(line), record: bool = False, options: Options = Options()) -> tuple[list[Result], Intake]:
    """Grade every submission (reusing cached results), write the reports; return the results and
    what intake made of the export (its rejected entries and counts).

    ``progress(done, total, line)`` is called as each submission is graded; with ``record``, the
    newly graded submissions are imported into the nbgrader course (:func:`gradebook.record`);
    without it (a dry run) the course is not touched. Manual overrides (``OUTDIR/overrides.csv``)
    and the late policy are applied on every run, so they survive a regrade.
    """
    out = out.resolve()
    sandbox.remove_stale_cgroups()
    if not sandbox.sandbox_available():
        raise RuntimeError("course grade runs student code in Linux namespaces, and `unshare --user --mount --pid --net` is not available here")
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    cache = out / "results"
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="course-grade-") as tmp:
        taken = intake(submissions, assignment, Path(tmp) / "unpacked", options.roster)
        overrides = read_overrides(out / OVERRIDES)
        todo: list[tuple[str, nbformat.NotebookNode | None, list[str], str]] = []
        results: dict[str, Result] = {}
        notebooks: dict[str, nbformat.NotebookNode | None] = {}
        for student, submission in taken.submissions.items():
            nb, notes = canonical(submission.path, release)
            notebooks[student] = nb
            notes = submission.notes + notes
            key = content_key(nb, course, assignment)
            cached = cache / f"{student}.json"
            if cached.exists() and json.loads(cached.read_text()).get("key") == key and student not in options.regrade:
                results[student] = Result(**json.loads(cached.read_text()))
            else:
                todo.append((student, nb, notes, key))
        template = prepare_template(course, assignment, Path(tmp), out, submissions, limits) if any(nb is not None for _, nb, _, _ in todo) else None
        parts = answer_ids(release)

        (Path(tmp) / "workers").mkdir()
        graders: queue.Queue[Worker] = queue.Queue()
        for slot in range(max(1, jobs)):
            threads = max(1, (os.cpu_count() or 1) // max(1, jobs))
            graders.put(Worker(Path(tmp) / "workers" / f"{slot}.log", threads, Path(tmp) / "slots" / str(slot), sandbox.pids_cgroup(f"slot{slot}", limits.processes)))

        def run(item: tuple[str, nbformat.NotebookNode | None, list[str], str]) -> Result:
            student, nb, notes, key = item
            if nb is None or template is None:
                result = Result(student, "needs attention", notes=notes + ["every part scores 0"])
                reports.write_unreadable_feedback(out / "feedback" / f"{student}.html", student, result.notes)
            else:
                grader = graders.get()
                try:
                    result = grade_one(template, assignment, student, nb, limits, out, grader)
                finally:
                    graders.put(grader)
                result.notes = notes + result.notes
            result.scores = {p: result.scores.get(p, 0.0) for p in parts}
            result.key = key
            (cache / f"{student}.json").write_text(json.dumps(asdict(result)))
            return result

        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                for done, result in enumerate(pool.map(run, todo), 1):
                    results[result.student] = result
                    progress(done, len(todo), f"[{done}/{len(todo)}] {result.student}: {result.total:g}" + (f"  ({result.notes[-1]})" if result.notes else ""))
        finally:
            while not graders.empty():
                grader = graders.get()
                grader.stop()
                sandbox.release_cgroup(grader.group)
    times = {s: sub.submitted_at.isoformat() if sub.submitted_at else None for s, sub in taken.submissions.items()}
    ordered = [finish(results[s], times.get(s), options, overrides.get(s, {}), parts) for s in sorted(results)]
    reports.write_reports(ordered, part_points(release), taken, out, assignment, options.roster, options.canvas_assignment_id)
    if record:  # what was graded now, and what the instructor's overrides change
        changed = sorted({student for student, _, _, _ in todo} | (set(overrides) & set(results)))
        gradebook.record(course, assignment, [(s, results[s].scores, nbformat.writes(notebooks[s]).encode() if notebooks[s] is not None else None, out) for s in changed], options.late, {s: sub.submitted_at for s, sub in taken.submissions.items()})
    return ordered, taken
