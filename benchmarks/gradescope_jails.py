"""One Gradescope submission graded in the container jail against the namespace jail (issue 38).

Run with ``make bench`` (as root, with the simulated container's tools: tests/container_simulation.py).
The zip of a1 is built from a temporary copy of the course; its run_autograder grades the answer key
and a wrong notebook, alternately in each jail (the container jail inside Docker's default
confinement simulated), three rounds; it prints the median time of each and their ratio. The
target: the container jail takes at most 1.5 times the namespace jail's time.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from course_grading import cli
from course_grading.notebook.assignments import copy_course
from course_grading.sandbox import container

import container_simulation
from assignment_support import ASSIGNMENTS
from hostile_submissions import MISSING_SCALE, notebook
from test_container_jail import gradescope


def main() -> None:
    why = container_simulation.unavailable()
    if why:
        print(f"gradescope_jails: skipped ({why})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        course = copy_course(Path(tmp) / "course" / "assignments", ASSIGNMENTS)
        shutil.copytree(ASSIGNMENTS / "release", course / "release")
        zip_path = Path(tmp) / "a1.zip"
        assert cli.main(["--course", str(course), "gradescope", "a1_attention", "--out", str(zip_path)]) == 0
        roots = Path(tempfile.mkdtemp(dir="/tmp", prefix="gradescope-bench-"))
        roots.chmod(0o755)
        seconds: dict[str, list[float]] = {container.NAMESPACE: [], container.CONTAINER: []}
        try:
            for round_ in range(3):
                for name, content in (("key", notebook()), ("wrong", notebook({"sdpa": MISSING_SCALE}))):
                    for jail in seconds:
                        start = time.monotonic()
                        results, _, _, run = gradescope(
                            {"tmp": roots, "zip": zip_path}, f"{name}{round_}", content, jail
                        )
                        seconds[jail].append(time.monotonic() - start)
                        assert run.returncode == 0 and results["extra_data"] == {"jail": jail}, run.stderr[-2000:]
        finally:
            shutil.rmtree(roots)
        medians = {jail: statistics.median(times) for jail, times in seconds.items()}
        for jail, median in medians.items():
            print(
                f"{jail} jail: median {median:.1f} s per submission over {len(seconds[jail])}"
                " (run_autograder, start-up included)"
            )
        print(
            f"container / namespace: {medians[container.CONTAINER] / medians[container.NAMESPACE]:.2f}x"
            " (target: <= 1.5x)"
        )


if __name__ == "__main__":
    main()
