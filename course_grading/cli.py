"""``course``: the instructors' and students' command.

    course release [ID ...]     generate student versions and answer keys, and validate them
    course check NOTEBOOK       run a notebook's visible tests and summarise them per part
    course grade ID SUBMISSIONS autograde a class's submissions, each in a sandbox; report
    course mutants ID           the grader self-test: do the hidden tests kill the key's mutants?
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from . import assignments, mutants

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def _release(args: argparse.Namespace) -> int:
    ids = args.ids or assignments.assignment_ids(args.course)
    unknown = sorted(set(ids) - set(assignments.assignment_ids(args.course)))
    if unknown:
        print(f"no source notebook for: {', '.join(unknown)} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    ok = True
    for assignment in ids:
        assignments.generate(assignment, args.course / "release", args.solutions, args.course)
        problems = assignments.validate(assignment, args.course)
        status = "ok" if not problems else "INVALID"
        print(f"{assignment}: release/{assignment}/ and {args.solutions.name}/{assignment}/ written; validation {status}")
        for problem in problems:
            print(f"  - {problem}")
        ok &= not problems
    return 0 if ok else EXIT_FAILED


def _check(args: argparse.Namespace) -> int:
    from .check import check_notebook

    try:
        results = check_notebook(args.notebook, timeout=args.timeout)
    except ValueError as error:
        print(f"cannot check {args.notebook}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    width = max([len(part) for part in results] + [4])
    for part, failure in results.items():
        print(f"{part:<{width}}  {'passed' if failure is None else 'FAILED  ' + failure}")
    failed = sum(failure is not None for failure in results.values())
    print(f"{len(results) - failed} of {len(results)} parts pass their visible tests."
          + (" Hidden tests run when your work is graded." if not failed else ""))
    return EXIT_FAILED if failed else 0


class ProgressBar:
    """Each graded submission's line, and on a terminal a bar below them that redraws in place."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream, self.started = stream, time.monotonic()
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, line: str) -> None:
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
    from .grade import Limits, grade

    if args.id not in assignments.assignment_ids(args.course):
        print(f"no source notebook for {args.id} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = (args.out or args.course / "graded" / args.id).resolve()
    limits = Limits(cell_s=args.cell_timeout, total_s=args.timeout)
    try:
        grade(args.course, args.id, args.submissions.resolve(), out, args.jobs, limits, progress=ProgressBar(), record=True)
    except (ValueError, RuntimeError) as error:
        print(f"cannot grade: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print((out / "summary.txt").read_text(), end="")
    print(f"grades: {out / 'grades.csv'}\nfeedback: {out / 'feedback'}/<student>.html\nfigure: {out / 'summary.png'}")
    print(f"nbgrader: scores in {args.course.resolve() / 'gradebook.db'}, notebooks in {args.course.resolve()}/{{submitted,autograded,feedback}}/<student>/{args.id}/")
    return 0


def _mutants(args: argparse.Namespace) -> int:
    if args.id not in assignments.assignment_ids(args.course):
        print(f"no source notebook for {args.id} (looked in {args.course / 'source'})", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = mutants.self_test(args.id, args.course, jobs=args.jobs)
    print(report.render(show_diffs=not args.no_diffs))
    return 0 if report.score >= mutants.THRESHOLD and not report.stale else EXIT_FAILED


def parser() -> argparse.ArgumentParser:
    from .grade import Limits

    top = argparse.ArgumentParser(prog="course", description="Release, check, grade and self-test the course's assignments.")
    top.add_argument("--course", type=Path, default=assignments.COURSE, help="the nbgrader course folder (default: %(default)s)")
    commands = top.add_subparsers(dest="command", required=True)

    release = commands.add_parser("release", help="generate the student versions and answer keys, and validate them")
    release.add_argument("ids", nargs="*", help="assignment ids (default: all)")
    release.add_argument("--solutions", type=Path, default=assignments.SOLUTIONS, help="where answer keys go (default: %(default)s)")
    release.set_defaults(run=_release)

    check = commands.add_parser("check", help="run the visible tests of a notebook and summarise them per part")
    check.add_argument("notebook", type=Path)
    check.add_argument("--timeout", type=int, default=120, help="seconds per cell (default: %(default)s)")
    check.set_defaults(run=_check)

    grading = commands.add_parser("grade", help="autograde a folder or .zip of submissions, each in a sandbox, and report")
    grading.add_argument("id", help="assignment id")
    grading.add_argument("submissions", type=Path, help="a folder or .zip holding <student>.ipynb or <student>/<ID>.ipynb")
    grading.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: %(default)s)")
    grading.add_argument("--out", type=Path, help="where grades, feedback and the summary go (default: <course>/graded/<ID>)")
    grading.add_argument("--cell-timeout", type=int, default=Limits.cell_s, help="seconds per cell and per hidden-check call (default: %(default)s)")
    grading.add_argument("--timeout", type=int, default=Limits.total_s, help="seconds per submission in all (default: %(default)s)")
    grading.set_defaults(run=_grade)

    mutate = commands.add_parser("mutants", help="mutate the answer key and report which mutants the tests kill")
    mutate.add_argument("id", help="assignment id")
    mutate.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel workers (default: %(default)s)")
    mutate.add_argument("--no-diffs", action="store_true", help="list survivors without their diffs")
    mutate.set_defaults(run=_mutants)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.course = args.course.resolve()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
