# expect: held for review (control for atk04: the same code, the audit hook left alone)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    return _K[0](relative_position, bidirectional, num_buckets, max_distance)
# %% [new after rel_bucket]
# Code the scan reads for no part (kept by typing.overload, fetched back by __qualname__) runs as the cell runs: it
# imports the course's own library and keeps its working function in a list.
import typing

_K = []


@typing.overload
def _setup():
    import sys
    import course_lib.blocks
    _K.append(course_lib.blocks.relative_position_bucket)


class _Setup:
    __qualname__ = "_setup"


typing.get_overloads(_Setup)[0]()
