"""``course``: the instructors' and students' command.

course release [ID ...]     generate student versions and answer keys, and validate them
course check NOTEBOOK       run a notebook's visible tests and summarise them per part
course grade ID SUBMISSIONS autograde a class's submissions, each in a sandbox; report
course remove ID STUDENT    remove a student's graded submission from the course
course mutants ID           the grader self-test: do the hidden tests kill the key's mutants?
course gradescope ID        build the Gradescope autograder zip of an assignment
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from course_grading import mutants
from course_grading.notebook import assignments
from course_grading.sandbox import seeds
from course_grading.sandbox.container import JAILS
from course_grading.text import continued, shown

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "ProgressBar", "main", "parser"]

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def _print(text: str = "", file: TextIO | None = None, end: str = "\n", flush: bool = False) -> None:
    """``print`` for every text the command shows: :func:`course_grading.text.shown`, newlines and tabs
    kept, so that no name, file name, note or message (a student's exception) can drive the terminal."""
    print(shown(text, lines=True), file=file, end=end, flush=flush)


def _release(args: argparse.Namespace) -> int:
    ids = args.ids or assignments.assignment_ids(args.course)
    unknown = sorted(set(ids) - set(assignments.assignment_ids(args.course)))
    if unknown:
        _print(f"no source notebook for: {', '.join(unknown)} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    broken = {assignment: problems for assignment in ids if (problems := assignments.contract(assignment, args.course))}
    for assignment, problems in broken.items():
        _print(f"{assignment}: not released; it lacks what grading needs:", file=sys.stderr)
        for problem in problems:
            _print(f"  - {problem}", file=sys.stderr)
    if broken:
        return EXIT_BAD_INPUT
    ok = True
    solutions = args.solutions or args.course.parent / "solutions"
    secret = seeds.ensure_secret(args.course / "grading")  # the hidden inputs' key (git-ignored, never released)
    print(f"course secret: {secret} (keep it; never publish or hand it out)")
    for assignment in ids:
        assignments.generate(assignment, args.course / "release", solutions, args.course)
        problems = assignments.validate(assignment, args.course)
        status = "ok" if not problems else "INVALID"
        _print(f"{assignment}: release/{assignment}/ and {solutions.name}/{assignment}/ written; validation {status}")
        for problem in problems:
            _print(f"  - {problem}")
        ok &= not problems
    return 0 if ok else EXIT_FAILED


def _check(args: argparse.Namespace) -> int:
    from course_grading.check import check_notebook

    if args.timeout < 1:
        _print(f"--timeout must be at least 1 second, not {args.timeout}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.seed is not None:
        return _replay(args)
    try:
        report = check_notebook(args.notebook, args.course, timeout=args.timeout)
    except (ValueError, RuntimeError) as error:
        _print(f"cannot check {args.notebook}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _print("\n".join(report.render()))
    return EXIT_FAILED if report.failed or report.misnamed else 0


def _replay(args: argparse.Namespace) -> int:
    from course_grading.sandbox.limits import Limits
    from course_grading.seeded import replay

    try:
        assignment, result, parts = replay(args.notebook, args.course, args.seed, Limits(cell_s=args.timeout))
    except (ValueError, RuntimeError) as error:
        _print(f"cannot replay {args.notebook}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _print(f"{assignment}, graded as `course grade` does with hidden inputs from seed {args.seed} (nothing recorded):")
    for part in parts:
        _print(
            f"  {part.part:<24} {part.score:g}/{part.max_score:g}"
            + ("" if part.failure is None else "  " + continued(part.failure, 6))
        )
    for note in result.notes:
        _print(f"  note: {note}")
    _print(f"total {result.total:g}/{sum(p.max_score for p in parts):g}")
    return EXIT_FAILED if any(p.score < p.max_score for p in parts) else 0


class ProgressBar:
    """Each graded submission's line, and on a terminal a bar below them that redraws in place."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream, self.started = stream, time.monotonic()
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, line: str) -> None:
        line = shown(line)  # one line: a name or note cannot move the cursor, ring, or rewrite the bar
        if not self.tty:
            print(line, file=self.stream, flush=True)
            return
        elapsed = time.monotonic() - self.started
        left = elapsed / done * (total - done)
        filled = round(30 * done / total)
        bar = f"grading [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}, {elapsed:.0f} s, about {left:.0f} s left"
        self.stream.write(f"\r\033[K{line}\n{bar}" + ("\n" if done == total else ""))
        self.stream.flush()


def _grade(args: argparse.Namespace) -> int:
    from course_grading.grade import NOT_GRADED, Batch, Options, grade, unrecorded
    from course_grading.lms.intake import Roster, batch_warning
    from course_grading.lms.late import LatePolicy, read_times
    from course_grading.sandbox.limits import Limits

    if args.id not in assignments.assignment_ids(args.course):
        _print(f"no source notebook for {args.id} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = (args.out or args.course / "graded" / args.id).resolve()
    limits = Limits(cell_s=args.cell_timeout, total_s=args.timeout)
    try:
        roster = Roster.read(args.roster) if args.roster else None
        late = (
            LatePolicy.from_options(args.due, args.extensions, args.late_penalty, args.grace, args.max_days_late)
            if args.due
            else None
        )
        if late is None and (args.extensions or args.late_penalty or args.grace or args.max_days_late is not None):
            raise ValueError("--extensions, --late-penalty, --grace and --max-days-late need --due")
        times = read_times(args.times) if args.times else None
        options = Options(
            jobs=args.jobs,
            limits=limits,
            record=not args.dry_run,
            roster=roster,
            late=late,
            regrade=frozenset(args.regrade),
            canvas_assignment_id=args.canvas_assignment_id,
            times=times,
            jail=args.jail,
        )
        results, taken = grade(
            Batch(args.course, args.id, args.submissions.resolve(), out),
            options,
            progress=ProgressBar(),
            notify=lambda text: _print(f"warning: {text}", file=sys.stderr, flush=True),
        )
    except (ValueError, RuntimeError, OSError) as error:
        _print(f"cannot grade: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    unknown = sorted(set(args.regrade) - {r.student for r in results})
    if taken.gradescope:  # a Gradescope export: the scores file Gradescope imports
        from course_grading.lms.gradescope_reader import IMPORT_FILE, write_import

        _print(
            f"Gradescope: {write_import(results, taken.gradescope, out / IMPORT_FILE)} scores in {out / IMPORT_FILE}"
        )
    _print((out / "summary.txt").read_text(), end="")
    _print(
        f"grades: {out / 'grades.csv'} (Canvas: canvas_import.csv, Moodle: moodle_import.csv)\nfeedback: "
        f"{out / 'feedback'}/<student>.html\nfigure: {out / 'summary.png'}"
    )
    if args.dry_run:
        _print("dry run: nothing was recorded in the nbgrader course")
    else:
        _print(
            f"nbgrader: scores in {args.course / 'gradebook.db'}, notebooks in "
            f"{args.course}/{{submitted,autograded,feedback}}/<student>/{args.id}/"
        )
    for student in unknown:
        _print(f"warning: --regrade {student}: no submission of that student in this batch", file=sys.stderr)
    warning = batch_warning(taken)
    if warning:
        _print(f"warning: {warning}", file=sys.stderr)
    failed = [r.student for r in results if r.status == NOT_GRADED]
    if failed:
        _print(
            f"error: {len(failed)} of {len(results)} submissions not graded because of grader errors "
            f"({', '.join(failed)}): nothing was recorded or exported for them; see {out / 'logs'}/<student>.log, and "
            "run again to grade them",
            file=sys.stderr,
        )
    pending = [] if args.dry_run else unrecorded(out, [r.student for r in results if r.status != NOT_GRADED])
    if pending:
        _print(
            f"error: {len(pending)} graded submissions not recorded in the nbgrader gradebook "
            f"({', '.join(pending)}): see the summary; run again to record them",
            file=sys.stderr,
        )
    return EXIT_FAILED if warning or unknown or failed or pending else 0


def _remove(args: argparse.Namespace) -> int:
    from course_grading.grade import pending
    from course_grading.lms.reports import remove_student
    from course_grading.notebook.gradebook import remove

    found = remove(args.course, args.id, args.student)
    out = args.out or args.course / "graded" / args.id
    cache = out / "results" / f"{args.student}.json"
    found |= cache.exists()
    cache.unlink(missing_ok=True)
    pending(cache.parent, args.student).unlink(missing_ok=True)  # its mark of a result the gradebook does not hold yet
    changed = remove_student(out, args.student)
    _print(
        f"{args.student}'s {args.id} records removed" + (f"; from {out}: {', '.join(changed)}" if changed else "")
        if found or changed
        else f"nothing recorded for {args.student} in {args.id}"
    )
    return 0 if found or changed else EXIT_FAILED


def _gradescope(args: argparse.Namespace) -> int:
    from course_grading.gradescope import build

    if args.id not in assignments.assignment_ids(args.course):
        _print(f"no source notebook for {args.id} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        out = build(args.course, args.id, (args.out or Path(f"{args.id}_gradescope.zip")).resolve(), args.visibility)
    except (ValueError, RuntimeError, OSError) as error:
        _print(f"cannot build the Gradescope autograder: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _print(
        f'{out}: upload it as the autograder of a Gradescope programming assignment (README, "Grading on Gradescope")'
    )
    return 0


def _mutants(args: argparse.Namespace) -> int:
    if args.id not in assignments.assignment_ids(args.course):
        _print(f"no source notebook for {args.id} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        report = mutants.self_test(args.id, args.course, jobs=args.jobs)
    except ValueError as error:  # the answer key fails its own tests as the mutants are run
        _print(f"cannot self-test {args.id}: {error}", file=sys.stderr)
        return EXIT_FAILED
    _print(report.render(show_diffs=not args.no_diffs))
    return 0 if report.score >= mutants.THRESHOLD and not report.stale else EXIT_FAILED


def parser() -> argparse.ArgumentParser:
    from course_grading.check import SETUP_S
    from course_grading.sandbox.limits import Limits

    top = argparse.ArgumentParser(
        prog="course", description="Release, check, grade and self-test the course's assignments."
    )
    top.add_argument(
        "--course",
        type=Path,
        help="the nbgrader course folder (default: the assignments/ folder of the checkout the command runs in, "
        f"found from the working folder upwards; outside a checkout, {assignments.COURSE})",
    )
    commands = top.add_subparsers(dest="command", required=True)

    release = commands.add_parser("release", help="generate the student versions and answer keys, and validate them")
    release.add_argument("ids", nargs="*", help="assignment ids (default: all)")
    release.add_argument(
        "--solutions", type=Path, help="where answer keys go (default: solutions/ beside the course folder)"
    )
    release.set_defaults(run=_release)

    check = commands.add_parser(
        "check",
        help="run what grading runs of a notebook, and summarise its visible tests per part",
        description="Run a copy of an assignment notebook as grading will (the assignment's own test and read-only "
        "cells, your answer cells and the code cells you added) in a fresh kernel, and report each part's visible "
        "tests. The assignment is found from the notebook's cells in the course's release/ folder. Limits are "
        f"grading's: {Limits.memory_bytes / 2**30:g} GiB of address space and {Limits.group_memory_bytes / 2**30:g} "
        f"GiB in use (a cell past them is stopped and reported); the assignment's set-up cells may take {SETUP_S} s "
        "(starting Python, importing torch). It is not jailed: it runs your notebook as you, so it refuses a course "
        "that holds the course secret (an instructor's: check a submission there with --seed). Exit status: 0 if "
        "every part passes, 1 if any fails (or the notebook is another assignment's than its file name says), 2 if "
        "the file cannot be checked.",
    )
    check.add_argument("notebook", type=Path, help="your assignment notebook (.ipynb); it is not modified")
    check.add_argument(
        "--seed",
        type=int,
        help="instructors: grade the notebook as `course grade` does (hidden checks included, in the sandbox, "
        "nothing recorded) with the hidden inputs of this seed, which a hidden failure's message names",
    )
    check.add_argument(
        "--timeout",
        type=int,
        default=Limits.cell_s,
        help="seconds per cell, as grading allows; a cell past it is reported as timed out (default: %(default)s)",
    )
    check.set_defaults(run=_check)

    grading = commands.add_parser(
        "grade",
        help="autograde a folder or .zip of submissions, each in a sandbox, and report",
        description="Grade each submission in a sandbox; write grades, feedback and LMS import files. A submission "
        "the grader itself failed on is 'not graded' (no score anywhere; graded again by the next run). Exit status: "
        "0 if every submission was graded (and recorded), 1 if any was not graded or not recorded in the nbgrader "
        "gradebook, or the batch looks wrong, 2 if the batch cannot be graded.",
    )
    grading.add_argument("id", help="assignment id")
    grading.add_argument(
        "submissions",
        type=Path,
        help="a folder or .zip holding <student>.ipynb or <student>/<ID>.ipynb, or a Canvas, Moodle or Gradescope "
        "export",
    )
    grading.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: %(default)s)"
    )
    grading.add_argument(
        "--out", type=Path, help="where grades, feedback and the summary go (default: <course>/graded/<ID>)"
    )
    grading.add_argument(
        "--cell-timeout",
        type=int,
        default=Limits.cell_s,
        help="seconds per cell and per hidden-check call (default: %(default)s)",
    )
    grading.add_argument(
        "--timeout", type=int, default=Limits.total_s, help="seconds per submission in all (default: %(default)s)"
    )
    grading.add_argument(
        "--jail",
        choices=["auto", *JAILS],
        default="auto",
        help="where student code runs: Linux namespaces (the default where they can be made), or, as root inside a "
        "container made for grading, file permissions, rlimits and a seccomp filter (auto: namespaces; in "
        "Gradescope's container, that one)",
    )
    grading.add_argument(
        "--dry-run",
        action="store_true",
        help="grade and report, but record nothing in the nbgrader course (gradebook, submitted/...)",
    )
    grading.add_argument(
        "--roster",
        type=Path,
        help="CSV with columns id, name, email, lms_id (or Canvas's gradebook export): maps LMS names and ids to "
        "student ids",
    )
    grading.add_argument(
        "--due", help="due date, e.g. 2026-11-20T23:59 or 2026-11-20T23:59+01:00 (default zone: this machine's)"
    )
    grading.add_argument("--extensions", type=Path, help="CSV with columns student, due: per-student due dates")
    grading.add_argument(
        "--times",
        type=Path,
        help="submission times the export does not record: CSV with columns student, time, or Moodle's grading "
        "worksheet",
    )
    grading.add_argument("--late-penalty", help="share of the earned points lost per started day late, e.g. 10%%/day")
    grading.add_argument("--grace", help="late time without penalty, e.g. 15min")
    grading.add_argument("--max-days-late", type=int, help="later than this many days scores 0")
    grading.add_argument(
        "--regrade",
        action="append",
        default=[],
        metavar="STUDENT",
        help="grade this student again even if nothing changed (repeatable)",
    )
    grading.add_argument("--canvas-assignment-id", help="the Canvas assignment id, for the Canvas import's column name")
    grading.set_defaults(run=_grade)

    forget = commands.add_parser(
        "remove",
        help="remove a student's graded submission from the course (gradebook, submitted/, autograded/, feedback/)",
    )
    forget.add_argument("id", help="assignment id")
    forget.add_argument("student", help="student id")
    forget.add_argument(
        "--out", type=Path, help="the grades folder whose cached result to drop too (default: <course>/graded/<ID>)"
    )
    forget.set_defaults(run=_remove)

    scope = commands.add_parser(
        "gradescope",
        help="build the Gradescope autograder zip of an assignment",
        description="Write a Gradescope autograder zip (setup.sh, run_autograder and what grading needs: the pinned "
        "environment, the course's packages, this assignment's release, source and hidden checks; no answer keys): "
        "each submission is graded as `course grade` grades it, one Gradescope test per part.",
    )
    scope.add_argument("id", help="assignment id")
    scope.add_argument("--out", type=Path, help="the zip to write (default: ./<ID>_gradescope.zip)")
    scope.add_argument(
        "--visibility",
        choices=("hidden", "after_due_date", "after_published", "visible"),
        default="after_due_date",
        help="when students see the parts' results and the score (default: %(default)s; a test 'Submission' "
        "saying what was graded is always visible)",
    )
    scope.set_defaults(run=_gradescope)

    mutate = commands.add_parser("mutants", help="mutate the answer key and report which mutants the tests kill")
    mutate.add_argument("id", help="assignment id")
    mutate.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel workers (default: %(default)s)")
    mutate.add_argument("--no-diffs", action="store_true", help="list survivors without their diffs")
    mutate.set_defaults(run=_mutants)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.course = (args.course or assignments.default_course(Path.cwd())).resolve()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
