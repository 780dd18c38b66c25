"""What actually executes: the operators torch ran during a hidden call, recorded at its dispatcher,
and the modules the student's code imported and the programs it started, recorded by an audit hook.

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

The student's own imports and programs (:class:`Conduct`): an import by any spelling
(``import``, ``importlib.import_module``, ``__import__`` reached through ``getattr`` on ``builtins``,
code compiled from a string) raises Python's ``import`` audit event, and so does every way of
starting a program or loading C code (:data:`PROGRAM_EVENTS`). An audit hook, which Python does not
let the process remove, records those whose nearest frame outside the import machinery is the
notebook's code (a cell, or code it compiled from a string), not a library's own lazy import; the
worker holds a part that imports what its rules refuse, as the source scan does for what is written.

Both records are made in the student's process, which may tamper with them; so they are evidence,
not verdicts. A trace whose recorder was no longer on torch's mode stacks when the call ended, or one
that a part with forbidden operators returned empty, is evidence in itself (``tampered``).
"""

from __future__ import annotations

import os
import re
import sys
from types import FrameType, TracebackType
from typing import Any

from torch._ops import HigherOrderOperator
from torch.overrides import TorchFunctionMode, _get_current_function_mode_stack
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode_stack

__all__ = [
    "Conduct",
    "HOP_PREFIX",
    "MAX_EVENTS",
    "MAX_NAMES",
    "OperatorTrace",
    "PROGRAM_EVENTS",
    "conduct_events",
    "trace_names",
]

HOP_PREFIX = "hop:"  # how a higher-order operator is named in a trace
MAX_NAMES = 4096  # names one call's trace may hold; more is tampering
# how torch names its functions and operators (aten::add.Tensor, hop:flex_attention)
_NAME = re.compile(r"[A-Za-z0-9_.:<>-]{1,200}")


class _Functions(TorchFunctionMode):
    def __init__(self, names: set[str]) -> None:
        super().__init__()
        self.names = names
        self.seen: set[Any] = set()

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if func not in self.seen:  # a name is worked out once per function: a loop of small ops stays cheap
            self.seen.add(func)
            self.names.add(str(getattr(func, "__name__", None) or func))
        return func(*args, **(kwargs or {}))


class _Operators(TorchDispatchMode):
    supports_higher_order_operators = True

    def __init__(self, names: set[str]) -> None:
        super().__init__()
        self.names = names
        self.seen: set[Any] = set()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if func not in self.seen:  # once per operator
            if isinstance(func, HigherOrderOperator):
                self.names.add(HOP_PREFIX + str(func.name()))
                raise NotImplementedError(f"a higher-order operator ({func.name()}) is not graded")
            self.seen.add(func)
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
        self.intact = (
            self._operators in _get_current_dispatch_mode_stack()
            and self._functions in _get_current_function_mode_stack()
        )
        try:
            self._operators.__exit__(kind, error, tb)
        finally:
            self._functions.__exit__(kind, error, tb)


def trace_names(value: Any) -> tuple[frozenset[str], bool]:
    """A trace as the student's process sent it (it is not trusted): its names, and whether it is
    well-formed (a list of at most :data:`MAX_NAMES` names of torch's functions and operators)."""
    if (
        not isinstance(value, list)
        or len(value) > MAX_NAMES
        or not all(isinstance(n, str) and _NAME.fullmatch(n) for n in value)
    ):
        return frozenset(), False
    return frozenset(value), True


# Audit events that start a program, load C code or reach memory directly: the student's doing
# whichever frame raised them (the course's code starts no program).
PROGRAM_EVENTS = frozenset(
    {
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "subprocess.Popen",
        "pty.spawn",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "ctypes.cdata",
        "ctypes.cdata/buffer",
        "ctypes.call_function",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.addressof",
        "ctypes.get_errno",
        "ctypes.set_errno",
        "sys.setprofile",
        "sys.settrace",
        "sys._current_frames",
        "gc.get_objects",
        "gc.get_referrers",
    }
)
MAX_EVENTS = 512  # distinct events kept per phase; more is tampering


_CODE = (".py", ".pyc", ".so", ".pyd")
_STDLIB = os.path.dirname(os.__file__) + os.sep  # the standard library's folder (a venv has none of its own)


def _module_of(path: str) -> str | None:
    """The dotted name of the module whose code file ``path`` is, from the ``sys.path`` entry that
    holds it (``.../site-packages/peft/tuners/lora.py``: ``peft.tuners.lora``); None if none does."""
    path = path.replace("\\", "/")
    roots = sorted((str(p).replace("\\", "/").rstrip("/") + "/" for p in sys.path if p), key=len, reverse=True)
    root = next((r for r in roots if path.startswith(r)), None)
    if root is None:
        return None
    parts = [p for p in path[len(root) :].split("/") if p and p != "__pycache__"]
    if not parts:
        return None
    parts[-1] = parts[-1].split(".")[0]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or None


# Packages the notebook's code may load and keep: the standard library's and those every part allows
# (a plot's state, torch's and NumPy's own types, must survive from cell to cell), and the grader's own,
# which this process runs (its import is the scan's evidence).
KEPT = frozenset(
    {*sys.stdlib_module_names, "torch", "numpy", "matplotlib", "PIL", "IPython", "typing_extensions", "course_grading"}
)


def _forget(packages: set[str]) -> None:
    """Unload the packages the notebook's code loaded, but :data:`KEPT`: a module is loaded once, and
    the next phase that imports it (another part's code) loads it again, so that its import is seen
    there too. What the notebook bound to the old modules keeps working."""
    for package in packages - KEPT:
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]


def _in_stdlib(filename: str) -> bool:
    """Whether a frame's file is the standard library's own (not a package installed beside it)."""
    return filename.startswith(_STDLIB) and "site-packages" not in filename and "dist-packages" not in filename


_COURSE_LIB = "/course_lib/"  # the course's library: its own frames end a walk for its modules


def _course_module_code(frame: FrameType) -> bool:
    """Whether a frame whose file is the course library's runs one of its modules' own code: its globals are the
    namespace of a loaded ``course_lib`` module (code the notebook compiled under a course_lib file name runs in
    a namespace of its own: attacks_p)."""
    if frame.f_code.co_filename.startswith("<"):
        return True  # the notebook's own code: where the walk ends
    name = frame.f_globals.get("__name__")
    if not isinstance(name, str) or not (name == "course_lib" or name.startswith("course_lib.")):
        return False
    return getattr(sys.modules.get(name), "__dict__", None) is frame.f_globals


def _other_library(filename: str) -> bool:
    """Whether a frame's file is code on disk other than the course's library's (the grader's included: code
    that calls its functions from a cell is the notebook's doing)."""
    path = filename.replace("\\", "/")
    return not path.startswith("<") and _COURSE_LIB not in path


def _machinery(filename: str) -> bool:
    """Whether a frame's file is Python's import machinery (``importlib`` and its frozen bootstrap)."""
    return filename.startswith("<frozen importlib") or filename.replace("\\", "/").endswith("/importlib/__init__.py")


class Conduct:
    """``sys.addaudithook(conduct.hook)`` once, in the student's process: then :meth:`drain` gives
    the ``[kind, name, where]`` events since the last drain: ``["import", module, cell]`` for a module
    loaded (first imported) from the notebook's code, ``["program", event, ""]``; ``where`` is the cell
    whose code imported (``""``: code compiled from a string)."""

    def __init__(self) -> None:
        self.events: set[tuple[str, str, str]] = set()

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "import":  # an import statement (or __import__) of a module not loaded yet
            if args and isinstance(args[0], str):
                # the standard library imports only its own modules unless a caller names another (pickle,
                # importlib, contextlib calling import_module): walk past it for any other module
                stdlib = args[0].partition(".")[0] in sys.stdlib_module_names
                course = args[0] == "course_lib" or args[0].startswith("course_lib.")
                if (where := self._from_notebook(not stdlib, course)) is not None:
                    self._add("import", args[0], where)
        elif event == "open" and args and isinstance(args[0], str) and args[0].endswith(_CODE):
            # importlib.import_module raises no import event: the loader opening the module's code does
            stdlib = _in_stdlib(args[0])
            course = _COURSE_LIB in args[0].replace("\\", "/")
            if (where := self._from_notebook(not stdlib, course)) is not None:
                self._add("code", args[0], where)
        elif event in PROGRAM_EVENTS and (where := self._from_notebook(through_stdlib=True)) is not None:
            self._add("program", event, where)

    def _add(self, kind: str, name: str, where: str) -> None:
        if len(self.events) < MAX_EVENTS:
            self.events.add((kind, name if kind == "code" else name[:200], where[:200]))

    @staticmethod
    def _from_notebook(through_stdlib: bool = False, through_libraries: bool = False) -> str | None:
        """The cell whose code the nearest frame outside the import machinery runs (``""`` for code compiled
        from a string), or None for a library's own file (matplotlib starting a font tool). ``through_stdlib``
        walks past the standard library's frames too (``contextlib`` or ``pickle`` importing for the notebook);
        ``through_libraries`` past every file's but the course library's own (only the course's library is looked
        for so: no other library or grader code imports it, so whatever did was asked to)."""
        try:
            frame: FrameType | None = sys._getframe(2)  # 0: this function, 1: the hook, 2: the code that imports
        except ValueError:
            return None
        while frame is not None and (
            _machinery(frame.f_code.co_filename)
            or (through_stdlib and _in_stdlib(frame.f_code.co_filename))
            or (through_libraries and _other_library(frame.f_code.co_filename))
            or (through_libraries and not _course_module_code(frame))
        ):
            frame = frame.f_back
        if frame is None:
            return None
        name = frame.f_code.co_filename
        if name.startswith("<cell ") and name.endswith(">"):
            return name[len("<cell ") : -1]
        return "" if name.startswith("<") and not name.startswith("<frozen") else None

    def drain(self) -> list[list[str]]:
        """The events since the last drain; an import only if the module loaded (one that does not
        exist brought in no code), a code file opened as the module that holds it."""
        events, self.events = sorted(self.events), set()
        opened = {name for kind, name, _ in events if kind == "code"}
        modules: dict[str, str] = {}
        if opened:
            for module_name, loaded in list(sys.modules.items()):
                for attribute in ("__file__", "__cached__"):
                    if isinstance(path := getattr(loaded, attribute, None), str) and path in opened:
                        modules[path] = module_name
        drained = set()
        for kind, name, where in events:
            if kind == "code":
                module = modules.get(name) or _module_of(name)
                if module:
                    drained.add(("import", module[:200], where))
            elif kind != "import" or name in sys.modules:
                drained.add((kind, name, where))
        _forget({name.partition(".")[0] for kind, name, _ in drained if kind == "import"})
        return [list(e) for e in sorted(drained)]


def conduct_events(value: Any) -> tuple[frozenset[tuple[str, str, str]], bool]:
    """Events as the student's process sent them (not trusted): the ``(kind, name, where)`` triples,
    and whether they are well-formed (a missing list is well-formed and empty)."""
    if value is None:
        return frozenset(), True
    if not isinstance(value, list) or len(value) > MAX_EVENTS:
        return frozenset(), False
    found = set()
    for item in value:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and item[0] in ("import", "program")
            and all(isinstance(i, str) for i in item)
        ):
            return frozenset(), False
        if not _NAME.fullmatch(item[1]) or not (item[2] == "" or _NAME.fullmatch(item[2])):
            return frozenset(), False
        found.add((item[0], item[1], item[2]))
    return frozenset(found), True
