"""The nbgrader glue: notebooks as the course writes, releases and scores them.

- :mod:`.markers` reads the cells' nbgrader metadata and the hidden and solution blocks;
- :mod:`.assignments` releases an assignment and checks its contract; :mod:`.canonical` rebuilds a
  submission around its answer cells; :mod:`.harness` runs a notebook's tests in-process (trusted
  notebooks only);
- :mod:`.gradebook` records scores in nbgrader's gradebook; :mod:`.feedback` renders the feedback page.

Nothing here runs a student's code: that happens only behind :mod:`course_grading.sandbox`.
"""

__all__: list[str] = []
