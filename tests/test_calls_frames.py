"""What the worker accepts from a student's process (issue 36): replies bounded in depth and size
before anything walks them, and no type name the student's code chose in what a check can print."""

from __future__ import annotations

import os

import pytest

from course_grading.sandbox.calls import MAX_DEPTH, OWN_TYPE, Opaque, receive_frame, send_frame, unwire, wire


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 200])
def test_a_reply_nested_too_deep_is_refused_before_it_is_walked(depth: int) -> None:
    read, write = os.pipe()
    try:
        send_frame(write, {"value": nested(depth)})
        with pytest.raises(ValueError, match="nested more than"):
            receive_frame(read, 10)
    finally:
        os.close(read)
        os.close(write)


def test_a_reply_within_the_bounds_crosses() -> None:
    read, write = os.pipe()
    try:
        send_frame(write, {"value": nested(MAX_DEPTH - 2)})
        assert receive_frame(read, 10) == {"value": nested(MAX_DEPTH - 2)}
    finally:
        os.close(read)
        os.close(write)


def test_an_opaque_value_carries_only_a_type_name_from_the_fixed_list() -> None:
    class Leak_q_0_123_k_0_456:  # noqa: N801 (a class named to carry what a hidden call saw)
        pass

    assert unwire(wire(Leak_q_0_123_k_0_456())) == Opaque(OWN_TYPE)
    assert unwire({"__opaque__": "q=[0.123, 0.456]"}) == Opaque(OWN_TYPE)  # a forged frame, too
    assert unwire({"__opaque__": ["ndarray"]}) == Opaque(OWN_TYPE)
    assert unwire(wire(object())) == Opaque("object")
