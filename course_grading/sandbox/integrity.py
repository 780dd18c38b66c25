"""What the grader's code in the student's process relies on, watched for changes.

The student's process runs grader code beside the notebook's: the server that answers requests, the copy of each
reply, the facts of each call (:func:`course_grading.sandbox.calls.judged`), the checks' drivers. That code calls
Python's builtins, torch's functions and classes, and its own modules' functions. A notebook that changes one of
them (``torch.Tensor.numpy = ...``, ``builtins.isinstance = ...``, a grader class's method), under whatever name it
reached it by (attacks_z: an alias, ``T = torch.Tensor``, is no import the scan reads), changes what those report.

:class:`Watch` takes a snapshot of those objects before any notebook code runs: the namespaces of the watched modules
and classes, the grader's modules and their classes, and each Python function in them (its code, defaults and
closure). :meth:`Watch.changed` names every entry that differs since (a value replaced or removed; a value added that
is no module, where an import of a submodule adds one; a function's code, defaults or closure replaced). The server
sends those names with every frame, as plain data, and the grader holds every part of a notebook that changed any
(evidence of the kind ``changed``, :data:`course_grading.sandbox.shortcuts.WHAT`).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import torch

__all__ = ["MAX_CHANGED", "Watch"]

# the modules whose namespaces the grader's code in the student's process reads (besides its own)
WATCHED_MODULES = (
    "builtins",
    "random",
    "math",
    "hashlib",
    "gc",
    "numpy",
    "numpy.random",
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.random",
)
# the classes whose namespaces it reads: their methods are looked up when called; a name added to one shadows what it
# inherits from a class that cannot be changed (torch._C.TensorBase's numpy, is_nested, ...: attacks_aa)
WATCHED_CLASSES = (
    torch.Tensor,
    torch.UntypedStorage,
    torch.nn.Module,
    torch.nn.Linear,
    torch.nn.Parameter,
    torch.autograd.Function,
)
# what the interpreter itself changes: the last value an interactive cell showed, and the names a class's instances
# keep in slots, which copyreg caches on the class the first time one is copied or pickled (a reply's tensors are)
UNWATCHED = {("builtins", "_")}
UNWATCHED_NAMES = {"__slotnames__"}
MAX_CHANGED = 20  # the most names one frame reports


def _grader_modules() -> Iterator[tuple[str, types.ModuleType]]:
    for name, module in list(sys.modules.items()):
        if (name == "course_grading" or name.startswith("course_grading.")) and isinstance(module, types.ModuleType):
            yield name, module


def _namespaces() -> Iterator[tuple[str, Any]]:
    """Each watched namespace, by a name for messages: modules and classes (their ``__dict__``), the grader's modules
    and the classes they define."""
    for name in WATCHED_MODULES:
        module = sys.modules.get(name)
        if module is not None:
            yield name, module
    for cls in WATCHED_CLASSES:
        yield f"{cls.__module__}.{cls.__qualname__}", cls
    for name, module in _grader_modules():
        yield name, module
        for attr, value in list(vars(module).items()):
            if isinstance(value, type) and value.__module__ == name:
                yield f"{name}.{attr}", value


def _function_parts(function: types.FunctionType) -> tuple[Any, ...]:
    """What a Python function runs with, compared by identity: its code, defaults and closure cells' contents."""
    cells = tuple(cell.cell_contents for cell in function.__closure__ or () if _filled(cell))
    return (function.__code__, function.__defaults__, function.__kwdefaults__, *cells)


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


class Watch:
    """A snapshot of what the grader's code relies on, taken when made (before any notebook code runs)."""

    def __init__(self) -> None:
        self._found: set[str] = set()  # what any check found, kept: a change undone before the next still counts
        self._entries: list[tuple[str, dict[str, Any], dict[str, Any], bool]] = []
        self._functions: list[tuple[str, types.FunctionType, tuple[Any, ...]]] = []
        for name, holder in _namespaces():
            namespace = vars(holder)
            self._entries.append((name, namespace, dict(namespace), isinstance(holder, type)))
            self._functions += [
                (f"{name}.{attr}", value, _function_parts(value))
                for attr, value in namespace.items()
                if isinstance(value, types.FunctionType)
            ]

    def check(self) -> None:
        """Compare now, and keep what differs: a change made during a call and undone before the call's reply is
        sent (attacks_aa: a method that removed itself once the grader had read through it) is found here, right
        after the student's code returns."""
        for name, namespace, before, is_class in self._entries:
            for key, value in before.items():
                if not _unwatched(name, key) and namespace.get(key, _GONE) is not value:
                    self._found.add(f"{name}.{key}")
            # an added name: in a class it shadows what the class inherits; in a module only a module may come (a
            # submodule imported), told by its type, never by its __class__, which an object may make anything
            for key in namespace.keys() - before.keys():
                value = namespace.get(key, _GONE)
                if not _unwatched(name, key) and (is_class or not issubclass(type(value), types.ModuleType)):
                    self._found.add(f"{name}.{key}")
            if len(self._found) >= MAX_CHANGED:
                return
        for name, function, parts in self._functions:
            now = _function_parts(function)
            if len(now) != len(parts) or any(a is not b for a, b in zip(now, parts)):
                self._found.add(f"{name} (its code)")

    def changed(self) -> list[str]:
        """The names, at most MAX_CHANGED, of what differs from the snapshot now or differed at any check before."""
        self.check()
        return sorted(self._found)[:MAX_CHANGED]


def _unwatched(name: str, key: str) -> bool:
    return (name, key) in UNWATCHED or key in UNWATCHED_NAMES


_GONE = object()
