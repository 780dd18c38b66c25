"""Grade a corpus (folders of fixtures in tests/fixtures' format, one per assignment) with the in-process
harness, twice each (fresh hidden inputs each time), against a checkout's checks.

usage: python tests/adversarial_round_37/grade.py CORPUS [REPEATS]   (from the repository root;
       GRADING=/path/to/assignments/grading to grade with another checkout's checks)
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, "tests")
from assignment_support import GRADING, load_fixture, submission_notebook  # noqa: E402

from course_grading.notebook.harness import run_tests  # noqa: E402

grading = Path(os.environ.get("GRADING", GRADING))
corpus, repeats = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2
missed = total = 0
for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
    for path in sorted(folder.glob("*.py")):
        fixture = load_fixture(path)
        total += 1
        runs = [run_tests(submission_notebook(folder.name, fixture), grading) for _ in range(repeats)]
        verdicts = [{part for part, error in run.items() if error} for run in runs]
        right = all(v == set(fixture.loses) for v in verdicts)
        missed += not right
        print("ok  " if right else "MISS", folder.name, path.stem, "expected", sorted(fixture.loses), "got", [sorted(v) for v in verdicts])
        for run in runs:  # why a part the answer should keep was lost
            for part, error in run.items():
                if error and part not in fixture.loses:
                    print(f"     {part} lost: {str(error)[:600]}")
print(f"{total - missed} of {total} as expected")
