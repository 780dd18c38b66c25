"""nbgrader configuration of the course (nbgrader 0.9).

nbgrader reads this file only from the current directory, so run nbgrader from ``assignments/``,
or load it by path as ``course_grading.notebook.assignments`` does. The course root is this folder wherever
it is copied to.
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821 (defined by nbgrader when it loads this file)
HERE = Path(__file__).resolve().parent

c.CourseDirectory.root = str(HERE)
c.CourseDirectory.course_id = "pretraining-transformers"

# The markers of solutions and hidden tests: one definition, in course_grading.markers.
from course_grading.markers import HIDDEN_WORDS, SOLUTION_WORDS  # noqa: E402

c.ClearSolutions.begin_solution_delimeter, c.ClearSolutions.end_solution_delimeter = SOLUTION_WORDS
c.ClearHiddenTests.begin_test_delimeter, c.ClearHiddenTests.end_test_delimeter = HIDDEN_WORDS
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Seconds per cell while autograding: the slowest hidden check of a1 takes about 1 s.
c.Execute.timeout = 60

# Feedback shows neither the hidden tests nor tracebacks quoting them, and reads offline: formulas as
# MathML, a page with no CDN script and no inlined Bootstrap (course_grading/feedback.py).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "course_grading.notebook.feedback.ScrubHiddenTracebacks",
    "nbgrader.preprocessors.ClearHiddenTests",
    "course_grading.notebook.feedback.MathToMathML",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
from course_grading.notebook.feedback import FEEDBACK_TEMPLATE  # noqa: E402

c.HTMLExporter.template_name, c.HTMLExporter.template_file, c.HTMLExporter.extra_template_basedirs = FEEDBACK_TEMPLATE

# The hidden checks (grading/*.py) are importable by the grading kernel, and only there.
_grading = str(HERE / "grading")
if _grading not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_grading, os.environ.get("PYTHONPATH")) if p)
