"""Every module of the library and of the grading layer says what it exports (``__all__``), and says
it truthfully: each listed name exists, and each public function or class it defines is listed (one
that is not for export starts with an underscore)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from types import ModuleType

import pytest

import course_grading
import course_lib


def modules() -> list[str]:
    names = []
    for package in (course_lib, course_grading):
        names.append(package.__name__)
        names += [
            m.name
            for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
            if not m.name.rsplit(".", 1)[1].startswith("_")
        ]
    return sorted(names)


def defined_functions_and_classes(module: ModuleType) -> set[str]:
    assert module.__file__ is not None
    tree = ast.parse(open(module.__file__).read())
    return {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith("_")
    }


def test_the_modules_are_found() -> None:
    found = modules()
    assert {"course_lib.gpt", "course_lib.diagrams", "course_lib.diagrams.gpt", "course_grading.sandbox.worker"} <= set(
        found
    )


@pytest.mark.parametrize("name", modules())
def test_every_module_lists_what_it_exports(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert isinstance(exported, list), f"{name} defines no __all__"
    assert len(set(exported)) == len(exported), f"{name}.__all__ repeats a name"
    absent = [n for n in exported if not hasattr(module, n)]
    assert not absent, f"{name}.__all__ lists names it does not have: {absent}"
    unlisted = sorted(defined_functions_and_classes(module) - set(exported))
    assert not unlisted, (
        f"{name} defines public {unlisted} but leaves them out of __all__ (prefix an "
        "underscore if they are not for export)"
    )


def test_only_the_sandbox_confines_processes() -> None:
    """The trust boundary is one folder: no module of course_grading outside ``sandbox/`` imports
    ``ctypes`` or ``resource``, or runs ``unshare`` or a mount (issue 39)."""
    import re
    from pathlib import Path

    package = Path(course_grading.__file__).parent
    confining = re.compile(
        r"^\s*(import|from)\s+(ctypes|resource)\b|\bsetrlimit\(|\bprlimit\(|\[\s*\"unshare\"|\bmount\(", re.M
    )
    outside = [
        str(p.relative_to(package))
        for p in sorted(package.rglob("*.py"))
        if "sandbox" not in p.parts and confining.search(p.read_text())
    ]
    assert outside == []


def _patterns(value: object) -> list[re.Pattern]:
    if isinstance(value, re.Pattern):
        return [value]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _patterns(v)]
    return []


@pytest.mark.parametrize("name", [m for m in modules() if m.startswith("course_grading")])
def test_no_whole_text_pattern_ends_at_a_line_end(name: str) -> None:
    """A pattern that must match a whole text (an id, a file name, a penalty) ends with ``\\Z``: ``$`` also matches
    before a final newline, so ``STUDENT_ID`` once took ``'1815\\n'`` for an id (attacks_t). A pattern read line by
    line says so with ``re.MULTILINE``."""
    module = importlib.import_module(name)
    for attribute, value in vars(module).items():
        for pattern in _patterns(value):
            text = pattern.pattern.decode("latin-1") if isinstance(pattern.pattern, bytes) else pattern.pattern
            ends_at_line = re.search(r"(?<!\\)\$\)*\Z", text) is not None
            assert not ends_at_line or pattern.flags & re.MULTILINE, f"{name}.{attribute}: {pattern.pattern!r}"
