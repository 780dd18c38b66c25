"""Calling a student's function for a hidden check, in the notebook or across a process boundary.

A hidden check never touches a student's function directly: it asks a :class:`Student` to
``call(name, args, ...)`` it and gets back a :class:`Reply` of plain values (tensors, numbers,
strings, tuples, lists). The same check runs in two places:

* in the notebook's kernel, through :class:`LocalStudent` (plain nbgrader, the
  fast harness): the student's code and the check share one interpreter;
* in ``course grade``'s trusted worker, through :class:`RemoteStudent`: the student's code runs
  in a jailed student process (:mod:`course_grading.sandbox.student_server`) and only values cross over,
  decoded with ``torch.load(weights_only=True)``. Whatever the student's code patches (``torch``,
  ``numpy.testing``, the grading modules), the oracle and the comparison run in a process it never
  touched.

A check whose part is a class, or a function of objects (a module, an optimizer), cannot send those
objects across: it calls a *driver* instead (``call(..., driver=source)``), a function of plain values
written in the check's own source, defined beside the student's code for that one call, that builds
the objects, calls the student's code on them, and returns plain values (outputs, weights, flags).
The driver is the check's code, but it runs where the student's code runs, so what it reports is
only what the student's objects did: the oracle and the comparison still run in the grader.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import gc
import hashlib
import importlib
import io
import math
import os
import random
import select
import struct
import time
import zipfile
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict, TypeGuard, cast

import numpy.random
import torch
from torch import Tensor
from typing_extensions import Unpack

from course_grading.sandbox.integrity import MAX_CHANGED, Watch
from course_grading.sandbox.reference_grads import reference_backward
from course_grading.sandbox.trace import OperatorTrace, conduct_events, trace_names

__all__ = [
    "CUT",
    "CallOptions",
    "Channel",
    "GradArg",
    "GraderFault",
    "LocalStudent",
    "MAX_DEPTH",
    "MAX_FRAME",
    "OWN_TYPE",
    "REPLY_DEPTH",
    "Opaque",
    "Outputs",
    "Refused",
    "RemoteStudent",
    "Reply",
    "SHOWN_TYPES",
    "Student",
    "StudentRaised",
    "GRAD_MODES",
    "GradMode",
    "call_in",
    "judged",
    "plain",
    "with_defaults",
    "driver_functions",
    "failed",
    "global_random_state",
    "seed_global_states",
    "hidden_error",
    "install",
    "laid_out",
    "SPAN_FACTOR",
    "probe",
    "receive_frame",
    "reference_functions",
    "require_safe_torch",
    "restore_own",
    "send_frame",
    "swapped",
    "uninstall",
    "unwire",
    "use_references",
    "wire",
]

MAX_FRAME = 256 * 2**20  # the largest reply accepted from a student's process
CUT = "[output cut: the notebook printed more than its limit]"  # where what a notebook prints is cut
OPAQUE = "__opaque__"  # marks a value that could not cross: {OPAQUE: its type's name}
REPLY_DEPTH = 4  # containers in containers a reply may hold; deeper ones cross as opaque


class Refused(Exception):
    """Raised inside the student's code when it calls a function a check forbids."""


class StudentRaised(Exception):
    """The student's function raised (or was refused, or hung, or crashed its process)."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type_name, self.message = type_name, message


class GraderFault(Exception):
    """The grader's own failure (no student process could be started): no grade may come of it."""


@dataclass(frozen=True)
class Opaque:
    """A returned value of a type that does not cross the process boundary (a NumPy array, say)."""

    type_name: str


@dataclass
class Reply:
    """One call's outcome. The flags after ``trace_intact`` are judged in the grader's process, by :func:`judged`,
    from ``facts``: what the call's process saw, as plain data (digests, addresses, shapes and strides), never a flag
    that process computed."""

    value: Any  # what the function returned (tensors detached, inside tuples, lists, dicts too)
    inputs_after: tuple[Any, ...]  # the arguments after the call (in-place changes show here)
    grads: tuple[Tensor | None, ...] | None  # d(sum of probe . output)/d(args[i]) for the asked outputs and i, if any
    differentiable: bool  # whether every asked output carried a gradient back to the asked arguments
    # what torch ran during the call (sandbox.trace), as the student's process says
    operators: frozenset[str] = frozenset()
    trace_intact: bool = True  # whether that process says its recorder stayed in place
    global_rng_moved: bool = False  # whether torch's, Python's or NumPy's global random state changed during the call
    aliased: bool = False  # whether a tensor it returned shares memory with a tensor it was given
    # whether a tensor it returned is an inference tensor (made under torch.inference_mode) though the caller was not
    # in that mode: the caller can neither change it in place nor use it where autograd saves it
    inference: bool = False
    # whether a tensor it returned has entries that share memory (an expand, a stride 0): a caller that changes one
    # entry in place changes others, or cannot change it at all
    overlapping: bool = False
    facts: dict[str, Any] = dataclasses.field(default_factory=dict)  # what the flags are judged from (:func:`judged`)


# an argument to differentiate against: its index, or (index, key) of a dict argument, or (index, i) of a tuple's
GradArg = int | tuple[int, str | int]
# the caller's autograd mode during a call: as usual, under torch.no_grad(), or under torch.inference_mode()
GradMode = Literal["enabled", "no_grad", "inference"]


def _grad_on() -> contextlib.AbstractContextManager[Any]:
    """Autograd on, whatever the notebook's code left switched off (``torch.set_grad_enabled(False)``, an
    inference mode entered and never left): its slip costs the part that made it, not the next."""
    stack = contextlib.ExitStack()
    stack.enter_context(torch.inference_mode(False))
    stack.enter_context(torch.enable_grad())
    return stack


GRAD_MODES: dict[str, Callable[[], contextlib.AbstractContextManager[Any]]] = {
    "enabled": _grad_on,
    "no_grad": torch.no_grad,
    "inference": torch.inference_mode,
}


class CallOptions(TypedDict, total=False):
    """What a call asks besides the function and its arguments (each explained at :meth:`Student.call`)."""

    grad_args: Sequence[GradArg]
    grad_outputs: Sequence[int]
    forbid: Sequence[tuple[str, str]]
    references: str | None
    driver: str | None
    global_seed: int | None
    grad_mode: GradMode
    threads: int | None


def with_defaults(options: CallOptions) -> CallOptions:
    """``options`` with every key present: nothing differentiated (output 0 if asked), nothing forbidden or
    replaced, no driver, no reseed. A key of no option (a check's misspelling) raises TypeError."""
    unknown = sorted(set(options) - set(CallOptions.__annotations__))
    if unknown:
        raise TypeError(f"Student.call got options it does not know: {', '.join(unknown)}")
    defaults: CallOptions = {
        "grad_args": (),
        "grad_outputs": (0,),
        "forbid": (),
        "references": None,
        "driver": None,
        "global_seed": None,
        "grad_mode": "enabled",
        "threads": None,
    }
    threads = options.get("threads")
    if threads is not None and not (type(threads) is int and 1 <= threads <= MAX_THREADS):
        raise TypeError(f"threads must be None or an int from 1 to {MAX_THREADS}, got {threads!r}")
    if options.get("grad_mode", "enabled") not in GRAD_MODES:
        raise TypeError(f"grad_mode must be one of {sorted(GRAD_MODES)}, got {options.get('grad_mode')!r}")
    if options.get("grad_mode", "enabled") != "enabled" and options.get("grad_args"):
        raise TypeError("a call under no_grad or inference_mode has no gradient to ask for")
    return defaults | options


class Student(Protocol):
    raised: str | None  # the type of what the last call raised (None: it returned), as :class:`StudentRaised` names it

    def call(self, name: str, args: Sequence[Any], **options: Unpack[CallOptions]) -> Reply:
        """Call the student's ``name(*args)``. ``grad_args``: the arguments to differentiate
        ``probe(output) . output`` against (an index, or (index, key) for a tensor in a dict argument), summed
        over ``grad_outputs`` (which items of a tuple the function returns; a single output is item 0); ``forbid``:
        (module, attribute) pairs that raise :class:`Refused` during the call, under their own names and any alias in
        the notebook; ``references``: Python source whose functions replace the student's functions of the same
        names during the call (so that one part is graded with correct versions of the others);
        ``driver``: Python source that defines ``name`` (and its helpers) for this call only, beside
        the student's code, whose classes and functions it reaches by their names in the notebook;
        ``global_seed``: torch's, Python's and NumPy's global generators are seeded with it just before
        the call (so that a function that reseeds them shows, whatever its seed); ``grad_mode``: the caller's
        autograd mode during the call (``"no_grad"``, ``"inference"``: a function must not change with it);
        ``threads``: the intra-op thread count ``torch.get_num_threads()`` reports during the call (a function's
        values must not change with it)."""
        ...


def probe(out: Tensor) -> Tensor:
    """The fixed weights of the linear function of an output whose gradient a check compares."""
    return torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view(out.shape)


# ----------------------------------------------------------------------------- calling locally


_MISSING = object()
Undo = list[tuple[str, Any, Any]]  # (name, value before, value installed)


def install(namespace: dict[str, Any], replacements: dict[str, Any]) -> Undo:
    """Put ``replacements`` into ``namespace``, under their names and every alias of what they replace."""
    replacements = dict(replacements)
    for name, new in list(replacements.items()):
        old = namespace.get(name, _MISSING)
        if old is not _MISSING and callable(old):
            replacements |= {alias: new for alias, value in namespace.items() if value is old}
    undo = [(name, namespace.get(name, _MISSING), new) for name, new in replacements.items()]
    namespace.update(replacements)
    return undo


def uninstall(namespace: dict[str, Any], undo: Undo) -> None:
    """Undo :func:`install` where the namespace still holds what it installed (code run since may
    have defined a name anew: that definition stays)."""
    for name, old, new in reversed(undo):
        if namespace.get(name, _MISSING) is new:
            if old is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = old


@contextlib.contextmanager
def swapped(namespace: dict[str, Any], replacements: dict[str, Any]) -> Iterator[None]:
    """Replace names in ``namespace``, and every alias of the replaced objects, then restore them."""
    undo = install(namespace, replacements)
    try:
        yield
    finally:
        uninstall(namespace, undo)


def reference_functions(references: str | None, exclude: Collection[str] = ()) -> dict[str, Any]:
    """The public functions that the Python source ``references`` defines, but those in ``exclude``."""
    if references is None:
        return {}
    defined: dict[str, Any] = {}
    exec(compile(references, "<reference parts>", "exec"), defined)
    return {k: v for k, v in defined.items() if callable(v) and not k.startswith("_") and k not in exclude}


_SWAP = "__course_grading_references__"  # where a notebook's namespace keeps what to undo


def use_references(namespace: dict[str, Any], references: str | None, exclude: Collection[str]) -> None:
    """Replace the notebook's functions by the correct ``references`` (but those in ``exclude``, the
    part under test) until :func:`restore_own`. A test cell calls this before its visible tests, so
    that a bug in another part cannot fail them; should the cell stop half-way, the next call
    restores the student's own functions first."""
    restore_own(namespace)
    namespace[_SWAP] = install(namespace, reference_functions(references, exclude))


def restore_own(namespace: dict[str, Any]) -> None:
    """Put the student's own functions back after :func:`use_references`."""
    uninstall(namespace, namespace.pop(_SWAP, []))


@contextlib.contextmanager
def _forbidden(namespace: dict[str, Any], forbid: Sequence[tuple[str, str]]) -> Iterator[None]:
    """While inside, each forbidden function raises :class:`Refused`, wherever the notebook names it."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Refused("calls a library function this part asks you to write yourself")

    with contextlib.ExitStack() as stack:
        for module_name, attr in forbid:
            owner = importlib.import_module(module_name)
            original = getattr(owner, attr)
            setattr(owner, attr, refuse)
            stack.callback(setattr, owner, attr, original)
            stack.enter_context(swapped(namespace, {k: refuse for k, v in list(namespace.items()) if v is original}))
        yield


# Python's builtins as this module found them, before any notebook code ran: the globals of the grader's code that
# runs beside the student's (attacks_y: a notebook's top-level `isinstance = ...` or `ValueError = (ValueError,
# KeyError)` changed what a driver computed, where the driver read its globals from the notebook's names)
_BUILTINS = dict(vars(builtins))


def driver_functions(driver: str | None, namespace: dict[str, Any]) -> dict[str, Any]:
    """What the Python source ``driver`` defines. Its functions' globals are a scope of their own: first what the
    driver defines and imports, then Python's builtins as they were before any notebook code ran, and only then the
    names of ``namespace`` (the student's classes and functions, as the call sees them), so that no name the student
    binds (a builtin's, a module's the driver imports, one of the driver's own) changes what the grader's code
    computes."""
    if driver is None:
        return {}
    scope: dict[str, Any] = {"__builtins__": _BUILTINS}
    exec(compile(driver, "<grading driver>", "exec"), scope)
    own = set(scope)
    scope.update((k, v) for k, v in namespace.items() if k not in own and k not in _BUILTINS and not k.startswith("__"))
    return {k: scope[k] for k in own if k != "__builtins__" and callable(scope[k])}


def call_in(
    namespace: dict[str, Any],
    name: str,
    args: Sequence[Any],
    grad_args: Sequence[GradArg] = (),
    forbid: Sequence[tuple[str, str]] = (),
    replacements: dict[str, Any] | None = None,
    driver: str | None = None,
    global_seed: int | None = None,
    grad_outputs: Sequence[int] = (0,),
    grad_mode: str = "enabled",
    threads: int | None = None,
    watch: Watch | None = None,
) -> Reply:
    """Call ``namespace[name](*args)`` as :meth:`Student.call` describes, with ``replacements`` in
    place of the student's functions of the same names (and, with a ``driver``, ``name`` and its
    helpers defined by it); the student's exceptions propagate.

    Everything the student's code can run happens inside the operator trace and the forbidden functions'
    guard, the global random states compared around all of it: the call, the backward pass (a custom
    ``autograd.Function``'s ``backward`` is the student's code) and the reading of what it returned, which
    :func:`plain` does by exact types, calling no method a returned object could override (a tensor
    subclass's ``detach``, a dict subclass's ``items``) and turning anything else into an :class:`Opaque`."""
    # the student gets copies (the caller's tensors stay as they were), in their layout, aliases kept
    memo: dict[Any, Any] = dict(laid_out(tuple(args)))
    args = [_copy(a, memo) for a in args]
    wrt = [_grad_leaf(args, path) for path in grad_args]
    for leaf in wrt:
        if isinstance(leaf, Tensor) and leaf.is_floating_point():
            leaf.requires_grad_(True)
    if global_seed is not None:
        seed_global_states(global_seed)
    rng_before = global_random_state()
    # the function under test stays the student's
    replacements = {k: v for k, v in (replacements or {}).items() if k != name}
    replacements |= driver_functions(driver, namespace | replacements)  # a driver's own definitions, this call only
    if name not in namespace and name not in replacements:
        raise NameError(f"name {name!r} is not defined")
    grads: tuple[Tensor | None, ...] | None = None
    collecting = gc.isenabled()
    try:
        with OperatorTrace() as trace:  # what runs, forward and backward: every spelling ends in an operator
            with swapped(namespace, replacements), _forbidden(namespace, forbid), _threads(namespace, threads):
                with GRAD_MODES[grad_mode]():
                    value = plain(namespace[name](*args), detach=False)  # exact types, graph kept
                outs = [_item(value, i) for i in grad_outputs]
                differentiable = bool(outs) and all(type(out) in _TENSORS and out.requires_grad for out in outs)
                if grad_args and differentiable:
                    with _grad_on():
                        leaves = [leaf for leaf in wrt if isinstance(leaf, Tensor) and leaf.requires_grad]
                        probed = sum((out * probe(out).detach()).sum() for out in outs)
                        found = iter(torch.autograd.grad(probed, leaves, allow_unused=True) if leaves else ())
                        grads = tuple(
                            next(found) if isinstance(leaf, Tensor) and leaf.requires_grad else None for leaf in wrt
                        )
            if watch is not None:
                watch.check()  # once the grader's own swaps are undone: what the student's code changed, kept
            # from here to the last fact nothing of the student's runs: the objects it returned stay alive (a finalizer
            # on one runs when it is freed), no cyclic collection runs (one would free some), and every fact is read
            # through functions bound at import (attacks_aa: a method that removed itself once read through)
            returned = value
            gc.disable()
            facts: dict[str, Any] = {
                "value_storages": sorted(_storages(value)),
                "arg_storages": sorted(_storages(args)),
                "inference_tensors": _inference_tensors(value),
                "layouts": _layouts(value),
            }
            # copies, made here: a finalizer or hook of the student's that runs later cannot write into them
            value, after, grads = plain(value), plain(tuple(args)), plain(grads)
        facts["rng"] = [rng_before, global_random_state()]
    finally:
        if collecting:
            gc.enable()
    del returned
    return judged(
        Reply(value, after, grads, differentiable, frozenset(trace.names), trace.intact, facts=facts), grad_mode
    )


def _item(value: Any, index: int) -> Any:
    """Item ``index`` of a tuple the function returned; a single output is item 0."""
    if isinstance(value, tuple):
        return value[index] if -len(value) <= index < len(value) else None
    return value if index == 0 else None


# torch's thread count as torch reports it, bound before any notebook code can rebind the name
_GET_THREADS = torch.get_num_threads
MAX_THREADS = 16  # a call's ``threads``: more than a laptop has


@contextlib.contextmanager
def _threads(namespace: dict[str, Any], count: int | None) -> Iterator[None]:
    """Inside, ``torch.get_num_threads()`` says ``count`` (None: as it is), under its name in torch and every alias
    in the notebook. Only what torch reports changes: a graded process computes on one thread (the jail lets it
    start none), so a function whose values follow the thread count is seen by what it reads."""
    if count is None:
        yield
        return

    def get_num_threads() -> int:
        return count

    with swapped(namespace, {k: get_num_threads for k, v in list(namespace.items()) if v is _GET_THREADS}):
        torch.get_num_threads = get_num_threads
        try:
            yield
        finally:
            torch.get_num_threads = _GET_THREADS


# the methods the flags of a reply read, bound before any notebook code can rebind them on torch.Tensor
_IS_INFERENCE, _UNTYPED_STORAGE, _SIZE, _STRIDE = (
    Tensor.is_inference,
    Tensor.untyped_storage,
    Tensor.size,
    Tensor.stride,
)
# the descriptors themselves (the class's __dict__): reading them off the class would call them
_LAYOUT: Callable[[Tensor], torch.layout] = vars(torch._C.TensorBase)["layout"].__get__
_IS_NESTED: Callable[[Tensor], bool] = vars(torch._C.TensorBase)["is_nested"].__get__
_DATA_PTR, _NBYTES = torch.UntypedStorage.data_ptr, torch.UntypedStorage.nbytes
# the most entries :func:`_overlaps` lists one by one; a larger tensor whose strides leave doubt counts as overlapping
OVERLAP_ENTRIES = 1 << 22


def _inference_tensors(value: Any) -> int:
    """How many tensors in ``value`` are inference tensors (the class's method, as imported: a tensor may carry one
    of its own)."""
    return sum(bool(_IS_INFERENCE(t)) for t in _tensors_in(value, {}).values())


def _layouts(value: Any) -> list[list[int]]:
    """The shape and strides of every dense tensor in ``value``, each as ``[ndim, *shape, *strides]`` (the class's
    methods, as imported)."""
    return [
        [len(_SIZE(t)), *_SIZE(t), *_STRIDE(t)]
        for t in _tensors_in(value, {}).values()
        if _LAYOUT(t) == torch.strided and not _IS_NESTED(t)
    ]


def _int_list(value: Any) -> TypeGuard[list[int]]:
    """Whether ``value`` is a list of ints, exactly (no subclass of either)."""
    return type(value) is list and all(type(i) is int for i in value)


def _any_overlap(layouts: Any) -> bool:
    """Whether any layout :func:`_layouts` reported has entries that share memory; a malformed one counts as such, and
    so does any past a budget of OVERLAP_ENTRIES entries listed in all (a reply cannot make the grader list more)."""
    if type(layouts) is not list:
        return True
    budget = OVERLAP_ENTRIES
    for layout in layouts:
        if not _int_list(layout) or not layout or not 0 <= layout[0] <= 64 or len(layout) != 1 + 2 * layout[0]:
            return True
        shape, strides = tuple(layout[1 : 1 + layout[0]]), tuple(layout[1 + layout[0] :])
        if any(n < 0 for n in shape):
            return True
        entries = _overlap_entries(shape, strides)
        budget -= entries
        if budget < 0 or (entries and _overlaps(shape, strides)):
            return True
    return False


def _overlap_entries(shape: tuple[int, ...], strides: tuple[int, ...]) -> int:
    """How many entries :func:`_overlaps` lists for this layout: none where the strides settle it."""
    dims = sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1)
    reach = 0
    for stride, n in dims:
        if stride <= reach:
            return math.prod(shape)
        reach += (n - 1) * stride
    return 0


def _overlaps(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """Whether two entries of a tensor of this shape and these strides lie at one place in memory (an ``expand``, a
    stride 0, an ``as_strided`` over itself), its entries listed one by one (:func:`_overlap_entries` says when that
    is needed: strides that each pass the reach of the smaller ones cannot overlap)."""
    entries = math.prod(shape)
    offsets = torch.zeros((), dtype=torch.long)
    for n, s in zip(shape, strides):
        offsets = offsets.unsqueeze(-1) + torch.arange(n) * s
    return int(offsets.unique().numel()) < entries


def _storages(value: Any) -> set[int]:
    """The addresses of the memory every non-empty tensor in ``value`` lies in (the class's method, as imported)."""
    storages = [_UNTYPED_STORAGE(t) for t in _tensors_in(value, {}).values()]
    return {_DATA_PTR(s) for s in storages if _NBYTES(s) > 0}


def _grad_leaf(args: Sequence[Any], path: GradArg) -> Any:
    """The argument ``path`` names: ``args[i]``, ``args[i][key]`` for a dict argument, ``args[i][j]`` for a
    tuple or list argument (None if absent)."""
    if isinstance(path, int):
        return args[path] if 0 <= path < len(args) else None
    index, key = path
    holder = args[index] if 0 <= index < len(args) else None
    if isinstance(holder, dict):
        return holder.get(key)
    if isinstance(holder, (tuple, list)) and isinstance(key, int) and 0 <= key < len(holder):
        return holder[key]
    return None


# taken when this module is imported, before any student code runs: a notebook that rebinds torch.manual_seed or
# random.getstate changes its own names, not these
_TORCH_SEED, _TORCH_STATE = torch.default_generator.manual_seed, torch.default_generator.get_state
_PYTHON_SEED, _PYTHON_STATE = random.seed, random.getstate
_NUMPY, _SHA256, _HASH = Tensor.numpy, hashlib.sha256, hash
_NUMPY_SEED, _NUMPY_STATE = numpy.random.seed, numpy.random.get_state  # imported here: before any notebook code


def seed_global_states(seed: int) -> None:
    """Seed torch's CPU generator, Python's ``random`` and NumPy's global generator."""
    _TORCH_SEED(seed)
    _PYTHON_SEED(seed)
    _NUMPY_SEED(seed % 2**32)


def global_random_state() -> str:
    """A digest (SHA-256, hex) of the global random states a function could draw from or reseed: torch's CPU
    generator, Python's ``random`` and NumPy's legacy global generator (each read through a function bound at
    import)."""
    digest = _SHA256(bytes(_NUMPY(_TORCH_STATE()).tobytes()))
    digest.update(_HASH(_PYTHON_STATE()).to_bytes(8, "little", signed=True))
    kind_, keys, position, *_ = cast(tuple[str, Any, int], _NUMPY_STATE(legacy=True))
    digest.update(kind_.encode() + bytes(keys.tobytes()) + int(position).to_bytes(8, "little"))
    return digest.hexdigest()


def judged(reply: Reply, grad_mode: str) -> Reply:
    """``reply`` with its flags judged from its ``facts`` (what the call's process saw, plain data), here, in the
    grader's process: the global random states moved (two digests differ), a returned tensor in an argument's memory
    (a storage address in both lists), an inference tensor returned outside inference mode, a returned tensor whose
    entries share memory (:func:`_any_overlap`). A fact missing or malformed raises its flag."""
    facts = reply.facts if type(reply.facts) is dict else {}
    rng, mine, theirs, count = (facts.get(k) for k in ("rng", "value_storages", "arg_storages", "inference_tensors"))
    return dataclasses.replace(
        reply,
        global_rng_moved=not (type(rng) is list and len(rng) == 2 and type(rng[0]) is str and rng[0] == rng[1]),
        aliased=not (_int_list(mine) and _int_list(theirs)) or bool(set(mine) & set(theirs)),
        inference=grad_mode != "inference" and not (type(count) is int and count == 0),
        overlapping=_any_overlap(facts.get("layouts")),
    )


def _copy(value: Any, memo: dict[Any, Any]) -> Any:
    """Tensors copied, inside tuples, lists and dicts too; one copy per original tensor, in its layout (``memo``
    holds :func:`laid_out`'s copies by the original's id). A string becomes a new object of the same value (one per
    original), as the wire decodes it (CPython shares only those of one character): in this interpreter too, code
    that compares an argument with its own literal by identity (``is "mean"``) sees another object, as it does in the
    student's process."""
    if isinstance(value, Tensor):
        if id(value) not in memo:
            memo[id(value)] = value.detach().clone()
        return memo[id(value)]
    if isinstance(value, str):
        return memo.setdefault(id(value), value[:1] + value[1:])
    if isinstance(value, (tuple, list)):
        return type(value)(_copy(v, memo) for v in value)
    if isinstance(value, dict):
        return {k: _copy(v, memo) for k, v in value.items()}
    return value


def _tensors_in(value: Any, found: dict[int, Tensor], depth: int = 0) -> dict[int, Tensor]:
    if isinstance(value, Tensor):
        found.setdefault(id(value), value)
    elif isinstance(value, (tuple, list)) and depth < REPLY_DEPTH:
        for v in value:
            _tensors_in(v, found, depth + 1)
    elif isinstance(value, dict) and depth < REPLY_DEPTH and all(isinstance(k, str) and k != OPAQUE for k in value):
        for v in value.values():  # the dicts :func:`wire` sends (any other becomes a marker, its tensors unsent)
            _tensors_in(v, found, depth + 1)
    return found


# A group of views whose storage span is more than this many times their entries (a thin slice of a large buffer) is
# sent as contiguous copies: the frame grows with the entries, not with the buffer (MAX_FRAME bounds a frame)
SPAN_FACTOR = 16


def _plain_layout(t: Tensor) -> bool:
    """Whether ``t`` keeps its layout when copied: a dense CPU tensor without a conjugate or negative bit, with entries
    and none that overlap (an ``expand``). Any other (quantized, nested, on a device) is cloned on the CPU."""
    if t.is_nested or t.is_quantized or t.layout != torch.strided or t.device.type != "cpu":
        return False
    if t.is_conj() or t.is_neg() or t.numel() == 0:
        return False
    return not any(n > 1 and stride == 0 for n, stride in zip(t.shape, t.stride()))


def laid_out(value: Any) -> dict[int, Tensor]:
    """Copies of the tensors in ``value`` that :func:`wire` sends (inside tuples, lists and dicts of str keys), by the
    original's id, each with its original's shape, strides and storage offset: the copies of tensors that view one
    storage view one new storage, which holds the entries any of them views and zeros elsewhere (nothing the
    originals' storage held beyond them). A slice of a caller's buffer arrives as a slice, and two arguments that
    share memory still do. A tensor that :func:`_plain_layout` refuses is a contiguous CPU clone of its values, and
    so are views spread thinly over a large storage (:data:`SPAN_FACTOR`)."""
    copies: dict[int, Tensor] = {}
    groups: dict[tuple[int, torch.dtype], list[tuple[int, Tensor]]] = {}
    for key, tensor in _tensors_in(value, {}).items():
        t = _DETACH(tensor)
        if _plain_layout(t):
            groups.setdefault((t.untyped_storage().data_ptr(), t.dtype), []).append((key, t))
        else:
            copies[key] = t.resolve_conj().resolve_neg().cpu().clone()
    for members in groups.values():
        low = min(t.storage_offset() for _, t in members)
        high = max(t.storage_offset() + sum((n - 1) * s for n, s in zip(t.shape, t.stride())) + 1 for _, t in members)
        if high - low > SPAN_FACTOR * sum(t.numel() for _, t in members):
            copies |= {key: t.clone(memory_format=torch.contiguous_format) for key, t in members}
            continue
        storage = torch.zeros(high - low, dtype=members[0][1].dtype).untyped_storage()
        for key, t in members:
            copy = torch.empty(0, dtype=t.dtype).set_(storage, t.storage_offset() - low, t.shape, t.stride())
            copies[key] = copy.copy_(t)
    return copies


_TENSORS = (Tensor, torch.nn.Parameter)
_SCALARS = (bool, int, float, str, torch.dtype, torch.device)
# torch's named tuples (torch.topk's, torch.sort's: values and indices), read as plain tuples
_TORCH_TUPLES = frozenset(
    t for t in vars(torch.return_types).values() if isinstance(t, type) and issubclass(t, tuple)
) | {torch.Size}
_type_name = type.__dict__["__name__"].__get__  # a class's own name, past any metaclass that redefines __name__
# The tensor methods that copy what crosses to the grader, bound as this module is imported, before any notebook code
# runs: a notebook that assigns torch.Tensor.cpu or .clone changes its own lookups, not these (attacks_y: a replaced
# Tensor.cpu, run as the reply was copied after the trace, took a planted error back out of the values)
_DETACH, _CLONE, _CPU = Tensor.detach, Tensor.clone, Tensor.cpu


def plain(value: Any, detach: bool = True, depth: int = 0) -> Any:
    """What a student's function returned, as the grader's own objects, read by exact type: tensors (detached
    copies, or, with ``detach=False``, the same objects), tuples (torch's named ones and ``torch.Size`` as plain
    tuples), lists and dicts with str keys (to :data:`REPLY_DEPTH`), None, bool, int, float, str, dtype and
    device; anything else (a tensor subclass, a container subclass, any other object) becomes an :class:`Opaque`
    of its type's name. No method of the value runs: a subclass's ``detach``, ``items`` or ``__iter__`` is the
    student's code, and so is a method an instance carries."""
    kind = type(value)
    if kind in _TENSORS:
        if not detach:
            return value
        copy = _DETACH(value)
        return _CLONE(copy) if copy.layout == torch.strided else copy
    if value is None or kind in _SCALARS:
        return value
    if kind in _TORCH_TUPLES and depth < REPLY_DEPTH:
        return tuple(plain(v, detach, depth + 1) for v in tuple.__iter__(value))
    if depth < REPLY_DEPTH and (kind is tuple or kind is list):
        return kind(plain(v, detach, depth + 1) for v in kind.__iter__(value))
    if depth < REPLY_DEPTH and kind is dict and all(type(k) is str for k in dict.keys(value)):
        return {k: plain(v, detach, depth + 1) for k, v in dict.items(value)}
    name = _type_name(kind)
    return Opaque(name if type(name) is str and name in SHOWN_TYPES else OWN_TYPE)


class LocalStudent:
    """The student's functions in this interpreter's ``namespace`` (a notebook's ``globals()``)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.raised: str | None = None  # the type of what the last call raised (None: it returned)

    def call(self, name: str, args: Sequence[Any], **options: Unpack[CallOptions]) -> Reply:
        o = with_defaults(options)
        self.raised = None
        try:
            return call_in(
                self.namespace,
                name,
                args,
                o["grad_args"],
                o["forbid"],
                reference_functions(o["references"]),
                o["driver"],
                o["global_seed"],
                o["grad_outputs"],
                o["grad_mode"],
                o["threads"],
            )
        except Exception as error:
            self.raised = type(error).__name__
            raise StudentRaised(type(error).__name__, str(error)) from error


# ------------------------------------------------------------------------------- the wire


def wire(value: Any, depth: int = 0, copies: dict[int, Tensor] | None = None) -> Any:
    """``value`` made of what ``torch.load(weights_only=True)`` accepts; anything else becomes a marker. Tensors are
    cloned (a reply that views a large storage sends its own entries only), or, given ``copies`` (:func:`laid_out`'s,
    for the grader's arguments), sent as those copies: one frame keeps their strides, offsets and shared storages,
    and holds nothing but the entries they view."""
    if isinstance(value, Tensor):
        if value.layout != torch.strided:
            return {OPAQUE: "sparse tensor"}
        return copies[id(value)] if copies is not None else _CLONE(_CPU(_DETACH(value)))
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value) is Opaque:
        return {OPAQUE: value.type_name}
    if isinstance(value, (tuple, list)) and depth < REPLY_DEPTH:
        return type(value)(wire(v, depth + 1, copies) for v in value)
    if isinstance(value, dict) and depth < REPLY_DEPTH and all(isinstance(k, str) and k != OPAQUE for k in value):
        return {k: wire(v, depth + 1, copies) for k, v in value.items()}
    return {OPAQUE: type(value).__name__}


# The type names an Opaque may carry: the builtins' and a few libraries' (a student's reply names its
# type itself, so any other name, which the student's code chose and could fill with what a hidden call
# saw, is replaced by :data:`OWN_TYPE` before a check can put it in a message).
SHOWN_TYPES = frozenset(name for name, value in vars(builtins).items() if isinstance(value, type)) | {
    "NoneType",
    "function",
    "method",
    "builtin_function_or_method",
    "generator",
    "module",
    "ndarray",
    "Parameter",
    "Module",
    "Linear",
    "Tensor",
    "dtype",
    "device",
    "Generator",
    "Size",
}
OWN_TYPE = "an object of a class the notebook defines"


def unwire(value: Any) -> Any:
    if isinstance(value, dict):
        if OPAQUE in value:
            name = value[OPAQUE]
            return Opaque(name if isinstance(name, str) and name in SHOWN_TYPES else OWN_TYPE)
        return {str(k): unwire(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(unwire(v) for v in value)
    return value


# What a frame is written with, bound when this module is imported, before any notebook code runs: a notebook that
# rebinds torch.save (self.save = ... with torch passed as self: attacks_u, which set every reply's global_rng_moved
# to False) or os.write changes its own names, not these. What the student's process computes stays its own to forge
# deeper down (torch.save looks up io.BytesIO and pickle as it runs; its interpreter is the student's): these close the
# route through the public names.
_SAVE, _BYTES_IO, _PACK, _WRITE = torch.save, io.BytesIO, struct.pack, os.write
_SAVE({}, _BYTES_IO())  # and what torch.save imports the first time it runs (its config module), imported now


def send_frame(fd: int, message: Any) -> None:
    buffer = _BYTES_IO()
    _SAVE(message, buffer)
    data = buffer.getvalue()
    view = memoryview(_PACK("<Q", len(data)) + data)
    while view:
        view = view[_WRITE(fd, view) :]


def _read_exactly(fd: int, n: int, until: float | None) -> bytes:
    """``n`` bytes from ``fd``, all of them before the monotonic time ``until`` (None: no limit): a writer that
    trickles a byte now and then gets no more time than one that sends nothing."""
    chunks, got = [], 0
    while got < n:
        if until is not None and not select.select([fd], [], [], max(0.0, until - time.monotonic()))[0]:
            raise TimeoutError
        chunk = os.read(fd, min(n - got, 2**20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive_frame(fd: int, timeout_s: float | None = None) -> Any:
    """One message, whole within ``timeout_s`` (None: no limit); only tensors and plain containers are decoded
    (``weights_only``), never code.

    A frame is refused before decoding unless it is a zip archive (what :func:`send_frame` writes)
    whose entries are stored, not compressed, and add up to at most :data:`MAX_FRAME` bytes: a
    deflated entry could inflate a thousandfold in the reader's memory. After decoding, a message
    of more than :data:`MAX_NODES` values (counted as a walk visits them: a list that holds another
    twice, nested, counts every visit) is refused too, so that no reader walks it forever."""
    require_safe_torch()
    until = None if timeout_s is None else time.monotonic() + timeout_s  # for the whole frame, header and body
    (size,) = struct.unpack("<Q", _read_exactly(fd, 8, until))
    if size > MAX_FRAME:
        raise ValueError(f"a reply of {size} bytes is larger than the {MAX_FRAME} allowed")
    data = _read_exactly(fd, size, until)
    _check_archive(data)
    message = torch.load(io.BytesIO(data), weights_only=True)
    _check_nodes(message)
    return message


TORCH_FLOOR = (2, 6)  # torch.load(weights_only=True) runs code from a crafted file before 2.6 (CVE-2025-32434)
MAX_NODES = 200_000  # values in one decoded message
MAX_DEPTH = 32  # containers in containers in one decoded message (a reply is at most 4 deep; requests a few more)


def require_safe_torch() -> None:
    """Refuse to decode a student's reply with a torch whose ``weights_only`` loading is unsafe."""
    version = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
    if version < TORCH_FLOOR:
        raise RuntimeError(
            f"torch {torch.__version__} can run code hidden in a reply it loads (CVE-2025-32434); grading "
            f"needs torch >= {'.'.join(map(str, TORCH_FLOOR))}"
        )


def _check_archive(data: bytes) -> None:
    """Refuse a frame that is not a zip of stored entries of at most :data:`MAX_FRAME` bytes in all."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise ValueError(f"a reply that is not a torch.save archive ({error})") from None
    if any(entry.compress_type != zipfile.ZIP_STORED for entry in entries):
        raise ValueError("a reply with compressed entries (only stored entries are accepted)")
    if sum(entry.file_size for entry in entries) > MAX_FRAME:
        raise ValueError(f"a reply whose entries add up to more than the {MAX_FRAME} bytes allowed")


def _check_nodes(message: Any) -> None:
    """Refuse a decoded message whose walk visits more than :data:`MAX_NODES` values, or that nests
    containers deeper than :data:`MAX_DEPTH` (every reader after this one may recurse)."""
    stack, seen = [(message, 0)], 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            raise ValueError(f"a reply of more than {MAX_NODES} values")
        if depth > MAX_DEPTH:
            raise ValueError(f"a reply nested more than {MAX_DEPTH} containers deep")
        if isinstance(value, (list, tuple)):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value.keys())
            stack.extend((v, depth + 1) for v in value.values())


# ----------------------------------------------------------------------------- calling remotely


# one cell's run: {"stdout": str, "stderr": str, "error": None | [name, message, traceback lines]}
Outputs = dict[str, Any]


def failed(name: str, message: str) -> Outputs:
    """The outputs of a cell that produced nothing but ``name: message``."""
    return {"stdout": "", "stderr": "", "error": [name, message, []]}


class Channel(Protocol):
    """How :class:`RemoteStudent` reaches a fresh student process (:mod:`course_grading.sandbox.student_server`)."""

    def open(self) -> tuple[int, int]:
        """Start a student process; the file descriptors to read its replies from and write requests to."""
        ...

    def close(self) -> None:
        """Stop it, and everything it started."""
        ...


class RemoteStudent:
    """The student's code in a student process reached through ``channel``.

    The process runs ``cells`` (``(cell id, source)``: the notebook's code, tests excluded) once,
    reporting each cell's outputs, then runs test cells and answers calls. A cell that hangs
    past its interrupt or kills the process is recorded as failed, and a process is started again
    without it, so that the rest of the notebook is still graded. A call that runs past
    ``timeout_s`` or kills the process raises :class:`StudentRaised`; a process is started again
    for the next call.
    """

    STARTUP_S = 60.0  # starting Python and importing torch, on a busy machine
    MARGIN_S = 5.0  # beyond each cell's own limit, which the student process enforces itself
    RERUN_SLACK_S = 2.0  # what a fresh process's run of the cells may take beyond the first run, on the grader's time

    def __init__(self, channel: Channel, cells: list[tuple[str, str]], timeout_s: int, output_bytes: int) -> None:
        self.channel, self.cells, self.timeout_s, self.output_bytes = channel, cells, timeout_s, output_bytes
        self.fds: tuple[int, int] | None = None  # (replies, requests) of the running process
        self.outputs: dict[str, Outputs] = {}  # each cell's outputs from its first run
        self.skipped: set[str] = set()  # cells that hung past their interrupt or killed the process
        self.ready = False
        # the functions of the part being graded: never replaced by a correct version
        self.under_test: Sequence[str] = ()
        # what the notebook may still print in all, counted here: the process's own count is the student's to change
        self.printed_left = output_bytes
        self.cut_marked = False  # whether the first cut has been marked (the rest are dropped silently)
        self.part = ""  # the part whose hidden check is calling (set by the worker)
        self.raised: str | None = None  # the type of what the last call raised (None: it returned)
        self.slowest_call_s = 0.0  # the longest a call has taken (the notebook's cells run before it not counted)
        self.sent_at: float | None = None  # when the last request was sent
        self.operators: dict[str, set[str]] = {}  # by part: what torch ran during its hidden calls (sandbox.trace)
        self.tampered: set[str] = set()  # parts during whose calls the recorder was left or its trace malformed
        # imports and programs of the notebook's code (sandbox.trace.Conduct): (kind, name, the cell whose
        # code did it, and what was running: ``cell:<id>`` as a cell ran, ``part:<name>`` during its tests and calls)
        self.events: set[tuple[str, str, str, str]] = set()
        self.phase = ""  # what is running now, for the events: ``cell:<id>`` or ``part:<name>``
        self.events_tampered = False  # whether the process sent events that were not well-formed
        # what the notebook changed of what the grader's code in its process relies on (sandbox.integrity), by name
        self.changed: set[str] = set()
        self.first_run_s: float | None = None  # how long the first run of the cells took, from the process's start
        self.started_at = 0.0
        self.rerun = False  # whether the next run of the cells is one the grader asked for (:meth:`fresh`)
        # told the seconds that are the grader's, not the student's (the cells run again for :meth:`fresh`), at most
        # ``rerun_budget_s`` in all (the worker gives each part the submission's limit)
        self.grader_time: Callable[[float], None] = lambda seconds: None
        self.rerun_budget_s = 0.0

    def start(self) -> None:
        """Start the process and hand it the cells, without waiting: it runs them while the caller works."""
        self.started_at = time.monotonic()
        self.fds = self.channel.open()
        cells = [[cell_id, source] for cell_id, source in self.cells if cell_id not in self.skipped]
        send_frame(self.fds[1], {"cells": cells, "cell_s": self.timeout_s, "output_bytes": self.output_bytes})
        self.ready = False

    def fresh(self) -> None:
        """Make the next call run in a fresh process that has run the notebook's cells and nothing else, as the first
        process ran them (a cell interrupted at its time limit there is run and interrupted again: the part's code is
        what the visible tests saw; only a cell that hung past its interrupt or killed the process, which the first
        process was started again without, is left out). That run is the grader's doing: its seconds, up to what the
        first run took and :data:`RERUN_SLACK_S`, are the grader's (:attr:`grader_time`, within
        :attr:`rerun_budget_s` in all), credited before it starts so that an honest notebook near its limit is never
        stopped by it; what it takes beyond that is the student's."""
        self.close()
        self.rerun = self.first_run_s is not None

    def run_cells(self) -> dict[str, Outputs]:
        """Wait until every cell has run (starting the server if need be); each cell's outputs."""
        credit = 0.0
        if self.rerun and not self.ready and self.first_run_s is not None:
            credit = max(0.0, min(self.first_run_s + self.RERUN_SLACK_S, self.rerun_budget_s))
        if credit:
            self.rerun_budget_s -= credit
            self.grader_time(credit)
        self.rerun = False
        try:
            return self._run_cells()
        finally:
            if credit:  # settled to what the run took, within the credit; what was not used is left for the next
                used = min(time.monotonic() - self.started_at, credit)
                self.rerun_budget_s += credit - used
                self.grader_time(used - credit)

    def _run_cells(self) -> dict[str, Outputs]:
        while not self.ready:
            if self.fds is None:
                self.start()
            assert self.fds is not None
            pending = [cell_id for cell_id, _ in self.cells if cell_id not in self.skipped]
            wait_s = self.STARTUP_S + self.timeout_s + self.MARGIN_S
            try:
                for cell_id in pending:
                    frame = receive_frame(self.fds[0], wait_s)
                    if not isinstance(frame, dict) or frame.get("cell") != cell_id:
                        raise ValueError("malformed reply")
                    if cell_id not in self.outputs:  # a cell's outputs from its first run (a restart runs it again)
                        self.outputs[cell_id] = self._capped(_outputs(frame.get("outputs")))
                    self._collect(frame.get("events"), f"cell:{cell_id}", frame.get("changed"))
                    wait_s = self.timeout_s + self.MARGIN_S
                receive_frame(self.fds[0], wait_s)
                self.ready = True
                if self.first_run_s is None:
                    self.first_run_s = time.monotonic() - self.started_at
            except Exception as error:  # noqa: BLE001
                # hung, died or wrote nonsense: the cell it was running is to blame
                culprit = next((c for c in pending if c not in self.outputs), None)
                self.close()
                if culprit is None:  # every cell ran: the process failed between them and the calls
                    raise StudentRaised(
                        "ProcessDied", f"the notebook's process stopped answering ({type(error).__name__})"
                    ) from None
                reason = (
                    "it did not stop when interrupted at its time limit"
                    if isinstance(error, TimeoutError)
                    else "it stopped the notebook's process"
                )
                self.outputs[culprit] = failed(
                    "TimeoutError" if isinstance(error, TimeoutError) else "ProcessDied",
                    f"this cell was not run to its end: {reason}; the rest of the notebook was run without it",
                )
                self.skipped.add(culprit)
        return self.outputs

    def _request(self, request: dict[str, Any], references: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its reply, answering on the way the student process's calls
        of the ``references`` it was given as proxies (they run here, never there)."""
        request = request | {"references": sorted(references)}
        try:
            self.run_cells()
            assert self.fds is not None
            self.sent_at = time.monotonic()  # the request's own time starts here, after the notebook's cells
            send_frame(self.fds[1], request)
            while True:
                reply = receive_frame(self.fds[0], self.timeout_s + self.MARGIN_S)
                if not isinstance(reply, dict):
                    raise ValueError("malformed reply")
                if "callback" not in reply:
                    self._collect(reply.get("events"), self.phase, reply.get("changed"))
                    return reply
                send_frame(self.fds[1], _callback(references, reply))
        except (StudentRaised, GraderFault):
            raise
        except TimeoutError:
            self.close()
            raise StudentRaised(
                "TimeoutError", f"ran past the time limit ({self.timeout_s:g} s) and did not stop when interrupted"
            ) from None
        except Exception as error:  # noqa: BLE001
            self.close()
            raise StudentRaised(
                "ProcessDied", f"the notebook's process stopped answering ({type(error).__name__})"
            ) from None

    def run(self, cell_id: str, source: str, references: str | None, exclude: Sequence[str]) -> Outputs:
        """Run a test cell's visible tests with the functions ``references`` defines (but those in
        ``exclude``, the part under test) in place of the student's."""
        self.phase = "part:" + cell_id.removeprefix("test_")  # a test cell's part
        try:
            return self._capped(
                _outputs(
                    self._request(
                        {"op": "run", "cell_id": cell_id, "source": source}, reference_functions(references, exclude)
                    )
                )
            )
        except StudentRaised as error:
            return failed(error.type_name, error.message)

    def _collect(self, value: Any, phase: str, changed: Any) -> None:
        """Keep the events (sandbox.trace.Conduct) a frame brings, and the names of what the notebook changed
        (sandbox.integrity.Watch); a malformed list of either is tampering."""
        events, well_formed = conduct_events(value)
        self.events.update((kind, name, where, phase) for kind, name, where in events)
        if not well_formed:
            self.events_tampered = True
        if type(changed) is list and all(type(name) is str for name in changed):
            self.changed.update(name[:200] for name in changed[:MAX_CHANGED])
        else:
            self.changed.add("(a malformed report)")

    def _capped(self, outputs: Outputs) -> Outputs:
        """``outputs`` with what it printed, and its error's message and traceback, cut to the
        notebook's allowance (counted here, in the grader: the process's own count is the student's)."""
        for stream in ("stdout", "stderr"):
            outputs[stream] = self._spend(outputs[stream])
        error = outputs["error"]
        if error is not None:
            outputs["error"] = [
                error[0],
                self._spend(error[1]),
                [line for line in (self._spend(line) for line in error[2]) if line],
            ]
        return outputs

    def _spend(self, text: str) -> str:
        """``text``, or as much of it as the allowance left, marked where it was cut."""
        left = max(self.printed_left, 0)
        self.printed_left -= len(text)
        if len(text) <= left:
            return text
        marked, self.cut_marked = self.cut_marked, True
        return text[:left] + ("" if marked else f"\n{CUT}\n")

    def call(self, name: str, args: Sequence[Any], **options: Unpack[CallOptions]) -> Reply:
        o = with_defaults(options)
        request = {
            "op": "call",
            "name": name,
            "args": wire(tuple(args), copies=laid_out(tuple(args))),
            "grad_args": [p if isinstance(p, int) else list(p) for p in o["grad_args"]],
            "grad_outputs": [int(i) for i in o["grad_outputs"]],
            "forbid": [list(f) for f in o["forbid"]],
            "driver": o["driver"],
            "global_seed": o["global_seed"],
            "grad_mode": o["grad_mode"],
            "threads": o["threads"],
        }
        self.phase = f"part:{self.part}"
        self.raised = None
        self.sent_at = None
        try:
            try:
                reply = self._request(request, reference_functions(o["references"], exclude=(name, *self.under_test)))
            finally:
                if self.sent_at is not None:
                    self.slowest_call_s = max(self.slowest_call_s, time.monotonic() - self.sent_at)
            if reply.get("error") is not None:
                raise hidden_error(reply["error"], o["forbid"])
        except StudentRaised as error:
            self.raised = error.type_name
            raise
        operators, well_formed = trace_names(reply.get("operators"))
        intact = well_formed and reply.get("trace_intact") is True
        self.operators.setdefault(self.part, set()).update(operators)
        if not intact:
            self.tampered.add(self.part)
        grads = reply.get("grads")
        value = unwire(reply.get("value"))
        facts = reply.get("facts")
        return judged(
            Reply(
                value,
                tuple(unwire(reply.get("inputs_after", ()))),
                tuple(unwire(list(grads))) if isinstance(grads, (list, tuple)) else None,
                bool(reply.get("differentiable")),
                operators,
                intact,
                facts=facts if type(facts) is dict else {},
            ),
            o["grad_mode"],
        )

    def close(self) -> None:
        if self.fds is not None:
            self.channel.close()
            self.fds = None
        self.ready = False


PLAIN_ERRORS = {
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
}


def hidden_error(error: Any, forbid: Sequence[tuple[str, str]]) -> StudentRaised:
    """What a student's function raised during a hidden check, as the grader reports it.

    The process that raised it held the check's inputs (and a driver's code), so its message is
    not shown: the student's code could write them into it. The feedback gets the exception's
    type, if Python names it (else "an exception of the notebook's own"), and a message written
    here. The visible tests, run first, show the messages of the errors they meet."""
    type_name = str(error[0]) if isinstance(error, (list, tuple)) and error else ""
    if type_name == "Refused" and forbid:
        names = ", ".join(f"{module}.{attr}" for module, attr in forbid)
        return StudentRaised(
            "Refused", f"calls a library function this part asks you to write yourself (one of {names})"
        )
    if type_name == "TimeoutError":
        return StudentRaised("TimeoutError", "ran past its time limit on a hidden case")
    if type_name == "ProcessDied":
        return StudentRaised("ProcessDied", "stopped the notebook's process on a hidden case")
    shown = type_name if type_name in PLAIN_ERRORS or type_name in ("NotImplementedError",) else "Exception"
    return StudentRaised(
        shown,
        "on a hidden case (its message is not shown: it could carry the hidden inputs; the visible tests and "
        "`course check` show messages)",
    )


def _callback(references: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """Run a reference function for the student process: its value, or the error it raised."""
    function = references.get(str(request.get("callback")))
    if function is None:
        return {"error": f"no correct version of {request.get('callback')!r} is given here"}
    try:
        args, kwargs = unwire(request.get("args", ())), unwire(request.get("kwargs", {}))
        backward = request.get("backward")
        if isinstance(backward, dict):
            positions = [int(p) for p in backward.get("positions", [])]
            grads = unwire(backward.get("grad_outputs", []))
            return {"value": wire(reference_backward(function, args, kwargs, positions, grads))}
        return {"value": wire(function(*args, **kwargs))}
    except Exception as error:  # noqa: BLE001 (the student's code passed it something it cannot take)
        return {"error": f"{type(error).__name__}: {error}"}


def _outputs(value: Any) -> Outputs:
    """A cell's outputs as the student's process sent them, checked for shape (it is not trusted)."""
    if not isinstance(value, dict):
        return failed("ProcessDied", "the notebook's process sent no outputs")
    error = value.get("error")
    if error is not None and not (isinstance(error, (list, tuple)) and len(error) == 3):
        error = ["Error", "malformed error", []]
    if error is not None:
        error = [
            str(error[0])[:200],
            str(error[1])[:2000],
            [str(line) for line in error[2]][:200] if isinstance(error[2], (list, tuple)) else [],
        ]
    return {"stdout": str(value.get("stdout", "")), "stderr": str(value.get("stderr", "")), "error": error}
