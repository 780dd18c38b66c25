"""Throughput of ``course grade``: 40 a1 submissions (correct, buggy, hostile), --jobs 1 against --jobs 2.

Run with ``make bench``. Prints wall time and submissions per minute for each, start-up included;
the target on a 2-core machine is at least 30 per minute with 2 jobs (issue 12).
It grades in a temporary copy of the course, which the hostile submissions target: the real course
is neither read by them nor written.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import nbformat

from course_grading import grade as grading
from course_grading.notebook.assignments import copy_course

from assignment_support import ASSIGNMENTS, fixtures, release_notebook, submission_notebook
from hostile_submissions import hostile_cases

HOSTILE = [
    "loop_in_function",
    "fakes_checks_module",
    "patches_torch",
    "steals_reference",
    "vandal",
    "duplicates_cell",
    "not_json",
    "memory_bomb",
]


def build_inbox(inbox: Path, course: Path) -> int:
    inbox.mkdir()
    release = release_notebook("a1_attention")  # students fill in the student version
    cases = hostile_cases(str(course), str(inbox.parent / "out"), str(inbox))
    for name in HOSTILE:
        (inbox / cases[name].filename).write_bytes(cases[name].content)
    for fixture in fixtures("a1_attention")[: 40 - len(HOSTILE) - 4]:
        nbformat.write(submission_notebook("a1_attention", fixture, release), inbox / f"{fixture.name}.ipynb")
    for i in range(4):
        nbformat.write(submission_notebook("a1_attention", None, release), inbox / f"correct{i}.ipynb")
    return len(list(inbox.iterdir()))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        course = copy_course(Path(tmp) / "course", ASSIGNMENTS)
        shutil.copytree(ASSIGNMENTS / "release", course / "release")
        count = build_inbox(Path(tmp) / "inbox", course)
        rates = {}
        for jobs in (2, 1):
            start = time.monotonic()
            results, _ = grading.grade(
                grading.Batch(course, "a1_attention", Path(tmp) / "inbox", Path(tmp) / f"out{jobs}"),
                grading.Options(jobs=jobs),
                progress=lambda done, total, line: None,
            )
            seconds = time.monotonic() - start
            rates[jobs] = len(results) / seconds * 60
            print(
                f"--jobs {jobs}: {len(results)} of {count} submissions in {seconds:.0f} "
                f"s, {rates[jobs]:.1f} per minute",
                flush=True,
            )
        print(f"speed-up of 2 jobs over 1: {rates[2] / rates[1]:.2f}x (target: >= 30 per minute with 2 jobs)")


if __name__ == "__main__":
    main()
