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


def test_a_frame_is_written_with_what_the_module_bound_before_any_notebook_ran() -> None:
    """attacks_u: a notebook that rebinds torch.save, struct.pack or os.write (self.save = ... with torch passed as
    self) changed every reply it sent (global_rng_moved set to False); those names are its own now. (In a process of
    its own: this one's os.write is pytest's.) What torch.save uses inside (io.BytesIO, pickle) it looks up as it
    runs: the README says the student's process can forge what it reports that deep."""
    import subprocess
    import sys

    script = (
        "import os, struct, sys, torch\n"
        "from course_grading.sandbox.calls import send_frame\n"
        "def forged(*args, **kwargs):\n"
        "    raise AssertionError('the frame went through a rebound name')\n"
        "for module, name in ((torch, 'save'), (struct, 'pack'), (os, 'write')):\n"
        "    setattr(module, name, forged)\n"
        "send_frame(sys.stdout.fileno(), {'global_rng_moved': True})\n"
    )
    read, write = os.pipe()
    try:
        run = subprocess.run([sys.executable, "-c", script], stdout=write, stderr=subprocess.PIPE, timeout=120)
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        assert receive_frame(read, 10) == {"global_rng_moved": True}
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


def test_the_graders_arguments_cross_in_their_layout_and_carry_nothing_beyond_what_they_view() -> None:
    """A slice of a wider buffer arrives as a slice (its strides and offset), two arguments that view one storage still
    share one, the same object twice is one object, and the storage that crosses holds only the entries some argument
    views: the rest of the grader's buffer (a later case's inputs, say) never reaches the student's process. Before,
    every argument was cloned on its way, and the case of slices of wider rows sent contiguous tensors."""
    import torch

    from course_grading.sandbox.calls import _copy, laid_out

    buffer = torch.full((4, 10), 777.0)  # 777: what no argument views
    buffer[:, 1:7] = torch.randn(4, 6)
    sliced, prefix, alone = buffer[:, 1:5], buffer[:2, 1:4], torch.randn(3).expand(2, 3)
    args = (sliced, prefix, sliced, alone, {"w": torch.arange(6.0)[::2]})
    read, write = os.pipe()
    try:
        send_frame(write, wire(args, copies=laid_out(args)))
        crossed = unwire(receive_frame(read, 10))
    finally:
        os.close(read)
        os.close(write)
    memo = dict(laid_out(args))
    for got in (crossed, tuple(_copy(a, memo) for a in args)):  # over the wire, and in the same process
        assert got[0].stride() == sliced.stride() and got[0].equal(sliced) and got[2] is got[0]
        assert got[1].equal(prefix) and got[1].data_ptr() == got[0].data_ptr()  # the same address, as in the buffer
        assert got[3].equal(alone) and got[4]["w"].equal(torch.tensor([0.0, 2.0, 4.0]))
        storage = torch.empty(0).set_(got[0].untyped_storage())
        assert 777.0 not in storage.tolist()
        assert got[0].untyped_storage().data_ptr() != sliced.untyped_storage().data_ptr()  # a copy


def test_tensors_with_a_bit_a_marker_hides_or_a_thin_slice_of_a_large_buffer_cross_as_their_values() -> None:
    """A conjugate or negative view beside its base keeps its own values; a tensor inside a dict the wire sends as a
    marker puts none of its entries into another argument's storage; views spread over a storage much larger than
    their entries cross as contiguous copies (found by a review of laid_out)."""
    import torch

    from course_grading.sandbox.calls import laid_out

    z = torch.tensor([1 + 2j, 3 + 4j])
    x = torch.tensor([1.0, 2.0])
    buffer = torch.arange(10.0)
    wide = torch.randn(4, 1000)
    args = (z, z.conj(), x, x._neg_view(), buffer[0:2], {1: buffer[6:8]}, wide[:, :2])
    copies = laid_out(args)
    assert copies[id(args[0])].equal(z) and copies[id(args[1])].equal(z.conj().resolve_conj())
    assert copies[id(args[2])].equal(x) and copies[id(args[3])].equal(-x)
    assert torch.empty(0).set_(copies[id(args[4])].untyped_storage()).tolist() == [0.0, 1.0]
    thin = copies[id(args[6])]
    assert thin.equal(wide[:, :2]) and thin.is_contiguous() and thin.untyped_storage().nbytes() == 8 * 4
