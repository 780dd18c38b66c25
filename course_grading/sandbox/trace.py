"""What actually executes during a hidden call: the operators torch ran, recorded at its dispatcher.

A source scan reads spellings, and Python has endless ones (:mod:`course_grading.sandbox.shortcuts`).
Every spelling of torch's attention or normalisation (``F.scaled_dot_product_attention``,
``torch.ops.aten.…``, ``torch._C._nn.…``, ``nn.MultiheadAttention``, flexible attention, a
function captured before the check, an alias through ``sys.modules``) ends in a small set of
operators. So while the student's process runs a hidden call, an :class:`OperatorTrace` records
every torch function called through Python (a ``TorchFunctionMode``) and every operator that
reaches the dispatcher (a ``TorchDispatchMode``, forward and backward), and the worker holds a part
whose trace names one of its forbidden operators (:attr:`course_grading.sandbox.shortcuts.Rules.operators`).

Higher-order operators (flexible attention, control flow) pass through the dispatch mode by name and
are refused: none of the assignments needs one, and their name is in the trace.

The trace is made in the student's process, which may tamper with it; so it is evidence, not a
verdict. A trace whose recorder was no longer on torch's mode stacks when the call ended, or one
that a part with forbidden operators returned empty, is evidence in itself (``tampered``).
"""

from __future__ import annotations

import re
from types import TracebackType
from typing import Any

from torch.overrides import TorchFunctionMode, _get_current_function_mode_stack
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode_stack

__all__ = ["HOP_PREFIX", "MAX_NAMES", "OperatorTrace", "trace_names"]

HOP_PREFIX = "hop:"  # how a higher-order operator is named in a trace
MAX_NAMES = 4096  # names one call's trace may hold; more is tampering
_NAME = re.compile(r"[A-Za-z0-9_.:<>-]{1,200}")  # how torch names its functions and operators (aten::add.Tensor, hop:flex_attention)


class _Functions(TorchFunctionMode):
    def __init__(self, names: set[str]) -> None:
        super().__init__()
        self.names = names

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.names.add(str(getattr(func, "__name__", None) or func))
        return func(*args, **(kwargs or {}))


class _Operators(TorchDispatchMode):
    supports_higher_order_operators = True

    def __init__(self, names: set[str]) -> None:
        super().__init__()
        self.names = names

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        from torch._ops import HigherOrderOperator

        if isinstance(func, HigherOrderOperator):
            self.names.add(HOP_PREFIX + str(func.name()))
            raise NotImplementedError(f"a higher-order operator ({func.name()}) is not graded")
        self.names.add(str(func.name()))
        return func(*args, **(kwargs or {}))


class OperatorTrace:
    """``with OperatorTrace() as trace:`` records what torch runs inside; then ``trace.names`` (the
    functions' and operators' names) and ``trace.intact`` (whether both recorders were still on
    torch's mode stacks at the end)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.intact = True
        self._functions, self._operators = _Functions(self.names), _Operators(self.names)

    def __enter__(self) -> OperatorTrace:
        self._functions.__enter__()
        self._operators.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.intact = self._operators in _get_current_dispatch_mode_stack() and self._functions in _get_current_function_mode_stack()
        try:
            self._operators.__exit__(kind, error, tb)
        finally:
            self._functions.__exit__(kind, error, tb)


def trace_names(value: Any) -> tuple[frozenset[str], bool]:
    """A trace as the student's process sent it (it is not trusted): its names, and whether it is
    well-formed (a list of at most :data:`MAX_NAMES` names of torch's functions and operators)."""
    if not isinstance(value, list) or len(value) > MAX_NAMES or not all(isinstance(n, str) and _NAME.fullmatch(n) for n in value):
        return frozenset(), False
    return frozenset(value), True
