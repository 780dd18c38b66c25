"""Forbidden shortcuts, found by reading the submitted source in the trusted grader.

A part may forbid library functions (a1's attention must not call PyTorch's) or, as in a6, every
library outside a short list (LoRA must not come from a fine-tuning library). The student's process
refuses the forbidden functions while a check calls the part (:func:`course_grading.sandbox.calls.call_in`),
but code in that process can get round any refusal made there: a reference saved before the check
(a default argument), another name for the same kernel (``torch._C._nn``, ``torch.ops.aten``), or
the check switched off through ``sys.modules``. So the trusted worker also reads the answer cells
(:func:`review`) and looks, for each part with :class:`Rules`, for evidence that it may take such a
route:

* a mention of a forbidden function's name (lower-cased, underscores dropped: ``LayerNorm`` is
  ``layer_norm``) in an attribute, an import, a string, or a name the notebook never defines;
* a private or low-level torch namespace (``torch._C``, ``torch.ops``, an ``_attribute`` of
  anything but ``self``, ``_native_`` kernels, ``torch.jit``, loaders that unpickle);
* an attribute looked up by a computed name (``getattr``, ``setattr``, ``vars``, a star import);
* code or imports by a computed name, or the interpreter's insides (``eval``, ``exec``,
  ``compile``, ``__import__``, ``importlib``, ``globals()``, ``sys``, ``__dict__``,
  ``__builtins__`` and the other dunders but a few harmless ones);
* code the scan cannot read brought in (:data:`SMUGGLE`, :data:`SMUGGLING_MODULES`): a change of
  where imports are found (``sys.path``, any part of ``sys`` but a few plain ones), a file written
  (``open`` in a write mode, ``Path.write_text``, ``os.write`` and the rest of :data:`OS_WRITES`),
  hidden bytes decoded (``bytes.fromhex``, ``base64``, ``zlib``, ``pickle``), ``torch.hub``,
  ``runpy``, ``ctypes``;
* an import of a module outside the part's allow-list, and of the course's own library
  (``course_lib``, which holds working versions of many parts) in every part, unless the release's
  own cells import that module.

What counts for a part: its own answer cell, whole; the code every answer cell and every code cell
the student added (``student-cell-N`` in the canonical notebook, read as answer cells are, no part's
own) runs when the notebook runs (all but the bodies of functions and classes: it can change what
any part runs); and what those name, followed from name to name: the bodies of functions and classes, and top-level
lines that only bind a name (``import``, ``_f = F.softmax``), found through the names they bind (an import counts where
its name is used, and in its own cell). A helper defined in another cell and called by the part is read with it; a
function that a correct version replaces while the part is graded (:attr:`Rules.replaced`) is not, where it is looked up
when the part runs. A cell that does not parse is searched as text, and counts for every part.
Every part, whatever its rules, is held for code that reaches into the interpreter (frames, globals, code from a
string) or that the scan cannot read (a file written, hidden bytes decoded): such code can change what the part's own
process reports (its random state, its inputs after the call). A part without declared rules gets
:data:`COURSE_RULES`: besides that, the course's library alone is refused there (imported, or named in a string).
IPython syntax (``%matplotlib inline``, ``!pip``) is read as the student's process runs it: a call of the grader's
``get_ipython()``, which skips every magic and command (:data:`SHELL_CALLS`), is no evidence unless the notebook binds
``get_ipython`` itself.

Static reading is a filter, not a proof: a part with evidence is not failed, it is *held*. Its
test cell gets an error (so it scores 0 in nbgrader's gradebook too) saying that an instructor will
look, and the submission gets the note ``needs review: <part>: <evidence>``; the instructor grants
the points in ``overrides.csv`` when the code is fine.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import re
import symtable
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import nbformat

from course_grading.markers import defined_names, is_answer, is_own, is_test, nbgrader_meta, part_of

# the student's process runs a cell's IPython syntax as this Python, on this shell
from course_grading.sandbox.student_server import _python, stand_ins
from course_grading.sandbox.trace import HOP_PREFIX
from course_grading.text import shown, source_lines

__all__ = [
    "COURSE_RULES",
    "Evidence",
    "OPERATOR_FAMILIES",
    "TRACED",
    "Rules",
    "STANDARD_IMPORTS",
    "TORCH_ATTENTION",
    "TORCH_NORMS",
    "evidence_by_part",
    "normalised",
    "note",
    "conducted",
    "review",
    "traced",
    "withhold",
]

# PyTorch's ways to compute what the attention parts ask for (a name that contains one counts:
# "Transformer" is every transformer layer, each holding a MultiheadAttention).
TORCH_ATTENTION = (
    ("torch.nn.functional", "scaled_dot_product_attention"),
    ("torch.nn.functional", "multi_head_attention_forward"),
    ("torch.nn", "MultiheadAttention"),
    ("torch.nn", "Transformer"),
)
# Every normalisation layer of PyTorch's, each of which computes LayerNorm or RMSNorm on a reshaped input (an
# instance norm of (1, N, d), a group norm of one group, the RMS norm of the centred input, a local response
# norm whose window spans the features: attacks_n). The whole family, not the ones someone tried:
# tests/test_shortcuts.py holds it to every ``*_norm`` of torch.nn.functional and every ``*Norm*``/``*LRN*``
# module of torch.nn.
TORCH_NORMS = (
    ("torch.nn.functional", "layer_norm"),
    ("torch.nn", "LayerNorm"),
    ("torch.nn.functional", "group_norm"),
    ("torch.nn", "GroupNorm"),
    ("torch.nn.functional", "instance_norm"),
    ("torch.nn", "InstanceNorm1d"),
    ("torch.nn.functional", "batch_norm"),
    ("torch.nn", "BatchNorm1d"),
    ("torch.nn.functional", "rms_norm"),
    ("torch.nn", "RMSNorm"),
    ("torch.nn.functional", "local_response_norm"),
    ("torch.nn", "LocalResponseNorm"),
    ("torch.nn", "CrossMapLRN2d"),
)
# What the assignments' answers may import where a part has rules (the modules and their
# submodules): those an honest answer needs, a few that files and the network go through (what
# they can do is the jail's business), and plotting; none of them implements a part, turns a
# string into code or an attribute, or reaches Python's objects. What is dangerous in those that
# are allowed is looked for by name (``sys.modules``, ``sys.path``, ``os.write``, ``torch.ops``, ``np.load``, ...).
NEEDED_IMPORTS = (
    "__future__",
    "math",
    "cmath",
    "numbers",
    "numpy",
    "torch",
    "re",
    "fnmatch",
    "itertools",
    "collections",
    "functools",
    "typing",
    "dataclasses",
    "copy",
    "enum",
    "heapq",
    "bisect",
    "random",
    "statistics",
    "warnings",
)
# numpy stays: honest answers use it, it computes none of torch's forbidden functions, and its doors
# to code (``np.load(allow_pickle=True)``, ``np.ctypeslib``, ``np.lib``, ``savetxt``) are found by name.
HARMLESS_IMPORTS = ("sys", "os", "glob", "json", "time", "pathlib", "io", "socket", "textwrap", "pprint")
# Modules whose ``compile`` compiles a pattern, not code (``re.compile(fnmatch.translate(p))``).
PATTERN_MODULES = ("re", "regex")
# Plots, progress bars and rich display, which notebooks import out of habit.
DISPLAY_IMPORTS = ("matplotlib", "tqdm", "IPython.display")
STANDARD_IMPORTS = NEEDED_IMPORTS + HARMLESS_IMPORTS + DISPLAY_IMPORTS
# The course's library: working versions of many parts (masks, heads, sampling, LoRA, ...).
COURSE_LIBRARY = "course_lib"
# Modules whose use brings in code the scan cannot read: raw memory, copied or written files, other processes,
# modules found by name, hidden bytes decoded.
SMUGGLING_MODULES = (
    "ctypes",
    "shutil",
    "subprocess",
    "tempfile",
    "runpy",
    "site",
    "zipimport",
    "pkgutil",
    "importlib",
    "base64",
    "binascii",
    "codecs",
    "zlib",
    "bz2",
    "lzma",
    "gzip",
    "zipfile",
    "tarfile",
    "marshal",
    "pickle",
    "shelve",
    "dill",
    "cloudpickle",
    "urllib",
    "http",
)
# Modules that hand out the interpreter's own objects without a word the scan looks for (every object, a function's
# globals, code run from a string, an object by its dotted name, signal handlers and threads), through which code
# reaches the grader's functions in the student's process and what they report (attacks_v). Imported in any part,
# whatever its rules: evidence. (``types``, ``traceback``, ``weakref``, ``builtins``: what they give needs a dunder, a
# frame's attribute or a lookup the scan finds by name.)
INTERPRETER_MODULES = (
    "gc",
    "inspect",
    "pydoc",
    "unittest",
    "code",
    "codeop",
    "tracemalloc",
    "faulthandler",
    "threading",
    "_thread",
    "multiprocessing",
    "concurrent",
    "asyncio",
    "signal",
    "ctypes",
    "importlib",
    "pkgutil",
    "runpy",
    "course_grading",
)
# What an answer may use of ``sys`` (where imports are found, the table of modules, frames, hooks:
# the rest; its name passed around counts as the rest), and what it may not of ``os`` (what writes
# files, changes the folder imports are found in, or starts programs; its name passed around too).
PLAIN_SYS = frozenset(
    {
        "stdout",
        "stderr",
        "stdin",
        "argv",
        "setrecursionlimit",
        "version",
        "version_info",
        "platform",
        "maxsize",
        "float_info",
        "int_info",
        "byteorder",
        "exit",
        "getsizeof",
        "getrecursionlimit",
        "hexversion",
        "float_repr_style",
    }
)
OS_WRITES = frozenset(
    {
        "open",
        "write",
        "writev",
        "pwrite",
        "pwritev",
        "fdopen",
        "system",
        "popen",
        "symlink",
        "link",
        "rename",
        "renames",
        "replace",
        "chdir",
        "fchdir",
        "mkfifo",
        "mknod",
        "truncate",
        "ftruncate",
        "sendfile",
        "copy_file_range",
        "memfd_create",
        "fork",
        "forkpty",
    }
)
# Attributes that write files, decode hidden code, or fetch code (``torch.hub``).
SMUGGLE = frozenset(
    {
        "write_text",
        "write_bytes",
        "savetxt",
        "tofile",
        "symlink_to",
        "hardlink_to",
        "fromhex",
        "unhexlify",
        "b64decode",
        "b32decode",
        "b16decode",
        "a85decode",
        "b85decode",
        "decompress",
        "hub",
        "load_state_dict_from_url",
        "get_ipython",
        "run_cell",
        "run_line_magic",
        "run_cell_magic",
    }
)

# Harmless dunders an answer may name (``super().__init__()``, ``type(x).__name__``).
PLAIN_DUNDERS = frozenset(
    {
        "__init__",
        "__name__",
        "__qualname__",
        "__class__",
        "__call__",
        "__len__",
        "__repr__",
        "__str__",
        "__doc__",
        "__version__",
        "__post_init__",
        "__iter__",
        "__next__",
        "__getitem__",
        "__setitem__",
        "__contains__",
        "__enter__",
        "__exit__",
        "__eq__",
        "__hash__",
        "__bool__",
        "__future__",
        # the data model's operators and conversions, which a class defines to be compared, sorted or added
        *(f"__{op}__" for op in ("lt", "le", "gt", "ge", "ne", "neg", "pos", "abs", "invert", "round", "trunc")),
        *(f"__{op}__" for op in ("floor", "ceil", "int", "float", "complex", "index", "format", "bytes", "reversed")),
        *(f"__{op}__" for op in ("delitem", "missing", "slots", "module", "annotations", "hash", "sizeof")),
        *(
            f"__{side}{op}__"
            for op in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor")
            for side in ("", "r", "i")
        ),
        *(f"__{side}{op}__" for op in ("lshift", "rshift", "divmod") for side in ("", "r", "i")),
    }
)
# Attributes that open torch's (or numpy's) low-level doors: kernels by other names, compilers,
# loaders that unpickle (a pickle names a function by a string), the registry of every function.
BACKDOORS = frozenset(
    {
        "ops",
        "jit",
        "fx",
        "library",
        "overrides",
        "serialization",
        "cpp_extension",
        "compiler",
        "export",
        "package",
        "onnx",
        "load",
        "loads",
        "lib",
        "utils",
        "ctypeslib",
    }
)
# Modules reached as an attribute of another (``torch.sys``): the interpreter's insides.
INTERPRETER = frozenset(
    {
        "sys",
        "os",
        "builtins",
        "importlib",
        "inspect",
        "gc",
        "ctypes",
        "types",
        "operator",
        "pickle",
        "marshal",
        "runpy",
        "pkgutil",
    }
)
# The builtin classes whose one positional class pattern matches the subject itself (``case int(n)``), not an
# attribute: every other class's positional patterns read the attributes its ``__match_args__`` names.
SELF_MATCHING = frozenset(
    {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"}
)
# Attribute lookups by a computed name, and the table of every loaded module (``sys.modules``).
LOOKUP_WORDS = frozenset(
    # ``__dict__`` is ``vars``: a lookup by a computed name, as much a way round a refused function, no more
    {"getattr", "setattr", "delattr", "vars", "__dict__", "attrgetter", "methodcaller", "get_field", "modules"}
)
# Code run from a string (an annotation evaluated, a pickle loaded), imports by name, and the
# interpreter's own tables: frames and their globals, import hooks, tracing.
CODE_WORDS = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "__import__",
        "import_module",
        "globals",
        "locals",
        "breakpoint",
        "get_type_hints",
        "ForwardRef",
        "singledispatch",
        "singledispatchmethod",
        "allow_pickle",
        "weights_only",
        "meta_path",
        "path_hooks",
        "path_importer_cache",
        "settrace",
        "setprofile",
        "addaudithook",
        "_getframe",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_back",
        "tb_frame",
        "gi_frame",
        "cr_frame",
        "ag_frame",
    }
)

WHAT = {
    "forbidden": "names a library function this part must write itself",
    "private": "reaches a private or low-level namespace (torch._C, torch.ops, a loader, a compiler)",
    "lookup": "looks up attributes by a computed name",
    "reach": "reaches into a library module's own namespace (sys.modules, a module looked up by a computed name, a "
    "module's private attribute)",
    "code": "runs code or imports by a computed name, or reaches into the interpreter",
    "import": "imports a module this assignment does not allow",
    "smuggle": "may bring in code the scan cannot read (writes a file, changes where imports are found, decodes hidden "
    "bytes)",
    "operator": "ran a forbidden operator during a hidden call (recorded at torch's dispatcher)",
    "tampered": "left or tampered with the operator recorder during a hidden call (or ran no operator at all)",
    "loaded": "imported, while the notebook ran, a module this part may not use (recorded by the audit hook)",
    "started": "started a program or reached C code while the notebook ran (recorded by the audit hook)",
    "changed": "changed, while the notebook ran, a function or class of Python, torch or the grader that the grader's "
    "code in the notebook's process relies on (an attribute replaced, a builtin rebound, a function's code)",
}
# the kinds of evidence that come from a trace, not from the source
TRACED = ("operator", "tampered", "loaded", "started", "changed")
# The operators each forbidden function ends in, at torch's dispatcher or as the torch function called
# (sandbox.trace): a pattern searched in every name of a part's trace. Every spelling of the function
# (an alias, torch.ops.aten, torch._C, a module that wraps it, flexible attention) runs one of them.
OPERATOR_FAMILIES = {
    "scaleddotproductattention": r"attention",
    "multiheadattentionforward": r"attention",
    "multiheadattention": r"attention",
    "transformer": r"attention|transformer",
    "layernorm": r"layer_?norm",
    "groupnorm": r"group_?norm",
    "instancenorm": r"instance_?norm",
    "batchnorm": r"batch_?norm",
    "rmsnorm": r"rms_?norm",
}
# What IPython syntax becomes a call of on ``get_ipython()``: the grader's shell answers each by skipping it.
SHELL_CALLS = frozenset(name for name in vars(stand_ins()["get_ipython"]) if not name.startswith("_"))
MAX_LINE = 120  # characters of a flagged line quoted in a note
# The region of what a definition's defaults and annotations name, beside the definition's own (``name`` + this)
AT_DEFINITION = "\0at definition"
MAX_SHOWN = 3  # pieces of evidence quoted per part


def normalised(name: str) -> str:
    """A name as compared with the forbidden ones: NFKC (as Python reads identifiers), lower case, no underscores."""
    return unicodedata.normalize("NFKC", name).lower().replace("_", "")


@dataclass(frozen=True)
class Rules:
    """What one part must not use: library functions (``(module, name)``; every name that contains
    one, once :func:`normalised`, counts as it), and the modules its code may import. ``replaced``:
    the notebook's functions that correct versions stand in for while the part is graded (the
    assignment's ``REFERENCE_PARTS``, when its check passes them): where the part's code calls them
    by name, it never runs the student's (unless the part defines them itself)."""

    forbid: tuple[tuple[str, str], ...] = ()
    # None: any module but the course's library (and code that reaches into the interpreter, as for every part)
    imports: tuple[str, ...] | None = STANDARD_IMPORTS
    replaced: tuple[str, ...] = ()

    def keys(self) -> frozenset[str]:
        return frozenset(normalised(name) for _, name in self.forbid)

    def operators(self) -> re.Pattern[str] | None:
        """What a forbidden function runs, as one pattern over a trace's names (:data:`OPERATOR_FAMILIES`;
        higher-order operators too); None for a part that forbids no function."""
        if not self.forbid:
            return None
        # a key is normalised (no underscores); a trace's names keep theirs (aten::local_response_norm): any letter
        # of a key may be followed by one (attacks_u: "localresponsenorm" never matched "local_response_norm")
        families = sorted({OPERATOR_FAMILIES.get(key, "_?".join(map(re.escape, key))) for key in self.keys()})
        return re.compile("|".join([*families, re.escape(HOP_PREFIX)]), re.IGNORECASE)

    def allows_import(self, module: str) -> bool:
        if _within(module, (COURSE_LIBRARY,)):
            return False
        return self.imports is None or _within(module, self.imports)


def _within(module: str, packages: Iterable[str]) -> bool:
    """Whether ``module`` is one of ``packages`` or in one of them."""
    return any(module == package or module.startswith(package + ".") for package in packages)


# A part without declared rules: any module but the course's library (by an import, or named in a
# string: ``__import__('course_lib.attention')``), and, as in every part, no code that reaches into the interpreter or
# that the scan cannot read (:meth:`Evidence.breaks`); nothing else counts (the grader's own defences do).
COURSE_RULES = Rules(imports=None)


@dataclass(frozen=True)
class Evidence:
    """One sign that code may take a forbidden route: where, what kind, and the word or module."""

    cell: str
    line: int
    kind: str  # a key of WHAT
    key: str  # forbidden: the normalised token; import: the module; otherwise the word found
    text: str  # the line, shortened

    def breaks(self, rules: Rules) -> bool:
        if self.kind == "forbidden":
            return any(key in self.key for key in rules.keys())
        if self.kind in ("import", "loaded") and _within(self.key, INTERPRETER_MODULES):
            return True
        if self.kind == "import":
            return not rules.allows_import(self.key)
        if self.kind in ("operator", "tampered"):
            return bool(rules.forbid)
        if self.kind == "loaded":
            return not rules.allows_import(self.key)
        if self.kind == "started":
            return rules.imports is not None
        if self.kind in ("code", "smuggle", "reach", "changed"):
            # every part, whatever it forbids: the interpreter's insides (frames, globals, code from strings), code the
            # scan cannot read and a library module's own namespace reach the grader's functions in the student's
            # process, and so what the part's process reports (attacks_v: the random state said unmoved through
            # display.__globals__; attacks_w: through getattr(torch, "sys").modules in a part that forbids nothing)
            return True
        if rules.imports is None:
            return False
        return bool(rules.forbid)  # private, lookup: the ways round a refused function

    def describe(self) -> str:
        key = self.key if len(self.key) <= 40 else self.key[:39] + "…"
        if self.kind in TRACED:
            return f"{WHAT[self.kind]} ({key})"
        return f"cell {self.cell}, line {self.line}: {WHAT[self.kind]} ({key}): {self.text}"

    def shown_to_student(self) -> str:
        """What the student's feedback says of it: a trace's names came from the student's process
        during hidden calls, so only the kind is shown; the source's evidence is the student's own code."""
        return WHAT[self.kind] if self.kind in TRACED else self.describe()


# ----------------------------------------------------------------------------- reading a cell

TOP = ""  # the region of code that runs when the cell runs; a definition's body has its name
# Expressions that only name things: ``_f = F.softmax`` runs nothing, it binds ``_f``.
_NAMING = (ast.Name, ast.Attribute, ast.Constant, ast.Tuple, ast.List, ast.expr_context)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Decorators that return what they are given, wrapped or changed, and keep it nowhere else (the library's and the
# language's): a definition made with others is used by the code the cell runs (a registry may keep it under no name:
# attacks_w's ``typing.overload``). Matched by the name the decorator ends in; one that names the notebook's own
# names is never plain.
PLAIN_DECORATORS = frozenset(
    {
        "staticmethod",
        "classmethod",
        "property",
        "setter",
        "getter",
        "deleter",
        "abstractmethod",
        "dataclass",
        "wraps",
        "cache",
        "lru_cache",
        "cached_property",
        "total_ordering",
        "contextmanager",
        "no_grad",
        "enable_grad",
        "inference_mode",
        "set_grad_enabled",
        "final",
        "override",
        "unique",
    }
)


def _written_into(targets: Sequence[ast.expr]) -> Iterator[ast.expr]:
    """The targets an assignment or deletion writes into, inside tuples, lists and starred ones; not the expressions
    that index them (``mask[torch.randperm(n)[:k]] = True`` writes into ``mask``, not into ``torch``)."""
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _written_into(target.elts)
        elif isinstance(target, ast.Starred):
            yield from _written_into([target.value])
        else:
            yield target


def _run_at_creation(node: ast.ClassDef) -> Iterator[ast.AST]:
    """The code that runs as the class statement ``node`` runs, and is handed the class or what its body defines:
    decorators, bases and keywords (a metaclass, a base's ``__init_subclass__``), and the body but the bodies of its
    functions (their decorators and defaults run), nested classes read the same way."""
    yield from (*node.decorator_list, *node.bases, *node.keywords)
    for statement in node.body:
        if isinstance(statement, ast.ClassDef):
            yield from _run_at_creation(statement)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from (*statement.decorator_list, *statement.args.defaults, *filter(None, statement.args.kw_defaults))
        else:
            yield statement


def _decorators_at_creation(node: ast.ClassDef) -> Iterator[ast.expr]:
    """The decorators that run as the class statement ``node`` runs: its own, its methods', its nested classes'."""
    yield from node.decorator_list
    for statement in node.body:
        if isinstance(statement, ast.ClassDef):
            yield from _decorators_at_creation(statement)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from statement.decorator_list


def _last_name(expression: ast.expr) -> str:
    """The name a decorator ends in: ``torch.no_grad()`` -> ``no_grad``, ``x.setter`` -> ``setter`` ('' for another
    form, which no plain decorator has)."""
    if isinstance(expression, ast.Call):
        expression = expression.func
    if isinstance(expression, ast.Attribute):
        return expression.attr
    return expression.id if isinstance(expression, ast.Name) else ""


def _printable(line: str) -> str:
    """A source line fit for a note: stripped, shortened, every control, bidi and zero-width character
    (and lone surrogate) written as a visible escape (:func:`course_grading.text.shown`)."""
    line = shown(line.strip())
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _folded(node: ast.AST) -> str | None:
    """The string a concatenation of string constants makes (``'scaled_dot_' + 'product'``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        return node.value if isinstance(node.value, str) else node.value.decode("latin-1")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _folded(node.left), _folded(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):  # the parts known before it runs
        parts = [_folded(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values]
        return "".join(part for part in parts if part is not None)
    return None


def _plain(module: str, attr: str) -> bool:
    """Whether ``sys.<attr>`` or ``os.<attr>`` is a plain use (see :data:`PLAIN_SYS`, :data:`OS_WRITES`)."""
    if module == "sys":
        return attr in PLAIN_SYS
    return attr not in OS_WRITES and not attr.startswith(("exec", "spawn", "posix_spawn"))


def _may_write(call: ast.Call, builtin: bool) -> bool:
    """Whether a call of ``open`` (the builtin's ``(file, mode)``; a method's ``(mode)`` as in
    ``Path.open`` or ``(file, mode)`` as in ``io.open``) may write: a mode that writes, or one computed."""
    modes = [*call.args[1:2], *(k.value for k in call.keywords if k.arg in ("mode", None))]
    first = call.args[0] if call.args else None
    if (
        not builtin
        and isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and _MODE.fullmatch(first.value)
    ):
        modes.append(first)
    if any(isinstance(argument, ast.Starred) for argument in call.args):
        return True
    return any(
        not (isinstance(m, ast.Constant) and isinstance(m.value, str)) or bool(_WRITES.search(m.value)) for m in modes
    )


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


class _Reader(ast.NodeVisitor):
    """Evidence in one parsed cell, each piece with its region, and the names each region uses."""

    def __init__(
        self,
        cell: str,
        lines: list[str],
        keys: frozenset[str],
        bound: set[str],
        modules: dict[str, str],
        imported: frozenset[str] = frozenset(),
        own_attributes: frozenset[str] = frozenset(),
        definitions: frozenset[str] = frozenset(),
    ) -> None:
        self.cell, self.lines, self.keys, self.bound = cell, lines, keys, bound
        self.definitions = definitions  # the names the notebook binds by def or class statements alone
        # the attributes the notebook's classes give themselves (self._cache = ..., a method _helper): read on self
        # or cls, theirs; any other private or low-level attribute read there is torch's as much as anyone's, since
        # self is whatever the caller passes (attacks_u: def f(self): return self._C, called as f(torch))
        self.own_attributes = own_attributes
        self.imported = imported  # the names an import statement of the notebook binds (torch, F, np)
        # names bound to harmless modules, whose private attributes (os._exit) are theirs
        self.plain_modules = set(modules)
        self.modules = modules
        # only some of their parts are plain
        self.guarded = {name: module for name, module in modules.items() if module in ("sys", "os")}
        self.plain_uses: set[int] = set()  # the guarded names (and ``open``) found in a plain use
        # the names and attributes of calls of the grader's shell (a magic), which run nothing
        self.shell: set[int] = set()
        self.region = TOP
        self.owner: str | None = None  # the top-level class whose body is being read
        self.binding: tuple[str, ...] = ()  # the names a top-level import or naming assignment binds
        self.found: list[tuple[str, Evidence]] = []
        self.uses: dict[str, set[str]] = {}
        self.local_names: set[str] = set()  # the names the function being read binds itself
        self.docstrings: set[int] = set()
        self.called: set[int] = set()  # the attributes called at once (model.modules(), not sys.modules)

    def add(self, node: ast.AST, kind: str, key: str) -> None:
        """Evidence, in the current region; in a binding (an import too), the regions of the names bound."""
        line = getattr(node, "lineno", 1)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        evidence = Evidence(self.cell, line, kind, key, _printable(text))
        for region in self.binding or (self.region,):
            self.found.append((region, evidence))

    @contextlib.contextmanager
    def bound_to(self, names: list[str]) -> Iterator[None]:
        """Read a top-level statement that only binds ``names`` as the definition of those names."""
        if self.region != TOP or self.owner is not None or not names:
            yield
            return
        self.binding = tuple(names)
        try:
            yield
        finally:
            self.binding = ()

    def mention(self, node: ast.AST, word: str) -> None:
        token = normalised(word)
        if any(key in token for key in self.keys):
            self.add(node, "forbidden", token)
        if "_native_" in word:
            self.add(node, "private", word)

    def text(self, node: ast.AST, text: str) -> None:
        """A string: what it names, but the notebook's own names (an error message may name the
        student's function, which shares torch's name); a matplotlib backend named by module."""
        self.mention(node, re.sub(r"\w+", lambda word: " " if word.group() in self.bound else word.group(), text))
        if text.startswith("module://"):
            self.add(node, "code", "module://")
        if normalised(COURSE_LIBRARY) in normalised(text):
            self.add(node, "import", COURSE_LIBRARY)

    def word(self, node: ast.AST, word: str) -> None:
        """What a name or attribute says by itself: a dynamic tool, a dunder, a smuggler."""
        if word in SMUGGLE:
            self.add(node, "smuggle", word)
        if word in LOOKUP_WORDS:
            self.add(node, "lookup", word)
        elif word in CODE_WORDS or (_is_dunder(word) and word not in PLAIN_DUNDERS):
            self.add(node, "code", word)

    # -- regions: a definition's body runs when its name is called, the rest when the cell runs

    def visit_Module(self, node: ast.Module) -> None:
        self.docstrings = {
            id(s.value)
            for s in ast.walk(node)
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
        }
        self.generic_visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Decorators run when the definition runs; defaults and annotations too, but one that only
        names something (``_f=F.softmax``) is kept in the function, and read with it (its region's
        :data:`AT_DEFINITION` region): what it names is the object of the time of the definition, the student's own
        even where the grader swaps in the correct one (attacks_u: ``_ln=layer_norm``)."""
        arguments = [
            *node.args.posonlyargs,
            *node.args.args,
            *node.args.kwonlyargs,
            *filter(None, [node.args.vararg, node.args.kwarg]),
        ]
        kept = [
            *node.args.defaults,
            *filter(None, node.args.kw_defaults),
            *filter(None, [a.annotation for a in arguments]),
            *filter(None, [node.returns]),
        ]
        for decorator in node.decorator_list:
            self.visit(decorator)
        if self.region == TOP and self.owner is None and self._hands_out(node.decorator_list, node.decorator_list):
            self.uses.setdefault(TOP, set()).add(node.name)
        saved, saved_locals = self.region, self.local_names
        body = self.region if self.region != TOP else self.owner or node.name
        for expression in kept:
            naming = all(isinstance(n, _NAMING) for n in ast.walk(expression))
            self.region = body + AT_DEFINITION if naming else saved
            self.visit(expression)
        self.region = body
        shared = {name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
        self.local_names = {a.arg for a in arguments} | {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        } - shared
        for statement in node.body:
            self.visit(statement)
        self.region, self.local_names = saved, saved_locals

    def _named_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A definition's own name says what it is, as a name does: ``def __instancecheck__`` hooks a class's
        ``isinstance``, ``def __getattr__`` its attribute reads."""
        if _is_dunder(node.name):
            self.word(node, node.name)
        self._function(node)

    visit_FunctionDef = visit_AsyncFunctionDef = _named_function  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)
        saved = self.owner
        if self.region == TOP and self.owner is None:
            self.owner = node.name  # its methods' bodies run when the class is used
            local = {s.name for s in node.body if isinstance(s, _DEFINITIONS)}
            if self._hands_out(list(_run_at_creation(node)), list(_decorators_at_creation(node)), local):
                self.uses.setdefault(TOP, set()).add(node.name)
        for statement in node.body:
            self.visit(statement)
        self.owner = saved

    def _hands_out(self, code: Sequence[ast.AST], decorators: Sequence[ast.expr], local: Iterable[str] = ()) -> bool:
        """Whether ``code``, run as a definition is made (its decorators; a class's bases, keywords and body), may
        pass the definition to code that keeps it under no name a part uses (attacks_v: ``@_KEEP.append``, a class
        body's ``_KEEP.append(method)``, a metaclass's or a base's hook; attacks_w: ``@typing.overload``, whose
        registry ``typing.get_overloads`` hands it back, ``@warnings.filters.append``): it names something the notebook
        defines (not an import) or one of the class's own definitions (``local``), or it is a decorator but one of
        :data:`PLAIN_DECORATORS`."""
        own = (self.bound - self.imported) | set(local)
        named = any(isinstance(n, ast.Name) and n.id in own for expression in code for n in ast.walk(expression))
        return named or any(_last_name(d) not in PLAIN_DECORATORS for d in decorators)

    def _of_a_module(self, node: ast.expr) -> bool:
        """Whether ``node`` is an imported name, or an attribute of one (``torch``, ``torch.nn``): a module, whose
        namespace holds the modules it imported (``torch.sys``)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.imported and node.id not in self.local_names

    # -- what a node says

    def visit_Assign(self, node: ast.Assign) -> None:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        naming = len(names) == len(node.targets) and all(isinstance(n, _NAMING) for n in ast.walk(node.value))
        self.written(node.targets)
        with self.bound_to(names if naming else []):
            self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.written([node.target])
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.written([node.target])
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        self.written(node.targets)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        """``global kernels`` in a function: the function writes a name every cell's code shares; whoever
        uses that name reaches the function (a kernel kept there by another part's code: attacks_p)."""
        for name in node.names:
            self.uses.setdefault(name, set()).add(self.region)

    def written(self, targets: Sequence[ast.expr]) -> None:
        """What an assignment or deletion writes into: an attribute of an imported module (``torch.save = ...``,
        a library patched for every later caller, the grader's own code in the student's process included) is
        smuggling; a container or object the function does not own (``KERNELS["rms"] = ...``) links its root
        name to the function, as ``global`` does."""
        for node in _written_into(targets):
            root: ast.expr = node
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if node is root or not isinstance(root, ast.Name):
                continue
            if root.id in self.imported and root.id not in self.local_names:
                self.add(node, "smuggle", f"{ast.unparse(node)} assigned")
            elif self.region != TOP and root.id not in self.local_names:
                self.uses.setdefault(root.id, set()).add(self.region)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        self.called.add(id(func))
        self.shell |= {id(part) for part in self.shell_call(node)}
        if isinstance(func, ast.Name) and func.id in LOOKUP_WORDS and func.id not in self.bound:
            if node.args and self._of_a_module(node.args[0]):  # getattr(torch, "s" + "ys")
                self.add(node, "reach", f"{func.id}({ast.unparse(node.args[0])[:40]}, ...)")
        builtin = isinstance(func, ast.Name) and func.id == "open" and func.id not in self.bound
        if builtin or (isinstance(func, ast.Attribute) and func.attr == "open"):
            if builtin:
                self.plain_uses.add(id(func))  # called, not kept under another name
            if _may_write(node, builtin):
                self.add(node, "smuggle", "open")
        self.generic_visit(node)

    def shell_call(self, node: ast.Call) -> tuple[ast.AST, ...]:
        """If ``node`` is ``get_ipython().<one of SHELL_CALLS>(...)`` on the grader's own shell (the
        notebook binds no ``get_ipython``), IPython syntax that the student's process skips: the
        attribute and the name it calls; otherwise nothing."""
        func = node.func
        shell = func.value if isinstance(func, ast.Attribute) and func.attr in SHELL_CALLS else None
        if (
            isinstance(shell, ast.Call)
            and not shell.args
            and not shell.keywords
            and isinstance(shell.func, ast.Name)
            and shell.func.id == "get_ipython"
            and "get_ipython" not in self.bound
        ):
            return func, shell.func
        return ()

    def visit_Name(self, node: ast.Name) -> None:
        if id(node) not in self.plain_uses and (
            node.id in self.guarded or (node.id == "open" and node.id not in self.bound)
        ):
            self.add(node, "smuggle", node.id)  # sys or os passed around, open kept under another name
        if isinstance(node.ctx, ast.Load):
            # a binding's names are looked up when the cell runs: TOP uses them too
            for region in {self.region, *self.binding}:
                self.uses.setdefault(region, set()).add(node.id)
            # the notebook's own names are the student's (their part may share a library name)
            if node.id not in self.bound:
                self.mention(node, node.id)
        if id(node) not in self.shell:
            self.word(node, node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        self.mention(node, attr)
        # re.compile is a pattern; a function's or class's own __dict__ (a memo kept on it) holds its attributes
        pattern = (
            attr == "compile"
            and isinstance(node.value, ast.Name)
            and self.modules.get(node.value.id) in PATTERN_MODULES
        )
        own_dict = attr == "__dict__" and isinstance(node.value, ast.Name) and node.value.id in self.definitions
        if not (pattern or own_dict) and id(node) not in self.shell:
            self.word(node, attr)
        # self._cache, os._exit, json.load
        owned = isinstance(node.value, ast.Name) and (
            node.value.id in self.plain_modules
            or node.value.id in ("self", "cls")
            and attr in self.own_attributes
            and attr not in _library_attributes()
        )
        if isinstance(node.value, ast.Name) and node.value.id in self.guarded:
            if _plain(self.guarded[node.value.id], attr):
                self.plain_uses.add(id(node.value))
            else:
                self.add(node, "smuggle", f"{node.value.id}.{attr}")
                self.plain_uses.add(id(node.value))
        on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        private = attr.startswith("_") and not _is_dunder(attr)
        if not owned and (private or attr in BACKDOORS or on_self and attr in _library_attributes()):
            self.add(node, "private", attr)
        elif attr in INTERPRETER:
            self.add(node, "code", attr)
        # a module's own namespace: its private names, the table of modules (a method named modules, called at once, is
        # a module's submodules: model.modules())
        if (
            (private and not owned and self._of_a_module(node.value))
            or (attr == "modules" and id(node) not in self.called)
            or (attr == "__dict__" and self._of_a_module(node.value))
        ):
            self.add(node, "reach", attr)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        """``case object(rms_norm=kernel)`` reads ``subject.rms_norm`` into ``kernel``: each keyword of a class
        pattern is an attribute read, as ``subject.rms_norm`` is (attacks_n). A positional sub-pattern reads the
        attribute the class's ``__match_args__`` names, which the class may compute (a namedtuple's fields, a
        metaclass that matches anything): a lookup by a computed name (attacks_o), but for the builtins whose
        one positional pattern is the subject itself (``case int(n)``)."""
        builtin = isinstance(node.cls, ast.Name) and node.cls.id in SELF_MATCHING and node.cls.id not in self.bound
        if node.patterns and not (builtin and len(node.patterns) == 1):
            self.add(node, "lookup", f"{ast.unparse(node.cls)}(...) class pattern")
        for attr in node.kwd_attrs:
            self.mention(node, attr)
            self.word(node, attr)
            if attr.startswith("_") and not _is_dunder(attr):
                self.add(node, "private", attr)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) not in self.docstrings:  # a bare string does nothing
            text = _folded(node)
            if text is not None:
                self.text(node, text)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        text = _folded(node)
        if text is not None:
            self.text(node, text)
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self.text(node, _folded(node) or "")
        self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg is not None:
            self.word(node.value, node.arg)
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            with self.bound_to([alias.asname or alias.name.split(".")[0]]):
                self.module(node, alias.name)
                self.mention(node, alias.asname or "")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or node.module is None:
            self.add(node, "code", "relative import")
            return
        with self.bound_to([alias.asname or alias.name for alias in node.names if alias.name != "*"]):
            self.module(node, node.module)
        for alias in node.names:
            if alias.name == "*":
                self.add(node, "lookup", f"from {node.module} import *")
                continue
            with self.bound_to([alias.asname or alias.name]):
                self.segments(node, [alias.name])
                self.mention(node, alias.name)
                self.word(node, alias.name)
                self.mention(node, alias.asname or "")
                if node.module in ("sys", "os") and not _plain(node.module, alias.name):
                    self.add(node, "smuggle", f"{node.module}.{alias.name}")

    def module(self, node: ast.AST, name: str) -> None:
        self.add(node, "import", name)
        if _within(name, SMUGGLING_MODULES):
            self.add(node, "smuggle", name)
        self.segments(node, name.split("."))
        self.mention(node, name)

    def segments(self, node: ast.AST, parts: list[str]) -> None:
        for part in parts:
            if part.startswith("_") and not _is_dunder(part) or part in BACKDOORS:
                self.add(node, "private", part)
            if part in SMUGGLE:
                self.add(node, "smuggle", part)


_MODE = re.compile(r"[rwxabt+U]{1,4}")  # a string that reads as open's mode
_WRITES = re.compile(r"[wxa+]")
_IMPORT_LINE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))")
_PRIVATE_TEXT = re.compile(r"\._\w|\bops\b|_native_|\bjit\b")
_WORD = re.compile(r"(\.\s*)?([^\W\d]\w*)")  # a word, and whether it follows a dot (an attribute)
# within one line: ``\s`` would cross line breaks, and from every line start run over all the blank lines after it
_DEFINED_TEXT = re.compile(r"^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+(\w+)|^[ \t]*(\w+)[ \t]*=", re.MULTILINE)


def _read_text(cell: str, source: str, keys: frozenset[str], bound: set[str]) -> list[Evidence]:
    """Evidence in a cell that does not parse, word by word (it cannot run; read it all the same).
    A word that is not an attribute and names the notebook's own function is the student's."""
    found = []
    for number, line in enumerate(source_lines(source), 1):
        text = _printable(line)
        for dot, word in _WORD.findall(line):
            token = normalised(word)
            if (dot or word not in bound) and any(key in token for key in keys):
                found.append(Evidence(cell, number, "forbidden", token, text))
            if word in SMUGGLE or word in SMUGGLING_MODULES:
                found.append(Evidence(cell, number, "smuggle", word, text))
            if word in LOOKUP_WORDS or word in CODE_WORDS or (_is_dunder(word) and word not in PLAIN_DUNDERS):
                found.append(Evidence(cell, number, "lookup" if word in LOOKUP_WORDS else "code", word, text))
        private = _PRIVATE_TEXT.search(line)
        if private:
            found.append(Evidence(cell, number, "private", private.group(0), text))
        imported = _IMPORT_LINE.match(line)
        if imported:
            for module in (imported.group(1) or imported.group(2)).split(","):
                found.append(Evidence(cell, number, "import", module.split(" as ")[0].strip(), text))
    return found


def _parse(source: str) -> ast.Module | None:
    """The cell as the student's process compiles it (IPython syntax turned into Python), or None."""
    try:
        return ast.parse(_python(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # ValueError: a null byte; the others: nested too deep
        return None


# The modules whose private attributes a notebook's class cannot make its own by assigning them on self
LIBRARY_MODULES: tuple[str, ...] = ("torch", "torch._C", "torch.nn", "torch.nn.functional", "torch.overrides")
LIBRARY_MODULES += ("torch.utils", "torch.serialization", "numpy", "sys", "os", "io", "pickle", "struct", "builtins")
LIBRARY_MODULES += ("importlib", "gc")


@functools.cache
def _library_attributes() -> frozenset[str]:
    """The attribute names that read on ``self`` or ``cls`` are never a class's own, whatever the notebook assigns
    there (``self._C = None`` in a method never called would otherwise make ``self._C`` of torch look owned): the
    private names of :data:`LIBRARY_MODULES` (``_C``, ``_DisableTorchDispatch``, ``_getframe``), :data:`BACKDOORS`,
    what sys and os hold that is no plain use, and the names the writing of a reply goes through."""
    names = set(BACKDOORS)
    for name in LIBRARY_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        names |= {attr for attr in dir(module) if attr.startswith("_") and not _is_dunder(attr)}
    # and what sys and os hold that is no plain use (sys.modules, os.write), and every function torch.save's writing
    # and the wire go through (self.save = ... is torch.save replaced: attacks_u)
    names |= {attr for name in ("sys", "os") for attr in dir(importlib.import_module(name)) if not _plain(name, attr)}
    return frozenset(names | {"save", "load", "write", "pack", "BytesIO", "Pickler", "dump", "dumps"})


_REGISTERS = ("register_buffer", "register_parameter", "register_module", "add_module")  # torch.nn.Module's, by name


def _own_attributes(trees: Iterable[ast.Module]) -> frozenset[str]:
    """The attributes the notebook's own classes have: assigned on ``self`` or ``cls`` (``self._cache = ...``),
    registered by name on a module (``self.register_buffer("_merged", ...)``), or defined in a class body (a method, a
    class attribute)."""
    own = set()
    for tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _REGISTERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                own.add(node.args[0].value)
            elif (
                isinstance(node, ast.Attribute)
                and not isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                own.add(node.attr)
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        own.add(statement.name)
                    targets = (
                        statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
                    )
                    own |= {
                        t.id
                        for target in targets
                        if target is not None
                        for t in ast.walk(target)
                        if isinstance(t, ast.Name)
                    }
    return frozenset(own)


def _definitions_alone(trees: Sequence[ast.Module]) -> frozenset[str]:
    """The names the notebook binds by ``def`` or ``class`` statements and by nothing else (no assignment, import,
    argument or other binding of the same name anywhere)."""
    defined = {n.name for tree in trees for n in ast.walk(tree) if isinstance(n, _DEFINITIONS)}
    other: set[str] = set()
    for tree in trees:
        other |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        other |= {
            name
            for n in ast.walk(tree)
            for name in (getattr(n, "name", None), getattr(n, "rest", None))
            if isinstance(n, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping)) and name
        }
        other |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
        other |= {
            alias.asname or alias.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom))
            for alias in n.names
        }
    return frozenset(defined - other)


def _assigned(table: symtable.SymbolTable) -> Iterator[str]:
    """The names bound in ``table``'s scope and the scopes within it by anything but an import: Python's own list
    of binding forms (assignments, parameters, definitions, ``for``, ``with``, ``except ... as``, ``match``
    captures, ``:=``, type parameters)."""
    yield from (s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_parameter())
    for child in table.get_children():
        yield from _assigned(child)


def _bindings(trees: Iterable[ast.Module]) -> Iterator[tuple[str, str | None]]:
    """Every name the notebook's code binds anywhere, and the module of :data:`HARMLESS_IMPORTS`
    or :data:`PATTERN_MODULES` that binding imports (``import os``), if it is one. Every binding form Python has
    counts (its symbol table's): a name an import binds to a harmless module and a ``match`` capture or an
    ``except ... as`` rebinds is no harmless module's (attacks_u: ``case json:`` rebound ``json`` to torch)."""
    for tree in trees:
        try:
            yield from ((name, None) for name in _assigned(symtable.symtable(ast.unparse(tree), "<cell>", "exec")))
        except (SyntaxError, ValueError, RecursionError):  # what Python itself refuses to compile binds nothing
            pass
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                yield node.id, None
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield node.name, None
            elif isinstance(node, ast.arg):
                yield node.arg, None
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    yield (
                        alias.asname or top,
                        top
                        if top in HARMLESS_IMPORTS + PATTERN_MODULES and (alias.asname is None or "." not in alias.name)
                        else None,
                    )
            elif isinstance(node, ast.ImportFrom):
                yield from ((alias.asname or alias.name, None) for alias in node.names if alias.name != "*")


def _imported(trees: Iterable[ast.Module]) -> set[str]:
    """The modules that code imports (the release's own cells: an answer may import them too)."""
    return {
        name
        for tree in trees
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.module and not node.level
            else []
        )
    }


# ------------------------------------------------------------------------------ by part


def evidence_by_part(
    answers: Mapping[str, str],
    rules: Mapping[str, Rules],
    other_code: Iterable[str] = (),
    tests: Mapping[str, str] | None = None,
) -> dict[str, list[Evidence]]:
    """For each part with rules, the evidence (in the code it can reach) that breaks them.

    ``answers``: the answer cells' sources by grade id (a part's id is its answer cell's), and
    those of the cells the student added (no part's);
    ``other_code``: the notebook's other code cells (the release's setup), whose names are the
    notebook's own; ``tests``: each part's test cell, whose names (the part's functions, which the
    hidden checks call too) the part reaches wherever the notebook defines them."""
    keys = frozenset().union(*(r.keys() for r in rules.values()))
    trees = {cell: _parse(source) for cell, source in answers.items()}
    others = [t for t in map(_parse, other_code) if t is not None]
    scaffolding = _imported(others)  # what the release's own cells import, an answer may import too
    parsed = [t for t in trees.values() if t is not None] + others
    bindings = list(_bindings(parsed))
    own_attributes = _own_attributes(parsed)
    definitions = _definitions_alone(parsed)
    bound = {name for name, _ in bindings}  # the notebook's own names, whatever library names they share
    modules = {name: module for name, module in bindings if module is not None}
    # always that module
    modules = {name: module for name, module in modules.items() if all(m == module for n, m in bindings if n == name)}
    # the names imports bind, but matplotlib's (a figure's settings, plt.rcParams[...] = ..., are a plot's own)
    imported = frozenset(
        alias.asname or alias.name.split(".")[0]
        for tree in parsed
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
        if alias.name != "*"
        and not (getattr(node, "module", None) or alias.name).startswith(("matplotlib", "mpl_toolkits"))
    )
    bound |= {
        name
        for cell, tree in trees.items()
        if tree is None
        for pair in _DEFINED_TEXT.findall(answers[cell])
        for name in pair
        if name
    }
    found: dict[str, list[tuple[str, Evidence]]] = {}  # by cell: (region, evidence)
    uses: dict[str, dict[str, set[str]]] = {}  # by cell: region -> the names it uses
    for cell, tree in trees.items():
        reader = _Reader(
            cell, source_lines(_python(answers[cell])), keys, bound, modules, imported, own_attributes, definitions
        )
        try:
            if tree is not None:
                reader.visit(tree)
                found[cell], uses[cell] = reader.found, reader.uses
                continue
        except RecursionError:  # nested too deep to walk
            pass
        # as text, run by all
        found[cell], uses[cell] = [(TOP, e) for e in _read_text(cell, answers[cell], keys, bound)], {}
    by_part = {}
    for part, part_rules in rules.items():
        test = _parse((tests or {}).get(part, ""))
        called = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} if test is not None else set()
        replaced = set(part_rules.replaced) - set(defined_names(answers.get(part, "")))
        reached = _reached(part, uses, called, replaced)
        evidence = [
            e
            for cell, pieces in found.items()
            for region, e in pieces
            if (cell == part or region in reached)
            and e.breaks(part_rules)
            and not (e.kind == "import" and e.key in scaffolding)
        ]
        if evidence:
            by_part[part] = sorted(set(evidence), key=lambda e: (list(answers).index(e.cell), e.line, e.kind, e.key))
    return by_part


def _reached(part: str, uses: dict[str, dict[str, set[str]]], called: set[str], replaced: set[str]) -> set[str]:
    """The regions a part's code can run: the code every cell runs (``TOP``), and the definitions
    named by it, by the part's cell or by its tests (``called``), followed from name to name. A
    name looked up when a function runs finds the correct version of a ``replaced`` one; a name
    used when a cell runs holds the student's (it may be kept elsewhere: followed), and so does one a definition's
    default names (its :data:`AT_DEFINITION` region, reached with it)."""
    at_run = set().union(*(cell_uses.get(TOP, set()) for cell_uses in uses.values()))
    at_call = set(called).union(*uses.get(part, {}).values())
    reached, todo = {TOP}, at_run | (at_call - replaced)
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        reached.add(name + AT_DEFINITION)
        for cell_uses in uses.values():
            todo |= cell_uses.get(name, set()) - reached - replaced
            todo |= cell_uses.get(name + AT_DEFINITION, set()) - reached
    return reached


def review(nb: nbformat.NotebookNode, rules: Mapping[str, Rules]) -> dict[str, list[Evidence]]:
    """:func:`evidence_by_part` for a (canonical) notebook: its answer cells and the code cells the
    student added (read as answer cells are; they are no part's), and its other code cells' (the
    release's set-up) names and imports; a part (an answer with a test) without declared rules gets
    :data:`COURSE_RULES`."""
    answers = {
        nbgrader_meta(c)["grade_id"]: c.source
        for c in nb.cells
        if is_answer(c) and isinstance(nbgrader_meta(c)["grade_id"], str)
    }
    added = {nbgrader_meta(c)["grade_id"]: c.source for c in nb.cells if is_own(c)}
    other = [
        c.source
        for c in nb.cells
        if c.get("cell_type") == "code" and not is_answer(c) and not is_test(c) and not is_own(c)
    ]
    tests = {
        part_of(nbgrader_meta(c)["grade_id"]): c.source
        for c in nb.cells
        if is_test(c) and isinstance(nbgrader_meta(c).get("grade_id"), str)
    }
    parts = [part for part in answers if part in rules or part in tests]
    return evidence_by_part(answers | added, {part: rules.get(part, COURSE_RULES) for part in parts}, other, tests)


def note(part: str, evidence: list[Evidence], passed: bool) -> str:
    """The instructor's note on a held part: the evidence, at most :data:`MAX_SHOWN` pieces quoted."""
    shown = "; ".join(e.describe() for e in evidence[:MAX_SHOWN]) + (
        f"; and {len(evidence) - MAX_SHOWN} more" if len(evidence) > MAX_SHOWN else ""
    )
    outcome = (
        "it passed its tests; scored 0 until an instructor grants its points in overrides.csv"
        if passed
        else "it failed its tests as well"
    )
    return f"needs review: {part}: {shown} ({outcome})"


def traced(
    rules: Mapping[str, Rules], operators: Mapping[str, set[str]], tampered: Iterable[str]
) -> dict[str, list[Evidence]]:
    """Evidence from what ran during the hidden calls (:mod:`course_grading.sandbox.trace`), by part:
    each forbidden operator in a part's trace, and a recorder left or tampered with (or a trace of a
    part that forbids functions in which torch ran no operator at all)."""
    found: dict[str, list[Evidence]] = {}
    for part, names in operators.items():
        pattern = rules[part].operators() if part in rules else None
        if pattern is None:
            continue
        for name in sorted(n for n in names if pattern.search(n)):
            found.setdefault(part, []).append(
                Evidence("(hidden calls)", 0, "operator", name, f"torch ran {name} while the check called this part")
            )
        if not any("::" in n for n in names):
            found.setdefault(part, []).append(
                Evidence(
                    "(hidden calls)",
                    0,
                    "tampered",
                    "no operator",
                    "torch ran no operator while the check called this part",
                )
            )
    for part in sorted(set(tampered)):
        if part in rules and rules[part].forbid:
            found.setdefault(part, []).append(
                Evidence(
                    "(hidden calls)",
                    0,
                    "tampered",
                    "recorder",
                    "the operator recorder was gone when a hidden call ended",
                )
            )
    return found


def conducted(
    rules: Mapping[str, Rules],
    events: Iterable[tuple[str, str, str, str]],
    cells: Mapping[str, str | None],
    parts: Iterable[str],
) -> dict[str, list[Evidence]]:
    """Evidence from what the notebook's code did while it ran (:class:`course_grading.sandbox.trace.Conduct`):
    each ``(kind, name, where, phase)`` event, a module imported or a program started, counts for the
    part whose answer cell holds the code that did it (``where``), for the part whose tests or hidden
    call were running (``phase``: ``part:<name>``, or ``cell:<id>`` as a cell ran), and for every part
    when the code is a cell the student added or code compiled from a string (as the scan reads added
    cells). ``cells`` maps each student cell's id to its part (None: an added cell); events of the
    release's own cells (its set-up) are the course's, not evidence."""
    parts = list(parts)
    found: dict[str, list[Evidence]] = {}
    for kind, name, where, phase in sorted(set(events)):
        if where not in cells and where != "":
            continue  # the release's own code
        if kind == "import":
            evidence = Evidence(where or "(compiled code)", 0, "loaded", name, f"imported {name}")
        elif kind == "program":
            evidence = Evidence(where or "(compiled code)", 0, "started", name, f"raised {name}")
        else:
            continue
        own = cells.get(where)
        targets: set[str] = set(parts) if own is None else {own}
        stage, _, what = phase.partition(":")
        if stage == "part":
            targets.add(what)
        elif stage == "cell" and what in cells:
            running = cells[what]
            targets |= set(parts) if running is None else {running}
        for part in sorted(targets & set(parts)):
            if evidence.breaks(rules.get(part, COURSE_RULES)):
                found.setdefault(part, []).append(evidence)
    return found


def withhold(
    nb: nbformat.NotebookNode,
    rules: Mapping[str, Rules],
    outputs: dict[str, Any],
    operators: Mapping[str, set[str]] | None = None,
    tampered: Iterable[str] = (),
    conduct: Mapping[str, list[Evidence]] | None = None,
) -> dict[str, str]:
    """Hold every part with evidence, from its source (:func:`review`) or from what ran during its
    hidden calls (:func:`traced`): its test cell's outputs (by grade id) get an error if they had
    none, so that it scores 0; returns the instructor's note for each held part."""
    notes = {}
    evidence_of = review(nb, rules)
    for part, evidence in [*traced(rules, operators or {}, tampered).items(), *(conduct or {}).items()]:
        evidence_of[part] = evidence_of.get(part, []) + evidence  # what is written first: it is the clearer
    for part, evidence in evidence_of.items():
        test = outputs.get(f"test_{part}")
        passed = test is not None and test["error"] is None
        if test is not None and passed:
            message = (
                "held for review: this part's code may use a route it forbids "
                f"({evidence[0].shown_to_student()}); an instructor will look at it and grant the points if it "
                "does not"
            )
            test["error"] = ["HeldForReview", message, []]
        notes[part] = note(part, evidence, passed)
    return notes
