"""No compiler of torch's in a student's process: TorchScript and ``torch.compile`` refused, for good.

The operator trace (:mod:`course_grading.sandbox.trace`) sees a torch function where Python calls it (a
``TorchFunctionMode``) and an operator where it reaches the dispatcher's Python key (a ``TorchDispatchMode``).
Code that TorchScript compiled calls torch's operators from C++: no torch function is called from Python,
and an operator that is a composition of others (``aten::rms_norm``, ``aten::scaled_dot_product_attention``
on its math path) is taken apart before the dispatch trace sees it; the guard of a part's forbidden functions
(:func:`course_grading.sandbox.calls.call_in`) swaps Python attributes, which C++ never reads (attacks_o:
``rms_norm`` and torch's attention in TorchScript compiled from a string scored full marks). ``torch.compile``
hands a program to compilers of the same kind. None of the assignments needs either, so the student's process
replaces their entry points, under every name any loaded module gives them, by a function that raises
:class:`~course_grading.sandbox.calls.Refused`, before the notebook's first cell runs.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from course_grading.sandbox.calls import Refused

__all__ = ["COMPILERS", "refuse_compilers"]

# (module, attribute): where TorchScript compiles, traces or loads a program, and torch.compile and its tracers
COMPILERS: tuple[tuple[str, str], ...] = (
    *(
        ("torch.jit", name)
        for name in ("script", "trace", "trace_module", "load", "freeze", "optimize_for_inference", "fork")
    ),
    *(
        ("torch._C", name)
        for name in (
            "CompilationUnit",
            "_jit_script_compile",
            "_jit_script_compile_overload",
            "_jit_script_class_compile",
            "_jit_script_interface_compile",
            "_create_function_from_graph",
            "_create_function_from_trace",
            "_create_function_from_trace_with_dict",
            "_create_method_from_trace",
            "_create_method_from_trace_with_dict",
            "_jit_trace_graph",
            "_jit_trace_module",
            "import_ir_module",
            "import_ir_module_from_buffer",
            "_import_ir_module_from_package",
            "parse_ir",
        )
    ),
    ("torch", "compile"),
    ("torch._dynamo", "optimize"),
    ("torch._dynamo", "export"),
    ("torch.export", "export"),
)


def _refuser(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Refused(f"{name}: compiled code runs where the grader cannot see it, so no part may compile")

    refuse.__name__ = refuse.__qualname__ = name.rsplit(".", 1)[-1]
    return refuse


def refuse_compilers() -> list[str]:
    """Replace every entry point of :data:`COMPILERS` that this torch has, in its module and wherever any
    loaded module holds the same object under any name; the entry points replaced, as ``module.attribute``."""
    found: dict[int, tuple[Any, str]] = {}  # the originals kept alive until the end, so that no id is reused
    for module_name, attribute in COMPILERS:
        value = getattr(importlib.import_module(module_name), attribute, None)
        if value is not None:
            found.setdefault(id(value), (value, f"{module_name}.{attribute}"))
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            if id(value) in found:
                namespace[key] = _refuser(found[id(value)][1])
    return sorted(name for _, name in found.values())
