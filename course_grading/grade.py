"""``course grade``: take in a class's submissions, grade each in its own sandbox, report.

For every submission:

1. **Intake** (:func:`intake`): ``SUBMISSIONS`` is a folder or a .zip; anything that cannot be
   mapped to a student is rejected with the reason.
2. **Canonical notebook** (:mod:`course_grading.notebook.canonical`): the student's answer cells in a fresh
   copy of the student version.
3. **Grading** (:mod:`course_grading.sandbox.worker`): a trusted worker per job runs the notebook in a
   jailed student process (:mod:`course_grading.sandbox.limits`), each part's visible tests with correct
   versions of the other parts, and the hidden checks outside the student's process; nbgrader
   scores the run in a scratch course (:mod:`course_grading.notebook.gradebook`, :mod:`course_grading.sandbox.replay`).
4. **Report** (:mod:`course_grading.lms.reports`): ``grades.csv``, feedback per student, a summary and a
   figure, under ``--out``. Results are cached by content: re-running on the same input re-grades
   nothing, and a new or changed submission is the only one graded.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import json
import os
import queue
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

import nbformat

from course_grading.lms import reports
from course_grading.lms.intake import Intake, Roster, Submission, intake, late_notices
from course_grading.lms.late import LatePolicy, SubmissionTimes
from course_grading.lms.overrides import OVERRIDES, Parts, read_overrides
from course_grading.lms.results import ATTENTION, GRADED, GRADER_ERROR, MISSING, NOT_GRADED, Result
from course_grading.markers import answer_ids, is_test, part_points
from course_grading.notebook import gradebook
from course_grading.notebook.assignments import checked_cells
from course_grading.notebook.canonical import canonical
from course_grading.sandbox import container, scratch_course, seeds
from course_grading.sandbox import limits as sandbox
from course_grading.sandbox.limits import Limits
from course_grading.sandbox.messages import GradeRequest, JailSettings, Outcome, read_message, write_message
from course_grading.sandbox.worker import RUNNING, STARTED, GraderError, Worker
from course_grading.scratch import private_folder, remove_stale
from course_grading.text import shown

__all__ = [
    "Batch",
    "Options",
    "cache_result",
    "cached_result",
    "check_writable",
    "content_key",
    "finish",
    "grade",
    "grade_one",
    "keep_log",
    "missing",
    "not_graded",
    "pending",
    "prepare_template",
    "record_pending",
    "unrecorded",
    "with_intake",
]

PENDING = ".pending"  # out/results/<student>.pending: a cached result not yet in the nbgrader gradebook


# --------------------------------------------------------------------------------- one submission


def grade_one(
    template: Path,
    assignment: str,
    student: str,
    nb: nbformat.NotebookNode,
    limits: Limits,
    out: Path,
    grader: Worker,
    seed: int | None = None,
) -> Result:
    """Grade one canonical notebook in a scratch copy of ``template``; never raises for its content.
    A failure of the grader's own (the worker or the student process could not run it) gives a
    :data:`NOT_GRADED` result (:func:`not_graded`). Past ``limits.total_s`` once the student's process
    runs, the time is the student's: where a part's hidden tests were running, that part scores 0 and the
    submission is graded again from the start without running them (a slow part costs its own points, not
    the others': attacks_n), at most once per part; a hang anywhere else, or the process limit, costs every
    part. ``seed`` replaces the seed of the hidden inputs that the submission's content gives (a replay). Each
    attempt takes at most its limit, its controls and a run of its cells per part (the grader's: see
    :meth:`RemoteStudent.fresh`); no attempt starts once the attempts have taken :data:`CEILING_LIMITS` plus one
    per part times the limit in all (attacks_q: slow cells run again for every part of every attempt): every part
    scores 0 then, as the submission that ran past its limit and made each attempt long."""
    attempt = _Attempt(template, assignment, student, nb, limits, out, grader, seed)
    skipped: list[str] = []
    seconds = 0.0
    ceiling = (CEILING_LIMITS + sum(is_test(cell) for cell in nb.cells)) * limits.total_s
    while True:
        result, ran_out = _grade_once(attempt, skipped)
        seconds += result.seconds
        if ran_out is not None and seconds >= ceiling:
            result.seconds = round(seconds, 1)
            result.notes.append(
                f"timed out: {ran_out}'s hidden tests ran past {limits.total_s} s, and grading it again without "
                f"them would pass {ceiling:g} s in all ({seconds:.0f} s so far, the cells' runs for each part "
                "included): every part scores 0"
            )
            return result
        if ran_out is None:
            result.seconds = round(seconds, 1)
            result.notes[:0] = [
                f"timed out: {part}'s hidden tests ran past {limits.total_s} s: {part} scores 0, and the other "
                "parts were graded again without them"
                for part in skipped
            ]
            return result
        skipped.append(ran_out)


# the whole of a submission's attempts stop past this many times its limit, plus one per part (see grade_one)
CEILING_LIMITS = 2


class _Attempt(NamedTuple):
    """What :func:`grade_one` grades, as it was given."""

    template: Path
    assignment: str
    student: str
    nb: nbformat.NotebookNode
    limits: Limits
    out: Path
    grader: Worker
    seed: int | None


def _grade_once(attempt: _Attempt, skipped: list[str]) -> tuple[Result, str | None]:
    """One attempt of :func:`grade_one`: its result, or the part whose hidden tests were running when the
    submission's time ran out (one not in ``skipped``), to grade again without them."""
    template, assignment, student, nb, limits, out, grader, seed = attempt
    result = Result(student, ATTENTION)
    started = time.monotonic()
    batch = template.parent  # holds the template, the unpacked submissions and every job: all hidden
    job = batch / "jobs" / student
    refused, killed = sandbox.process_limit_hits(grader.group), sandbox.memory_limit_hits(grader.group)
    try:
        scratch = job / "course"
        shutil.copytree(template, scratch)
        settings = read_message(scratch / "jail.json", JailSettings)
        settings |= {
            "hide": settings["hide"] + [str(batch)],
            "slot": str(grader.slot),
            "uid": grader.uid,
            "launch": sandbox.limited(limits, grader.group, []),
            "processes": limits.processes,
        }
        write_message(scratch / "jail.json", settings)
        submitted = scratch / "submitted" / student / assignment
        submitted.mkdir(parents=True)
        nbformat.write(nb, submitted / f"{assignment}.ipynb")
        env = dict(os.environ) | grader.threads
        try:
            fault = grader.run(
                GradeRequest(
                    scratch=str(scratch),
                    assignment=assignment,
                    student=student,
                    env=env,
                    cwd=str(job),
                    seed=seed,
                    skipped=skipped,
                ),
                limits.total_s,
            )
        except TimeoutError:
            if (scratch / STARTED).exists():  # the student's code was running: the time was the student's
                running = (scratch / RUNNING).read_text() if (scratch / RUNNING).exists() else None
                if running is not None and running not in skipped:
                    return result, running
                result.notes.append(
                    f"timed out: grading took longer than {limits.total_s} s in all; every part scores 0"
                )
                return result, None
            fault = grader.failure(
                f"no student process was running after {grader.STARTUP_S:g} s (the grading worker or the jail "
                "did not start)"
            )
        finally:
            starved = sandbox.process_limit_hits(grader.group) > refused
            if sandbox.memory_limit_hits(grader.group) > killed:
                result.notes.append(
                    "the notebook's processes passed their memory limit together "
                    f"({limits.group_memory_bytes / 2**30:g} GiB): one was stopped"
                )
        if starved:  # what ran after that depended on timing: no grade can be trusted
            result.notes.append(
                f"the notebook hit the limit of {limits.processes} processes and threads: every part scores 0"
            )
            return result, None
        if (scratch / "nbgrader.log").exists():
            (out / "logs").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(scratch / "nbgrader.log", out / "logs" / f"{student}.log")
        outcome_file = scratch / "outcome.json"  # out of the student process's reach: only the worker writes it
        if fault is None and not outcome_file.exists():
            fault = GraderError("the grading worker reported success but wrote no outcome", "")
        if fault is not None:
            return not_graded(result, fault, out, scratch / "nbgrader.log"), None
        outcome = read_message(outcome_file, Outcome)
        result.scores, result.max_scores = outcome["scores"], outcome["max_scores"]
        result.notes = outcome["notes"] + result.notes
        result.review = outcome.get("review", [])
        result.seed = outcome.get("seed")
        result.status = ATTENTION if result.review else GRADED
        for kind, source in (
            ("feedback", scratch / "feedback" / student / assignment / f"{assignment}.html"),
            ("autograded", scratch / "autograded" / student / assignment / f"{assignment}.ipynb"),
        ):
            if source.exists():
                (out / kind).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, out / kind / f"{student}.{source.suffix.lstrip('.')}")
    finally:
        shutil.rmtree(job, ignore_errors=True)
        result.seconds = round(time.monotonic() - started, 1)
    return result, None


def not_graded(result: Result, fault: GraderError, out: Path, nbgrader_log: Path) -> Result:
    """``result`` marked as not graded because of ``fault``, with no score; the worker's stderr (and
    nbgrader's log, if any) kept in ``out/logs/<student>.log``."""
    result.status, result.scores, result.max_scores = NOT_GRADED, {}, {}
    result.notes.append(f"{GRADER_ERROR}: {fault.cause}")
    nbgrader = nbgrader_log.read_text(errors="replace") if nbgrader_log.exists() else ""
    keep_log(
        out,
        result.student,
        f"{GRADER_ERROR}: {fault.cause}\n\n--- the grading worker's stderr meanwhile "
        f"---\n{fault.stderr or '(nothing)'}\n" + (f"\n--- nbgrader's log ---\n{nbgrader}\n" if nbgrader else ""),
    )
    return result


def keep_log(out: Path, student: str, text: str) -> None:
    """``text`` as the student's grading log, ``out/logs/<student>.log`` (where it can be written)."""
    with contextlib.suppress(OSError):
        (out / "logs").mkdir(parents=True, exist_ok=True)
        (out / "logs" / f"{student}.log").write_text(text, errors="backslashreplace")


# ------------------------------------------------------------------------------------ the batch


def content_key(nb: nbformat.NotebookNode | None, course: Path, assignment: str) -> str:
    """What determines a grade: the canonical notebook, the source, the hidden checks and the course
    secret (by its public tag: the seeds of the hidden inputs follow it)."""
    digest = hashlib.sha256(nbformat.writes(nb).encode() if nb is not None else b"unreadable")
    digest.update(seeds.secret_tag(seeds.read_secret(course / "grading")).encode())
    digest.update((course / "source" / assignment / f"{assignment}.ipynb").read_bytes())
    for check in sorted((course / "grading").glob("*.py")):
        digest.update(check.read_bytes())
    return digest.hexdigest()


def prepare_template(
    course: Path,
    assignment: str,
    where: Path,
    out: Path,
    submissions: Path,
    limits: Limits,
    jail: str = container.NAMESPACE,
    jobs: int = 1,
) -> Path:
    """The scratch course every submission of the batch is graded in a copy of, in ``jail``, by ``jobs`` slots."""
    hide, keep = sandbox.what_to_hide(course, out, submissions)
    settings = JailSettings(
        hide=[str(p) for p in hide],
        keep=[str(p) for p in keep],
        cell_s=limits.cell_s,
        total_s=limits.total_s,
        output_bytes=limits.output_bytes,
        grading=str(where / "grading"),
        jail=jail,
    )
    if jail == container.CONTAINER:  # no mount hides them: each must be closed to the student's user by its modes
        uids = [container.student_id(slot) for slot in range(max(1, jobs))]
        found = container.problems([*hide, where], keep, uids)
        if found:
            raise RuntimeError(
                f"the container jail would let student code reach what it must not ({'; '.join(found)}): "
                "make these folders root's alone (chmod go-rwx), or grade where Linux namespaces can be made"
            )
    template = scratch_course.prepare_template(course, assignment, where, settings)
    release = nbformat.read(template / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    checked = checked_cells(where / "grading" / f"{assignment}_checks.py")
    missing = [f"test_{part}" for part in answer_ids(release) if f"test_{part}" not in checked]
    if missing:
        raise RuntimeError(f"{assignment}_checks.CHECKS has no hidden check for {', '.join(missing)}")
    return template


@dataclass(frozen=True)
class Batch:
    """What is graded: an assignment's submissions, in a course, with the results written to ``out``."""

    course: Path  # the nbgrader course: source/, release/, grading/ (the hidden checks), gradebook.db
    assignment: str  # the assignment's id (a1_attention)
    submissions: Path  # a folder or a .zip: an LMS export (intake)
    out: Path  # where the results, reports, feedback and logs go (--out)


@dataclass(frozen=True)
class Options:
    """How a batch is graded: how many at once, the limits, who is who, what is late, what to redo,
    whether the nbgrader course is written."""

    jobs: int = 1  # submissions graded at once (--jobs)
    limits: Limits = Limits()  # the sandbox's limits on each submission
    record: bool = False  # import the graded submissions into the nbgrader course (--dry-run: False)
    roster: Roster | None = None  # maps LMS names and ids to the course's student ids
    late: LatePolicy | None = None  # due date, extensions, penalty
    regrade: frozenset[str] = frozenset()  # students graded again even if nothing changed
    canvas_assignment_id: str | None = None  # names the Canvas import's column
    seed: int | None = None  # hidden inputs from this seed, not the submission's own (a replay: `course check --seed`)
    times: SubmissionTimes | None = None  # submission times the export does not record (--times)
    jail: str = "auto"  # where student code runs: "namespace", "container" or "auto" (sandbox.container.choose)


def finish(
    result: Result, submission_time: str | None, options: Options, overrides: dict[str, tuple[float, str]]
) -> Result:
    """``result`` with this run's manual overrides and late penalty applied (the cache keeps it raw);
    a result that was not graded stays without scores."""
    result.submitted_at = submission_time
    if result.status == NOT_GRADED:
        return result
    for part, (points, reason) in overrides.items():
        result.scores[part] = points
        result.overridden[part] = reason
        result.notes.append(f"{part} set to {points:g} by the instructor" + (f": {reason}" if reason else ""))
    if result.review and set(result.review) <= set(overrides):  # every held part decided by the instructor
        result.status = GRADED
    if options.late is not None:
        when = datetime.fromisoformat(submission_time) if submission_time else None
        assessment = options.late.assess(result.student, when, sum(result.scores.values()))
        result.penalty = assessment.penalty
        if assessment.note:
            result.notes.append(assessment.note)
    return result


def with_intake(result: Result, submission: Submission | None) -> Result:
    """``result`` with this run's intake notes first (the cache keeps grading's own: the same notebook
    may come from another export next time), held for the instructor (status ATTENTION) where intake
    could not tell what to grade (:attr:`Submission.attention`), so that no LMS file carries it."""
    if submission is None:
        return result
    result.notes = [*(note for note in submission.notes if note not in result.notes), *result.notes]
    if submission.attention and result.status != NOT_GRADED:
        result.status = ATTENTION
    return result


def missing(students: list[str]) -> list[Result]:
    """The rows of roster students with nothing in the export: no score (not a 0), so that the LMS keeps its own
    mark."""
    return [
        Result(
            s,
            MISSING,
            notes=[
                "on the roster, nothing in this export: no score, and no row in the LMS files (they keep "
                "their own missing mark)"
            ],
        )
        for s in students
    ]


REPORTS = ("grades.csv", "canvas_import.csv", "moodle_import.csv", "summary.txt", "summary.png")


def check_writable(out: Path) -> None:
    """Refuse, before anything is graded, an output folder where the results or reports could not be written."""
    for folder in (out, *(out / name for name in ("results", "logs", "feedback", "autograded"))):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as error:
            raise RuntimeError(
                f"cannot write in the output folder {folder} ({error.strerror or error}): fix its "
                "permissions or choose another --out"
            ) from None
    for report in (out / name for name in REPORTS):
        if report.exists() and not os.access(report, os.W_OK):
            raise RuntimeError(f"cannot write {report} (read-only): fix its permissions or choose another --out")


def cached_result(path: Path, key: str) -> Result | None:
    """The result cached at ``path`` if it was graded from the same input (``key``); None if there is
    none, it is stale, or it cannot be read (a run killed while writing it): then it is graded again."""
    try:
        data = json.loads(path.read_text())
        result = Result(**data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError):
        return None
    fresh = result.key == key and result.status in (GRADED, ATTENTION)
    return result if fresh and isinstance(result.scores, dict) and isinstance(result.notes, list) else None


def cache_result(cache: Path, result: Result) -> None:
    """Cache ``result``, marked as not yet recorded in the nbgrader gradebook (the marker first, and
    the result replaced whole: a run killed on the way leaves the old result, or a marked new one)."""
    pending(cache, result.student).touch()
    partial = cache / f"{result.student}.json.partial"
    partial.write_text(json.dumps(asdict(result)))
    partial.replace(cache / f"{result.student}.json")


def pending(cache: Path, student: str) -> Path:
    """The marker of a cached result that the nbgrader gradebook does not hold yet."""
    return cache / f"{student}{PENDING}"


def unrecorded(out: Path, students: list[str]) -> list[str]:
    """Those of ``students`` whose cached result the nbgrader gradebook does not hold yet."""
    return [s for s in students if pending(out / "results", s).exists()]


def record_pending(
    course: Path,
    assignment: str,
    results: list[Result],
    notebooks: dict[str, nbformat.NotebookNode | None],
    out: Path,
    options: Options,
    times: dict[str, datetime | None],
) -> list[str]:
    """Record in the nbgrader course every graded student of ``results`` not recorded yet (graded
    now, or before a run that was killed or met a locked gradebook), and those whose record differs
    from this run's result (:func:`gradebook.out_of_sync`: an override, or another batch graded into
    the course since), so that the gradebook holds what this run reports. Returns the notices for the summary: whom it
    could not record, and why."""
    cache = out / "results"
    canonical = {
        r.student: nbformat.writes(nb).encode() if (nb := notebooks.get(r.student)) is not None else None
        for r in results
    }
    try:
        stale = gradebook.out_of_sync(
            course,
            assignment,
            {r.student: (r.scores, r.penalty, canonical[r.student]) for r in results if r.status != NOT_GRADED},
        )
    except Exception:  # noqa: BLE001
        # a locked or unreadable gradebook: recording below meets it too, retries and reports it
        stale = set(canonical)
    todo = [r for r in results if r.status != NOT_GRADED and (pending(cache, r.student).exists() or r.student in stale)]
    for r in todo:
        pending(cache, r.student).touch()
    graded = [(r.student, r.scores, canonical[r.student], out) for r in todo]
    try:
        left = gradebook.record(
            course,
            assignment,
            graded,
            options.late,
            times,
            recorded=lambda student: pending(cache, student).unlink(missing_ok=True),
            roster=options.roster,
        )
        reason = f"the gradebook stayed locked by another program through {gradebook.LOCK_TRIES} tries"
    except Exception as error:  # noqa: BLE001 (the grades are cached and marked: the next run records them)
        left, reason = unrecorded(out, [r.student for r in todo]), f"{type(error).__name__}: {error}"
    return [f"nbgrader gradebook: {', '.join(left)} not recorded ({reason}); run again to record them"] if left else []


def grade(
    batch: Batch,
    options: Options = Options(),
    progress: Callable[[int, int, str], None] = lambda done, total, line: print(shown(line)),
    notify: Callable[[str], None] = lambda text: None,
) -> tuple[list[Result], Intake]:
    """Grade every submission of ``batch`` (reusing cached results), write the reports; return the
    results and what intake made of the export (its rejected entries and counts).

    ``progress(done, total, line)`` is called as each submission is graded; with ``options.record``,
    the graded submissions the nbgrader course does not hold yet are imported into it
    (:func:`record_pending`); without it (a dry run) the course is not touched. Manual overrides
    (``OUTDIR/overrides.csv``) and the late policy are applied on every run, so they survive a regrade.

    A submission the grader failed on (:func:`not_graded`; any exception while grading it) has the
    status :data:`NOT_GRADED` and no score: it is not cached, not recorded, and graded on the next run.
    What the batch as a whole should tell the instructor (times the late policy cannot see, unknown
    students in the extensions or times lists) goes to ``notify`` before anything is graded, and to
    the summary. Roster students with nothing in the export get a :data:`MISSING` row.
    """
    course, assignment, submissions = batch.course, batch.assignment, batch.submissions
    jobs, limits = options.jobs, options.limits
    out = batch.out.resolve()
    check_writable(out)
    remove_stale()  # scratch folders of killed runs: copies of the hidden checks
    sandbox.remove_stale_cgroups()
    jail = container.choose(options.jail, options.jail != container.CONTAINER and sandbox.sandbox_available())
    if jail == container.CONTAINER and jobs > 1:
        raise RuntimeError(
            f"the container jail grades one submission at a time (--jobs 1, not {jobs}): its slots would share the "
            "container's disk, which nothing bounds per submission (one could fill it and leave the others "
            "ungraded: attacks_q); grade in parallel where Linux namespaces can be made"
        )
    seeds.ensure_secret(course / "grading")  # the hidden inputs' key: made once, kept in the course
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    cache = out / "results"
    with private_folder() as tmp:
        taken = intake(submissions, assignment, Path(tmp) / "unpacked", options.roster, options.times)
        batch_notices = [*taken.notices, *late_notices(taken, options.late, options.roster)]
        for text in batch_notices:
            notify(text)
        parts = answer_ids(release)
        students = set(taken.submissions) | {p.id for p in (options.roster.people if options.roster else [])}
        # before anything is graded
        overrides = read_overrides(out / OVERRIDES, Parts.of(release, part_points(release)), students)
        todo: list[tuple[str, nbformat.NotebookNode | None, list[str], str]] = []
        results: dict[str, Result] = {}
        notebooks: dict[str, nbformat.NotebookNode | None] = {}
        from_cache: set[str] = set()
        for student, submission in taken.submissions.items():
            try:
                # course/release: names another assignment's notebook
                nb, notes = (
                    canonical(submission.path, release, course / "release")
                    if submission.path is not None
                    else (None, [])
                )
                # a replay is not the grade
                key = content_key(nb, course, assignment) + ("" if options.seed is None else f":seed {options.seed}")
            except Exception as error:  # noqa: BLE001 (the grader's failure on this notebook: the batch goes on)
                notebooks[student] = None
                results[student] = Result(
                    student,
                    NOT_GRADED,
                    notes=[f"{GRADER_ERROR}: reading the notebook failed ({type(error).__name__}: {error})"],
                )
                keep_log(out, student, traceback.format_exc())
                continue
            notebooks[student] = nb
            # its page says why it is unreadable first, then what intake saw
            notes = notes if nb is not None else notes + submission.notes
            cached = cached_result(cache / f"{student}.json", key) if student not in options.regrade else None
            if cached is not None:
                results[student] = cached
                from_cache.add(student)
            else:
                todo.append((student, nb, notes, key))
        template = (
            prepare_template(course, assignment, Path(tmp), out, submissions, limits, jail, jobs)
            if any(nb is not None for _, nb, _, _ in todo)
            else None
        )

        (Path(tmp) / "workers").mkdir()
        graders: queue.Queue[Worker] = queue.Queue()
        for slot in range(max(1, jobs)):
            threads = max(1, (os.cpu_count() or 1) // max(1, jobs))
            graders.put(
                Worker(
                    Path(tmp) / "workers" / f"{slot}.log",
                    threads,
                    Path(tmp) / "slots" / str(slot),
                    sandbox.slot_group(f"slot{slot}", limits, threads),
                    limits.worker_memory_bytes,
                    container.student_id(slot),
                )
            )

        def run(item: tuple[str, nbformat.NotebookNode | None, list[str], str]) -> Result:
            student, nb, notes, key = item
            try:
                if nb is None or template is None:
                    result = Result(student, ATTENTION, notes=notes + ["every part scores 0"])
                    reports.write_unreadable_feedback(out / "feedback" / f"{student}.html", student, result.notes)
                else:
                    grader = graders.get()
                    try:
                        result = grade_one(template, assignment, student, nb, limits, out, grader, options.seed)
                    finally:
                        graders.put(grader)
                    result.notes = notes + result.notes
                if result.status != NOT_GRADED:
                    result.scores = {p: result.scores.get(p, 0.0) for p in parts}
                    result.key = key
                    cache_result(cache, result)
            except Exception as error:  # noqa: BLE001 (the grader's failure on this submission: the batch goes on)
                result = Result(student, NOT_GRADED, notes=notes + [f"{GRADER_ERROR}: {type(error).__name__}: {error}"])
                keep_log(out, student, traceback.format_exc())
            return result

        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                for done, result in enumerate(pool.map(run, todo), 1):
                    results[result.student] = result
                    score = "NOT GRADED" if result.status == NOT_GRADED else f"{result.total:g}"
                    progress(
                        done,
                        len(todo),
                        f"[{done}/{len(todo)}] {result.student}: {score}"
                        + (f"  ({result.notes[-1]})" if result.notes else ""),
                    )
        finally:
            while not graders.empty():
                grader = graders.get()
                grader.stop()
                sandbox.release_slot(grader.group)
    times = {s: sub.submitted_at.isoformat() if sub.submitted_at else None for s, sub in taken.submissions.items()}
    ordered = [
        with_intake(finish(results[s], times.get(s), options, overrides.get(s, {})), taken.submissions.get(s))
        for s in sorted(results)
    ]
    notices = (
        record_pending(
            course,
            assignment,
            ordered,
            notebooks,
            out,
            options,
            {s: sub.submitted_at for s, sub in taken.submissions.items()},
        )
        if options.record
        else []
    )
    ordered = sorted(ordered + missing(taken.missing), key=lambda r: r.student)
    reports.write_reports(
        ordered,
        part_points(release),
        taken,
        out,
        assignment,
        options.roster,
        options.canvas_assignment_id,
        [*batch_notices, *notices],
        from_cache,
        jail,
    )
    return ordered, taken
