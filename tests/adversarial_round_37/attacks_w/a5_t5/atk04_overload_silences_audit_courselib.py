# expect: held for review (course_lib is refused in every part) and rel_bucket loses its points
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    return _K[0](relative_position, bidirectional, num_buckets, max_distance)
# %% [new after rel_bucket]
# Code the scan reads for no part (kept by typing.overload, fetched back by __qualname__) runs as the cell runs: it
# makes the audit hook's recorder (trace.Conduct._add, looked up on the class at each event) record nothing, then
# imports the course's own library and keeps its working function in a list.
import typing

_K = []


@typing.overload
def _setup():
    import sys
    sys.modules["course_grading.sandbox.trace"].Conduct._add = lambda *args: None
    import course_lib.blocks
    _K.append(course_lib.blocks.relative_position_bucket)


class _Setup:
    __qualname__ = "_setup"


typing.get_overloads(_Setup)[0]()
