"""Calling a student's function for a hidden check, in the notebook or across a process boundary.

A hidden check never touches a student's function directly: it asks a :class:`Student` to
``call(name, args, ...)`` it and gets back a :class:`Reply` of plain values (tensors, numbers,
strings, tuples, lists). The same check runs in two places:

* in the notebook's kernel, through :class:`LocalStudent` (nbgrader's pass, ``course check``, the
  fast harness): the student's code and the check share one interpreter;
* in ``course grade``'s trusted re-check, through :class:`RemoteStudent`: the student's code runs
  in a jailed server process (:mod:`course_grading.student_server`) and only values cross over,
  decoded with ``torch.load(weights_only=True)``. Whatever the student's code patches (``torch``,
  ``numpy.testing``, the grading modules), the oracle and the comparison run in a process it never
  touched.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import select
import struct
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import torch
from torch import Tensor

MAX_FRAME = 256 * 2**20  # the largest reply accepted from a student's process
OPAQUE = "__opaque__"  # marks a value that could not cross: {OPAQUE: its type's name}


class Refused(Exception):
    """Raised inside the student's code when it calls a function a check forbids."""


class StudentRaised(Exception):
    """The student's function raised (or was refused, or hung, or crashed its process)."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type_name, self.message = type_name, message


@dataclass(frozen=True)
class Opaque:
    """A returned value of a type that does not cross the process boundary (a NumPy array, say)."""

    type_name: str


@dataclass
class Reply:
    value: Any  # what the function returned (tensors detached, inside tuples, lists, dicts too)
    inputs_after: tuple[Any, ...]  # the arguments after the call (in-place changes show here)
    grads: tuple[Tensor | None, ...] | None  # d(probe . output)/d(args[i]) for the asked i, if any
    differentiable: bool  # whether the output carried a gradient back to the asked arguments


class Student(Protocol):
    def call(self, name: str, args: Sequence[Any], *, grad_args: Sequence[int] = (), forbid: Sequence[tuple[str, str]] = (), references: str | None = None) -> Reply:
        """Call the student's ``name(*args)``. ``grad_args``: indices of arguments to differentiate
        ``probe(output) . output`` against; ``forbid``: (module, attribute) pairs that raise
        :class:`Refused` during the call, under their own names and any alias in the notebook;
        ``references``: Python source whose functions replace the student's functions of the same
        names during the call (so that one part is graded with correct versions of the others)."""
        ...


def probe(out: Tensor) -> Tensor:
    """The fixed weights of the linear function of an output whose gradient a check compares."""
    return torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view(out.shape)


# ----------------------------------------------------------------------------- calling locally


@contextlib.contextmanager
def swapped(namespace: dict[str, Any], replacements: dict[str, Any]) -> Iterator[None]:
    """Replace names in ``namespace``, and every alias of the replaced objects, then restore them."""
    missing = object()
    replacements = dict(replacements)
    for name, new in list(replacements.items()):
        old = namespace.get(name, missing)
        if old is not missing and callable(old):
            replacements |= {alias: new for alias, value in namespace.items() if value is old}
    saved = {name: namespace.get(name, missing) for name in replacements}
    namespace.update(replacements)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is missing:
                namespace.pop(name, None)
            else:
                namespace[name] = value


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


def call_in(namespace: dict[str, Any], name: str, args: Sequence[Any], grad_args: Sequence[int] = (), forbid: Sequence[tuple[str, str]] = (), references: str | None = None) -> Reply:
    """Call ``namespace[name](*args)`` as :meth:`Student.call` describes; the student's exceptions propagate."""
    memo: dict[int, Any] = {}  # the student gets copies (the caller's tensors stay as they were), aliases kept
    args = [_copy(a, memo) for a in args]
    args = [a.requires_grad_(True) if i in grad_args and isinstance(a, Tensor) and a.is_floating_point() else a for i, a in enumerate(args)]
    replacements: dict[str, Any] = {}
    if references is not None:
        exec(compile(references, "<reference parts>", "exec"), replacements)
        replacements = {k: v for k, v in replacements.items() if callable(v) and not k.startswith("_")}
    if name not in namespace:
        raise NameError(f"name {name!r} is not defined")
    with swapped(namespace, replacements), _forbidden(namespace, forbid):
        value = namespace[name](*args)
    grads: tuple[Tensor | None, ...] | None = None
    out = value[0] if isinstance(value, tuple) and value else value
    differentiable = isinstance(out, Tensor) and out.requires_grad
    if grad_args and differentiable:
        wrt = [args[i] for i in grad_args]
        grads = torch.autograd.grad((out * probe(out).detach()).sum(), wrt, allow_unused=True)
    return Reply(_detached(value), tuple(_detached(a) for a in args), grads, differentiable)


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    """Tensors cloned, inside tuples, lists and dicts too; one clone per original tensor."""
    if isinstance(value, Tensor):
        if id(value) not in memo:
            memo[id(value)] = value.detach().clone()
        return memo[id(value)]
    if isinstance(value, (tuple, list)):
        return type(value)(_copy(v, memo) for v in value)
    if isinstance(value, dict):
        return {k: _copy(v, memo) for k, v in value.items()}
    return value


def _detached(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        return type(value)(_detached(v) for v in value)
    if isinstance(value, dict):
        return {k: _detached(v) for k, v in value.items()}
    return value


class LocalStudent:
    """The student's functions in this interpreter's ``namespace`` (a notebook's ``globals()``)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    def call(self, name: str, args: Sequence[Any], *, grad_args: Sequence[int] = (), forbid: Sequence[tuple[str, str]] = (), references: str | None = None) -> Reply:
        try:
            return call_in(self.namespace, name, args, grad_args, forbid, references)
        except Exception as error:
            raise StudentRaised(type(error).__name__, str(error)) from error


# ------------------------------------------------------------------------------- the wire


def wire(value: Any, depth: int = 0) -> Any:
    """``value`` made of what ``torch.load(weights_only=True)`` accepts; anything else becomes a marker."""
    if isinstance(value, Tensor):
        return value.detach().cpu().clone() if value.layout == torch.strided else {OPAQUE: "sparse tensor"}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)) and depth < 4:
        return type(value)(wire(v, depth + 1) for v in value)
    if isinstance(value, dict) and depth < 4 and all(isinstance(k, str) and k != OPAQUE for k in value):
        return {k: wire(v, depth + 1) for k, v in value.items()}
    return {OPAQUE: type(value).__name__}


def unwire(value: Any) -> Any:
    if isinstance(value, dict):
        if OPAQUE in value:
            return Opaque(str(value[OPAQUE]))
        return {str(k): unwire(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(unwire(v) for v in value)
    return value


def send_frame(fd: int, message: Any) -> None:
    buffer = io.BytesIO()
    torch.save(message, buffer)
    data = buffer.getvalue()
    view = memoryview(struct.pack("<Q", len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, n: int, deadline_s: float | None) -> bytes:
    chunks, got = [], 0
    while got < n:
        if deadline_s is not None and not select.select([fd], [], [], deadline_s)[0]:
            raise TimeoutError
        chunk = os.read(fd, min(n - got, 2**20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive_frame(fd: int, timeout_s: float | None = None) -> Any:
    """One message; only tensors and plain containers are decoded (``weights_only``), never code."""
    (size,) = struct.unpack("<Q", _read_exactly(fd, 8, timeout_s))
    if size > MAX_FRAME:
        raise ValueError(f"a reply of {size} bytes is larger than the {MAX_FRAME} allowed")
    return torch.load(io.BytesIO(_read_exactly(fd, size, timeout_s)), weights_only=True)


# ----------------------------------------------------------------------------- calling remotely


class RemoteStudent:
    """The student's functions in a server process started by ``argv`` (see student_server).

    The server executes ``cells`` (the notebook's code, tests excluded) once, then answers calls.
    A call that runs longer than ``timeout_s`` or that kills the server raises
    :class:`StudentRaised`; the server is then restarted for the next call.
    """

    def __init__(self, argv: list[str], cells: list[str], timeout_s: float, env: dict[str, str] | None = None) -> None:
        self.argv, self.cells, self.timeout_s, self.env = argv, cells, timeout_s, env
        self.process: subprocess.Popen[bytes] | None = None
        self.ready = False

    STARTUP_S = 60.0

    def start(self) -> None:
        """Start the server and hand it the cells, without waiting: it starts up while the caller works."""
        self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env)
        assert self.process.stdin is not None
        send_frame(self.process.stdin.fileno(), {"cells": self.cells, "cell_s": self.timeout_s})
        self.ready = False

    def _wait_ready(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        # Start-up (torch's import) plus each cell's time limit, and a margin for a busy machine.
        receive_frame(self.process.stdout.fileno(), self.STARTUP_S + self.timeout_s * (len(self.cells) + 1))
        self.ready = True

    def call(self, name: str, args: Sequence[Any], *, grad_args: Sequence[int] = (), forbid: Sequence[tuple[str, str]] = (), references: str | None = None) -> Reply:
        request = {"name": name, "args": wire(tuple(args)), "grad_args": list(grad_args), "forbid": [list(f) for f in forbid], "references": references}
        try:
            if self.process is None:
                self.start()
            if not self.ready:
                self._wait_ready()
            assert self.process is not None and self.process.stdin is not None and self.process.stdout is not None
            send_frame(self.process.stdin.fileno(), request)
            reply = receive_frame(self.process.stdout.fileno(), self.timeout_s)
            if not isinstance(reply, dict):
                raise ValueError("malformed reply")
        except TimeoutError:
            self.close()
            raise StudentRaised("TimeoutError", f"ran past the time limit ({self.timeout_s:g} s a call)") from None
        except Exception as error:
            self.close()
            raise StudentRaised("ProcessDied", f"the notebook's process stopped answering ({type(error).__name__})") from None
        if reply.get("error") is not None:
            type_name, message = reply["error"]
            raise StudentRaised(str(type_name), str(message))
        grads = reply.get("grads")
        return Reply(unwire(reply.get("value")), tuple(unwire(reply.get("inputs_after", ()))), tuple(unwire(list(grads))) if isinstance(grads, (list, tuple)) else None, bool(reply.get("differentiable")))

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
