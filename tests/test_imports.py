"""What the grader's processes import: each of them (``course grade``, each of its workers, each nbgrader command)
imports nbformat, so whatever nbformat's import does is paid per process, hundreds of times in a class's grading.

jsonschema 4.24 and later import rfc3987-syntax where it is installed (jupyter-events' extra installs it), and that
builds 38 lark parsers at import: 1.75 s of a 1.95 s ``import nbformat`` measured on a 2-core machine, and 20% of a
small ``course grade`` batch. pyproject.toml's grading extra keeps jsonschema below 4.24.
"""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_graders_modules_build_no_parsers_at_import() -> None:
    code = (
        "import sys, json\n"
        "import course_grading.grade, course_grading.sandbox.worker, course_grading.cli, nbgrader.apps.api\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = set(
        json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    )
    assert "nbformat" in loaded  # the import this guards is made
    assert not {"lark", "rfc3987_syntax"} & loaded, sorted({"lark", "rfc3987_syntax"} & loaded)
