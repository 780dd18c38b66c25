"""The student's side of ``course grade``: run a notebook's code, then run its tests and answer calls.

A zygote (:func:`zygote`) started inside the jail (see :mod:`course_grading.sandbox.jail`) by the grading
worker forks one child per submission; the child is the only process that runs the student's code,
and talks to :class:`course_grading.sandbox.calls.RemoteStudent` over a Unix socket in frames (see
:mod:`course_grading.sandbox.calls`):

* in: ``{"cells": [[cell id, source], ...], "cell_s": seconds, "output_bytes": n}``. The cells (the
  notebook's code, test cells excluded) run in order in one namespace, each answered as it ends
  with ``{"cell": id, "outputs": {...}}`` (:func:`run_cell`), then ``{"ready": True}``. Answering
  cell by cell tells the grader which cell hangs past every interrupt or kills the process.
* then one request per frame, each answered with one frame:
  ``{"op": "run", "source", "references"}`` runs a test cell's visible tests and answers its
  outputs; ``{"op": "call", "name", "args", ..., "references", "driver"}`` calls one function (the
  student's, or one the check's ``driver`` source defines beside the student's code) for a hidden
  check and answers ``{"value", "inputs_after", "grads", "differentiable"}`` or ``{"error": (type
  name, message)}``. ``references`` names the correct versions of the other parts that replace the
  student's during the request: here they are proxies, each call of which is sent to the grader
  as ``{"callback": name, "args", "kwargs"}`` and answered with ``{"value"}`` or ``{"error"}``, and
  each backward pass through one as the same with ``"backward": {"positions", "grad_outputs"}``,
  answered with the gradients; their code never enters this process.

Each cell, test run and call is interrupted after ``cell_s`` seconds. What the notebook prints is
captured per cell, and cut after ``output_bytes`` in all; nothing it prints can reach the frames.
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import io
import linecache
import os
import re
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any

from torch import Tensor

from course_grading.sandbox import compilers, container, seccomp
from course_grading.sandbox.calls import (
    CUT,
    GRAD_MODES,
    MAX_THREADS,
    call_in,
    receive_frame,
    send_frame,
    swapped,
    unwire,
    wire,
)
from course_grading.sandbox.integrity import Watch
from course_grading.sandbox.jail import isolate, seal
from course_grading.sandbox.reference_grads import RemoteCall, grad_positions, tensor_leaves, with_leaves
from course_grading.sandbox.trace import Conduct

__all__ = [
    "Capped",
    "CellTimeout",
    "ReferencePartError",
    "answer",
    "code_guard",
    "proxies",
    "run_cell",
    "serve",
    "stand_ins",
    "warm_up",
    "zygote",
]


class CellTimeout(BaseException):
    """Raised in the student's code when a cell, a test run or a call passes its time limit."""


def _interrupt(signum: int, frame: object) -> None:
    raise CellTimeout


class Capped(io.TextIOBase):
    """A text stream that keeps what is written until the notebook's whole allowance is spent."""

    def __init__(self, allowance: list[int]) -> None:
        self.allowance, self.parts = allowance, list[str]()  # allowance: [bytes left], shared by all streams

    def write(self, text: str) -> int:
        if self.allowance[0] > 0:
            kept = text[: self.allowance[0]]
            self.parts.append(kept if len(kept) == len(text) else kept + f"\n{CUT}\n")
        self.allowance[0] -= len(text)
        return len(text)

    def value(self) -> str:
        return "".join(self.parts)


# What a notebook's namespace starts with besides ``__name__``: IPython's ``get_ipython`` and ``display``, made from
# this source in a namespace of their own (:func:`stand_ins`), so that nothing of the grader's can be reached from them
# (attacks_v: the grader's own ``display.__globals__`` led to ``call_in``'s module, whose functions decide a reply's
# flags)
_STAND_INS = """
class NoShell:
    \"\"\"get_ipython() for cells with IPython syntax (%timeit, !pip): the grader runs no magics.\"\"\"

    def _skip(self, *args, **kwargs):
        print(f"[the grader does not run IPython magics or shell commands: {args[0] if args else ''} skipped]")

    run_line_magic = run_cell_magic = system = getoutput = _skip


def display(*values, **options):
    \"\"\"Jupyter's display for cells that call it: what it would show, as text.\"\"\"
    for value in values:
        print(repr(value))
"""


def stand_ins() -> dict[str, Any]:
    """``get_ipython`` and ``display`` for a notebook's namespace, defined anew with Python's builtins alone."""
    defined: dict[str, Any] = {"__builtins__": builtins, "__name__": "ipython_stand_ins"}
    exec(compile(_STAND_INS, "<ipython stand-ins>", "exec"), defined)
    return {"get_ipython": defined["NoShell"], "display": defined["display"]}


_TIMED = re.compile(r"\A(?:[ \t]*\n)*%%time[ \t]*(?:\n|\Z)")  # a cell under ``%%time``: its code runs as it is
_TIMED_LINE = re.compile(r"^([ \t]*)%time[ \t]+(?=\S)", re.MULTILINE)  # ``%time x = f()``: the statement runs


def _python(source: str) -> str:
    """IPython syntax (magics, ``!cmd``) turned into plain Python calls on ``get_ipython()``. The
    body of a ``%%time`` cell, and the statement of a ``%time`` line, are plain code, run as Jupyter
    runs them (a helper defined there exists afterwards); the shortcut scan reads that same text."""
    source = _TIMED_LINE.sub(r"\1", _TIMED.sub("", source, count=1))
    if "%" not in source and "!" not in source:
        return source
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        return TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 (whatever IPython makes of it, compile() reports the error)
        return source


def run_cell(namespace: dict[str, Any], cell_id: str, source: str, cell_s: int, allowance: list[int]) -> dict[str, Any]:
    """Execute one cell in ``namespace``: ``{"stdout", "stderr", "error": None | [name, message,
    traceback lines]}``. The traceback keeps the frames of the notebook's own cells only."""
    filename = f"<cell {cell_id}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # tracebacks quote the lines
    out, err = Capped(allowance), Capped(allowance)
    error: list[Any] | None = None
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    signal.alarm(cell_s)
    try:
        exec(compile(_python(source), filename, "exec"), namespace)
    except CellTimeout:
        error = ["TimeoutError", f"the cell ran past its time limit ({cell_s} s) and was interrupted", []]
    except BaseException as exc:  # noqa: BLE001 (SystemExit and KeyboardInterrupt too: the notebook goes on)
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith("<cell ")]
        lines = traceback.format_list(frames) if frames else []
        if isinstance(exc, SyntaxError):
            lines = traceback.format_exception_only(type(exc), exc)[:-1]
        error = [
            type(exc).__name__,
            str(exc)[:2000],
            ["Traceback (most recent call last):\n", *lines] if lines and not isinstance(exc, SyntaxError) else lines,
        ]
    finally:
        signal.alarm(0)
        sys.stdout, sys.stderr = saved
    return {"stdout": out.value(), "stderr": err.value(), "error": error}


def _timed(cell_s: int, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    signal.alarm(cell_s)
    try:
        return work()
    except CellTimeout:
        return {"error": ("TimeoutError", f"ran past the time limit ({cell_s} s)")}
    finally:
        signal.alarm(0)


class ReferencePartError(Exception):
    """A correct version of another part could not take what the student's code passed it."""


def proxies(names: list[str], requests: int, replies: int) -> dict[str, Callable[..., Any]]:
    """Stand-ins for the grader's correct versions of other parts: each call runs in the grader, and so does
    its backward pass when the student's code differentiates through it (see
    :mod:`course_grading.sandbox.reference_grads`)."""

    def proxy(name: str) -> Callable[..., Any]:
        def remote(request: dict[str, Any]) -> Any:
            # a time limit may not cut a call and its reply apart
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            try:
                send_frame(replies, {"callback": name} | request)
                reply = receive_frame(requests)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
            if not isinstance(reply, dict) or "error" in reply:
                raise ReferencePartError(
                    f"the correct {name} could not run on these arguments: "
                    f"{reply.get('error') if isinstance(reply, dict) else reply}"
                )
            return unwire(reply.get("value"))

        def call(*args: Any, **kwargs: Any) -> Any:
            arguments = {"args": wire(args), "kwargs": wire(kwargs)}
            positions = grad_positions((args, kwargs))
            if not positions:
                return remote(arguments)
            given = tensor_leaves((args, kwargs))
            value: list[Any] = []

            def forward() -> Any:
                value.append(remote(arguments))
                return value[0]

            def backward(grads: list[Tensor]) -> list[Tensor | None]:
                found = remote(arguments | {"backward": {"positions": positions, "grad_outputs": wire(grads)}})
                if not (isinstance(found, list) and len(found) == len(positions)):
                    raise ReferencePartError(f"the correct {name} sent no gradients for its arguments")
                return found

            leaves = RemoteCall.apply(forward, backward, *[given[p] for p in positions])
            return with_leaves(value[0], leaves)

        call.__name__ = call.__qualname__ = name
        return call

    return {name: proxy(name) for name in names}


def answer(
    namespace: dict[str, Any],
    request: dict[str, Any],
    cell_s: int,
    allowance: list[int],
    requests: int,
    replies: int,
    watch: Watch | None = None,
) -> dict[str, Any]:
    """The reply to one request after the cells have run."""
    references = proxies(list(request.get("references", [])), requests, replies)
    if request.get("op") == "run":
        with swapped(namespace, references):
            return run_cell(namespace, request["cell_id"], request["source"], cell_s, allowance)

    def call() -> dict[str, Any]:
        driver = request.get("driver")
        grad_args = [
            p if isinstance(p, int) else (int(p[0]), p[1] if isinstance(p[1], int) else str(p[1]))
            for p in request["grad_args"]
        ]
        seed = request.get("global_seed")
        reply = call_in(
            namespace,
            request["name"],
            request["args"],
            grad_args,
            [tuple(f) for f in request["forbid"]],
            references,
            driver if isinstance(driver, str) else None,
            seed if isinstance(seed, int) else None,
            [int(i) for i in request.get("grad_outputs", [0])],
            mode if (mode := request.get("grad_mode")) in GRAD_MODES else "enabled",
            count if type(count := request.get("threads")) is int and 1 <= count <= MAX_THREADS else None,
            watch,
        )
        return {
            "value": wire(reply.value),
            "inputs_after": wire(reply.inputs_after),
            "grads": wire(reply.grads),
            "differentiable": reply.differentiable,
            "operators": sorted(reply.operators),
            "trace_intact": reply.trace_intact,
            "facts": reply.facts,  # plain data: the grader judges the flags from it (calls.judged)
        }

    return _timed(cell_s, call)


def serve(requests: int, replies: int) -> None:
    """Run the cells the first frame on ``requests`` brings, then answer requests until it closes."""
    namespace: dict[str, Any] = {"__name__": "__main__", **stand_ins()}
    conduct = Conduct()
    watch = Watch()  # before any notebook code: what the grader's code here relies on, as it is
    sys.addaudithook(conduct.hook)  # for good: Python lets no code remove an audit hook
    setup = receive_frame(requests)
    cell_s, allowance = int(setup["cell_s"]), [int(setup["output_bytes"])]
    signal.signal(signal.SIGALRM, _interrupt)
    for cell_id, source in setup["cells"]:
        outputs = run_cell(namespace, cell_id, source, cell_s, allowance)
        send_frame(
            replies, {"cell": cell_id, "outputs": outputs, "events": conduct.drain(), "changed": watch.changed()}
        )
    send_frame(replies, {"ready": True})
    while True:
        try:
            request = receive_frame(requests)
        except EOFError:
            return
        try:
            message = answer(namespace, request, cell_s, allowance, requests, replies, watch)
        except BaseException as error:  # noqa: BLE001 (whatever the student's code raises is a reply)
            message = {"error": (type(error).__name__, str(error)[:2000])}
        send_frame(replies, message | {"events": conduct.drain(), "changed": watch.changed()})


def _quiet() -> None:
    """What C code prints goes nowhere; what Python prints is captured per cell."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)


CODE_SUFFIXES = (".py", ".pyc", ".pyo", ".pyw", ".pth", ".so", ".zip", ".egg", ".whl")


def code_guard() -> Callable[[str, tuple[Any, ...]], None]:
    """An audit hook that refuses to read Python code, or load a library, from any folder the student
    process can write (its private ``/tmp`` and ``/dev/shm``; in the container jail its home and the
    world-writable folders), so that a module it writes there, under the name of an allowed one found
    first on a ``sys.path`` it edited, is never imported: what runs is what the grader can read. What
    the jail showed read-only (Python itself, in a checkout under ``/tmp``) stays importable; writing
    such a file, or reading other files there, stays allowed."""

    def writable(path: str) -> bool:
        return os.access(path, os.W_OK) or os.access(os.path.dirname(path), os.W_OK)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if (
            event == "open"
            and isinstance(args[0], (str, bytes))
            and (args[1] is None or not any(m in str(args[1]) for m in "wax+"))
        ):
            path = os.path.realpath(os.fsdecode(args[0]))
            if path.endswith(CODE_SUFFIXES) and writable(path):
                raise PermissionError(
                    f"the grader does not load code from {path}: write your code in the notebook's cells"
                )
        elif event == "ctypes.dlopen" and isinstance(args[0], (str, bytes)) and "/" in os.fsdecode(args[0]):
            path = os.path.realpath(os.fsdecode(args[0]))
            if writable(path):
                raise PermissionError(f"the grader does not load a library from {path}")

    return hook


def _reset(previous: int | None) -> None:
    """Kill every process of this PID namespace but this one (the zygote is its PID 1; elsewhere,
    the previous child's session), and reap them."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpid() == 1:
            os.kill(-1, signal.SIGKILL)
        elif previous is not None:
            os.killpg(previous, signal.SIGKILL)
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def warm_up() -> None:
    """Import, here in the zygote, what torch imports on the first operation under a dispatch mode
    (its compiler's modules, sympy: a second), so that every child starts with them loaded and no
    import happens during a hidden call, where a ``sys.path`` the student's code changed could make
    it fail. Imports only: an operation under a mode before the fork leaves the children hanging."""
    import torch._dynamo  # noqa: F401


def zygote() -> None:
    """``python -m course_grading.sandbox.student_server``: import torch once, then fork a fresh
    student process per request (``{"socket": path, "home": path}`` on stdin, one JSON line each).

    Each child isolates itself (:func:`course_grading.sandbox.jail.isolate`: its own namespaces, an empty
    ``/tmp``, which is its home), connects to the Unix socket at ``path`` (in the slot ``home``),
    seals itself (:func:`course_grading.sandbox.jail.seal`: the slot covered, no capability), and serves
    one submission on the socket (:func:`serve`). With the argument ``container``
    (:mod:`course_grading.sandbox.container`) and its job slot's user id, the zygote stays root: each child
    connects first, then confines itself as that user (:func:`course_grading.sandbox.container.confine`), and the
    zygote kills all below it and sweeps what that user left in the world-writable folders between children.
    Before each fork, and on ``{"reset": true}``, everything the previous child left running is
    killed. Forking costs milliseconds where a new process costs seconds (``import torch``)."""
    import json
    import socket

    import torch  # noqa: F401 (imported once, here, for every child)
    import torch.nn.functional  # noqa: F401

    warm_up()
    compilers.refuse_compilers()  # every child inherits it: no compiled code runs beside the trace

    # ``container UID``: the container jail, its children run as UID (their job slot's user)
    in_container = sys.argv[1:2] == [container.CONTAINER]
    uid = int(sys.argv[2]) if in_container else 0
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no child may read or write this process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # nor stop it with an interrupt
    if in_container:
        container.become_subreaper()
    places = container.writable_places() if in_container else ()
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    commands = os.fdopen(os.dup(0))
    _quiet()
    child = None
    for line in commands:
        request = json.loads(line)
        tasks = 0
        if in_container:
            tasks = container.kill_descendants()
            container.sweep(uid, places)
        else:
            _reset(child)
        child = None
        if "socket" in request:
            home = container.fresh_home(uid) if in_container else request["home"]
            child = os.fork()
            if child == 0:
                try:
                    os.setsid()
                    signal.signal(signal.SIGINT, signal.default_int_handler)
                    replies.close()
                    commands.close()
                    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    if in_container:  # connected as root (the slot is root's alone), then confined
                        connection.connect(request["socket"])
                        container.confine(home, uid)
                    else:
                        # raises where it cannot: then it never connects, and the worker reports a grader fault
                        isolate(home)
                        connection.connect(request["socket"])
                        seal(home)
                    sys.addaudithook(code_guard())  # for good: no hook can be removed
                    seccomp.forbid_new_tasks()  # for good: the student's code runs in this thread alone
                    seccomp.forbid_other_processes()  # nor touches the zygote (its limits) or anyone else
                    serve(connection.fileno(), connection.fileno())
                finally:
                    os._exit(0)
        # the tasks the previous child left (container jail: its process count)
        replies.write(json.dumps({"tasks": tasks}) + "\n")


if __name__ == "__main__":
    zygote()
