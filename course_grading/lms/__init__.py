"""Submissions in and grades out: the learning-management systems' side of grading.

- :mod:`.intake` maps an export (Canvas, Moodle, Gradescope, plain folders) to one notebook per
  student; :mod:`.gradescope_reader` reads Gradescope's Export Submissions zip;
- :mod:`.late` (deadlines, extensions, penalties) and :mod:`.overrides` (an instructor's points);
- :mod:`.results` (one submission's result), :mod:`.gradebook_files` (the CSVs each LMS imports) and
  :mod:`.reports` (summary, figure, feedback folders).

Nothing here runs student code or imports a model; every text that reaches a report goes through
:func:`course_grading.text.shown` (terminal, summary) or :func:`course_grading.text.csv_cell` (CSV).
"""

from course_grading.lms import gradescope_reader  # noqa: E402,F401  (registers its export reader with intake)

__all__: list[str] = []
