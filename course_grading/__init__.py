"""The course's grading layer: generating assignments and driving nbgrader.

It sits outside the teaching library's import graph: ``course_lib`` never imports it, and it
imports no model. The hidden checks themselves live in ``assignments/grading/``, which is never
installed or released.
"""

__all__: list[str] = []
