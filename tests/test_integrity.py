"""The watch over what the grader's code in the student's process relies on (course_grading.sandbox.integrity):
a change under any name is named, and nothing the interpreter or torch does by itself is."""

from __future__ import annotations

import builtins
import copy
import importlib
import io
import sys

import torch

from course_grading.sandbox import calls
from course_grading.sandbox.integrity import MAX_CHANGED, Watch


def test_a_change_under_any_name_is_named_and_undone_is_not() -> None:
    watch = Watch()
    assert watch.changed() == []
    alias, unique = type(torch.empty(0)), torch.Tensor.unique
    alias.unique = lambda self, *a, **k: None  # torch's class, by a call's result (attacks_z)
    module = builtins
    own_isinstance = builtins.isinstance
    module.isinstance = lambda *a: True  # a builtin, by an alias of the module
    code = calls.judged.__code__
    calls.judged.__code__ = (lambda reply, grad_mode: reply).__code__  # the grader's own function, its code
    try:
        assert set(watch.changed()) >= {
            "torch.Tensor.unique",
            "builtins.isinstance",
            "course_grading.sandbox.calls.judged (its code)",
        }
    finally:
        torch.Tensor.unique = unique
        builtins.isinstance = own_isinstance
        calls.judged.__code__ = code
    assert "torch.Tensor.unique" in watch.changed()  # undone: still counted (attacks_aa: a patch that removed itself)
    watch = Watch()
    torch.nn.functional.extra = 1  # an added name that is no module
    torch.Tensor.numpy = torch.Tensor.numpy  # a name added to a class shadows what it inherits, whatever its value
    try:
        assert watch.changed() == ["torch.Tensor.numpy", "torch.nn.functional.extra"]
    finally:
        del torch.nn.functional.extra, torch.Tensor.numpy
    masked = Watch()

    class Disguised:  # an object that says it is a module (attacks_aa): judged by its type
        @property
        def __class__(self):  # noqa: ANN204
            return type(torch)

    torch.nn.functional.disguised = Disguised()
    try:
        assert masked.changed() == ["torch.nn.functional.disguised"]
    finally:
        del torch.nn.functional.disguised


def test_what_python_and_torch_do_by_themselves_is_no_change() -> None:
    watch = Watch()
    importlib.import_module("torch.nn.utils.parametrize")  # a submodule imported: a module added to its parent
    torch.manual_seed(3)
    torch.randn(3).unique()
    exec(compile("1 + 1", "<cell>", "single"), {})  # the interactive display sets builtins._
    copy.deepcopy(torch.nn.Parameter(torch.randn(2)))  # copyreg caches __slotnames__ on the classes
    torch.save(torch.randn(2), io.BytesIO())
    assert watch.changed() == []
    assert MAX_CHANGED >= 1 and "torch" in sys.modules
