"""The student's side of ``course grade``'s trusted re-check: run a notebook's code, answer calls.

Started (inside the jail, see :mod:`course_grading.jail`) by :class:`course_grading.calls.RemoteStudent`.
Reads frames from stdin: first ``{"cells": [source, ...], "cell_s": seconds}``, executed in order in
one namespace (a cell that raises or runs past ``cell_s`` is cut short, as nbgrader goes on after an
error or an interrupt) and answered with ``{"ready": True}``, then one call request per
frame, each answered on the original stdout with ``{"value", "inputs_after", "grads",
"differentiable"}`` or ``{"error": (type name, message)}``. The notebook's own output goes to
/dev/null so that it cannot mix with the replies.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

from .calls import call_in, receive_frame, send_frame, wire


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt("the cell ran past its time limit")


def main() -> None:
    replies = os.dup(1)
    requests = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdout = sys.stderr = open(os.devnull, "w")
    namespace: dict[str, Any] = {"__name__": "__main__"}
    setup = receive_frame(requests)
    signal.signal(signal.SIGALRM, _interrupt)
    for source in setup["cells"]:
        signal.alarm(int(setup["cell_s"]))
        with contextlib.suppress(BaseException):
            exec(compile(source, "<cell>", "exec"), namespace)
        signal.alarm(0)
    send_frame(replies, {"ready": True})
    while True:
        try:
            request = receive_frame(requests)
        except EOFError:
            return
        try:
            reply = call_in(namespace, request["name"], request["args"], request["grad_args"], [tuple(f) for f in request["forbid"]], request["references"])
            message = {"value": wire(reply.value), "inputs_after": wire(reply.inputs_after), "grads": wire(reply.grads), "differentiable": reply.differentiable}
        except BaseException as error:
            message = {"error": (type(error).__name__, str(error)[:2000])}
        send_frame(replies, message)


if __name__ == "__main__":
    main()
