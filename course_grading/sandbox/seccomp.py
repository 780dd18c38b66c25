"""Seccomp filters a student process installs on itself, for good: no filter can be removed, and every
process it would start inherits it.

* :func:`forbid_sockets` (the container jail, where no network namespace can be made): no new socket of
  any kind, no ``io_uring`` to go around it.
* :func:`forbid_new_tasks` (both jails): no new thread and no new process. A student's code runs in the
  one thread the grader watches: the operator trace (:mod:`course_grading.sandbox.trace`) and the calls'
  guards see only the calling thread, so work done in another thread, or in a child process, would be
  work nobody looked at (attacks_n: a forbidden routine run in a thread scored full marks). torch's own
  thread pools are told to use this one thread before the filter goes in.

Each is a classic BPF program: a call made under another architecture's numbering (32-bit compatibility
calls, and x86_64's x32 calls) is refused as well, since the numbers below mean other calls there.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

__all__ = ["forbid_new_tasks", "forbid_sockets"]

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
# audit architecture, whether x32 numbers exist, and the calls each filter refuses, by machine
_AUDIT = {"x86_64": (0xC000003E, True), "aarch64": (0xC00000B7, False)}
_SOCKETS: dict[str, tuple[int, ...]] = {"x86_64": (41, 425), "aarch64": (198, 425)}  # socket, io_uring_setup
_TASKS: dict[str, tuple[int, ...]] = {
    "x86_64": (56, 57, 58, 435),
    "aarch64": (220, 435),
}  # clone, fork, vfork, clone3 (aarch64: clone, clone3)
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000

_libc = ctypes.CDLL(None, use_errno=True)


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _refuse(calls: dict[str, tuple[int, ...]], error: int, what: str) -> None:
    """Install a filter that makes each of ``calls`` (this machine's numbers) fail with ``error``."""
    machine = platform.machine()
    if machine not in _AUDIT:
        raise OSError(errno.ENOSYS, f"the jail's seccomp filters know x86_64 and aarch64, not {machine}")
    arch, x32 = _AUDIT[machine]
    checks = ([(_JGE, 0x40000000)] if x32 else []) + [(_JEQ, nr) for nr in calls[machine]]
    deny = 5 + len(checks)  # the index of the last instruction: 4 before the checks, then the checks and ALLOW
    code = [(_LD_ABS, 0, 0, 4), (_JEQ, 1, 0, arch), (_RET, 0, 0, _ERRNO | errno.EPERM), (_LD_ABS, 0, 0, 0)]
    code += [(op, deny - (len(code) + i) - 1, 0, k) for i, (op, k) in enumerate(checks)]
    code += [(_RET, 0, 0, _ALLOW), (_RET, 0, 0, _ERRNO | error)]
    filters = (_Filter * len(code))(*[_Filter(*c) for c in code])
    program = _Program(len(code), filters)
    if (
        _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        or _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0
    ):
        number = ctypes.get_errno()
        raise OSError(number, f"the jail's seccomp filter ({what}): {os.strerror(number)}")


def forbid_sockets() -> None:
    """No new socket of any kind (no network, no Unix socket of the container's services), no io_uring:
    each such call fails with EACCES."""
    _refuse(_SOCKETS, errno.EACCES, "sockets")


def forbid_new_tasks() -> None:
    """No new thread and no new process (``clone``, ``clone3``, ``fork``, ``vfork``): each fails with EPERM
    (Python says "can't start new thread", or PermissionError). torch's thread pools are set to this
    thread first, so that no operation of torch's needs another."""
    import torch  # here, not at the top: the container jail's own checks import this module without torch

    torch.set_num_threads(1)
    _refuse(_TASKS, errno.EPERM, "threads and processes")
