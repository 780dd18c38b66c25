"""How often each fixture of an assignment is graded as labelled, over many draws of the hidden inputs.

A fixture caught on most draws only is a wrong answer that some students get full marks for, and a CI run
that fails by chance (make test draws each fixture's inputs afresh). This grades each fixture's own parts
with the in-process harness under the check seeds ``first, first + 1, ...`` and prints, per fixture, how many
draws graded it as labelled and the seeds of the others (which ``gradinglib.seed_checks(seed)`` replays)::

    python tests/sweep_fixtures.py a5_t5 --draws 300 --seconds 30       # every fixture, 30 s each at most
    python tests/sweep_fixtures.py a3_gpt bug_top_k_threshold_on_probs  # the named fixtures only
    python tests/sweep_fixtures.py a7_llama --wrong-only --corpus tests/adversarial_round_37/corpus_h

Right answers (``expect: full marks``) get a quarter of the draws (their failures are grader faults, measured
by the same loop). Exit status 1 if any draw graded any fixture otherwise than labelled.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_grading.notebook.harness import run_tests  # noqa: E402

from assignment_support import FIXTURES, GRADING, Fixture, load_fixture, submission_notebook  # noqa: E402


def sweep(assignment: str, fixture: Fixture, seeds: range, seconds: float) -> tuple[int, list[tuple[int, list[str]]]]:
    """(draws made, [(seed, parts lost) for each draw not graded as labelled]): the fixture's own parts only
    (every part for a right answer), one draw per seed until ``seconds`` have passed."""
    sys.path.insert(0, str(GRADING))
    import gradinglib

    start, done, wrong = time.monotonic(), 0, []
    try:
        for seed in seeds:
            if done and time.monotonic() - start > seconds:
                break
            gradinglib.seed_checks(seed)
            run = run_tests(submission_notebook(assignment, fixture), GRADING, fixture.loses or None)
            lost = sorted(part for part, error in run.items() if error)
            done += 1
            if set(lost) != set(fixture.loses):
                wrong.append((seed, lost))
    finally:
        gradinglib.seed_checks(None)
    return done, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment")
    parser.add_argument("names", nargs="*", help="fixtures to sweep (file stems); default: every one")
    parser.add_argument("--draws", type=int, default=40, help="draws per wrong answer (right ones get a quarter)")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=float("inf"), help="time per fixture, at most")
    parser.add_argument("--wrong-only", action="store_true", help="skip the right answers")
    parser.add_argument("--corpus", type=Path, help="a folder of <assignment>/ fixtures (default: tests/fixtures)")
    args = parser.parse_args(argv)
    folder = (args.corpus or FIXTURES) / args.assignment
    paths = sorted(folder.glob("*.py"))
    unknown = set(args.names) - {p.stem for p in paths}
    if not paths or unknown:
        parser.error(f"no fixture {', '.join(sorted(unknown)) or '*.py'} in {folder}")
    escaped = False
    for path in paths:
        fixture = load_fixture(path)
        if (args.names and path.stem not in args.names) or (args.wrong_only and not fixture.loses):
            continue
        draws = args.draws if fixture.loses else max(args.draws // 4, 1)
        start = time.monotonic()
        done, wrong = sweep(args.assignment, fixture, range(args.first_seed, args.first_seed + draws), args.seconds)
        escaped |= bool(wrong)
        shown = "; ".join(f"seed {seed}: lost {lost or 'nothing'}" for seed, lost in wrong[:5])
        print(f"{path.stem}: {done - len(wrong)} of {done} as labelled, {time.monotonic() - start:.0f} s {shown}")
    return 1 if escaped else 0


if __name__ == "__main__":
    raise SystemExit(main())
