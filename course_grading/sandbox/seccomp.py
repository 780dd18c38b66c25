"""Seccomp filters a student process installs on itself, for good: no filter can be removed, and every
process it would start inherits it.

* :func:`forbid_sockets` (the container jail, where no network namespace can be made): no new socket of
  any kind, no ``io_uring`` to go around it.
* :func:`forbid_new_tasks` (both jails): no new thread and no new process. A student's code runs in the
  one thread the grader watches: the operator trace (:mod:`course_grading.sandbox.trace`) and the calls'
  guards see only the calling thread, so work done in another thread, or in a child process, would be
  work nobody looked at (attacks_n: a forbidden routine run in a thread scored full marks). torch's own
  thread pools are told to use this one thread before the filter goes in.

* :func:`forbid_other_processes` (both jails): nothing done to another process. No call that reads, writes, traces
  or signals another process, or changes its limits, its scheduling or its priority: such calls may name this
  process alone (pid 0 or its own). In the namespace jail the zygote that forks every student process runs as the
  same user as the student's code (attacks_x: ``resource.prlimit(1, ...)`` lowered the zygote's limits, and every
  process it forked afterwards, the next submissions' and the answer key's control, inherited them: a batch not
  graded, an honest notebook's memory cut short).

Each is a classic BPF program: a call made under another architecture's numbering (32-bit compatibility
calls, and x86_64's x32 calls) is refused as well, since the numbers below mean other calls there.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

__all__ = ["forbid_new_tasks", "forbid_other_processes", "forbid_sockets"]

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
# audit architecture, whether x32 numbers exist, and the calls each filter refuses, by machine
_AUDIT = {"x86_64": (0xC000003E, True), "aarch64": (0xC00000B7, False)}
_SOCKETS: dict[str, tuple[int, ...]] = {"x86_64": (41, 425), "aarch64": (198, 425)}  # socket, io_uring_setup
_TASKS: dict[str, tuple[int, ...]] = {
    "x86_64": (56, 57, 58, 435),
    "aarch64": (220, 435),
}  # clone, fork, vfork, clone3 (aarch64: clone, clone3)
# calls that act on another process whatever their arguments: ptrace, process_vm_readv and _writev, pidfd_open,
# pidfd_send_signal, pidfd_getfd, migrate_pages, move_pages
_ON_OTHERS: dict[str, tuple[int, ...]] = {
    "x86_64": (101, 310, 311, 434, 424, 438, 256, 279),
    "aarch64": (117, 270, 271, 434, 424, 438, 238, 239),
}
# calls that may act on this process alone: (number, the argument that names the process, (argument, the value it
# must have) or None, whether 0 names this process). prlimit64, sched_setparam, sched_setscheduler,
# sched_setaffinity, sched_setattr (pid first, 0 itself); setpriority and ioprio_set (who second, 0 itself; which
# first: a process, not a group or a user); kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo (pid first; 0 is
# kill's whole process group).
_ON_SELF: dict[str, tuple[tuple[int, int, tuple[int, int] | None, bool], ...]] = {
    "x86_64": (
        (302, 0, None, True), (142, 0, None, True), (144, 0, None, True), (203, 0, None, True),
        (314, 0, None, True), (141, 1, (0, 0), True), (251, 1, (0, 1), True),
        (62, 0, None, False), (200, 0, None, False), (234, 0, None, False), (129, 0, None, False),
        (297, 0, None, False),
    ),
    "aarch64": (
        (261, 0, None, True), (118, 0, None, True), (119, 0, None, True), (122, 0, None, True),
        (274, 0, None, True), (140, 1, (0, 0), True), (30, 1, (0, 1), True),
        (129, 0, None, False), (130, 0, None, False), (131, 0, None, False), (138, 0, None, False),
        (240, 0, None, False),
    ),
}  # fmt: skip
# fcntl's F_SETOWN and F_SETOWN_EX (8, 15): a file's SIGIO sent to another process
_FCNTL: dict[str, tuple[int, tuple[int, ...]]] = {"x86_64": (72, (8, 15)), "aarch64": (25, (8, 15))}
_LD_ABS, _JEQ, _JGE, _JA, _RET = 0x20, 0x15, 0x35, 0x05, 0x06
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
    _install(code, what)


def _argument(index: int, high: bool) -> int:
    """The offset in seccomp's data of a system call's argument ``index``: its low or its high 32 bits."""
    return 16 + 8 * index + (4 if high else 0)


def _install(code: list[tuple[int, int, int, int]], what: str) -> None:
    filters = (_Filter * len(code))(*[_Filter(*c) for c in code])
    program = _Program(len(code), filters)
    if (
        _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        or _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0
    ):
        number = ctypes.get_errno()
        raise OSError(number, f"the jail's seccomp filter ({what}): {os.strerror(number)}")


def forbid_other_processes() -> None:
    """Every call of ``_ON_OTHERS`` fails with EPERM, and every call of ``_ON_SELF`` unless it names this process
    (its id, or 0 where 0 means the caller, as a whole 64-bit argument) and, where it has one, its kind argument is a
    process's; and ``fcntl``'s F_SETOWN and F_SETOWN_EX (a file's signals to another process). ``prlimit``,
    ``os.sched_setaffinity``, ``os.kill`` and ``fcntl``'s other commands on this process keep working."""
    machine = platform.machine()
    if machine not in _AUDIT:
        raise OSError(errno.ENOSYS, f"the jail's seccomp filters know x86_64 and aarch64, not {machine}")
    arch, x32 = _AUDIT[machine]
    me = os.getpid()
    # (op, true label, false label, k): labels are resolved to forward offsets below
    program: list[tuple[int, str | None, str | None, int]] = [
        (_LD_ABS, None, None, 4),
        (_JEQ, None, "deny", arch),
        (_LD_ABS, None, None, 0),
    ]
    program += [(_JGE, "deny", None, 0x40000000)] if x32 else []
    program += [(_JEQ, "deny", None, nr) for nr in _ON_OTHERS[machine]]
    program += [(_JEQ, f"check{nr}", None, nr) for nr, _, _, _ in _ON_SELF[machine]]
    fcntl, owners = _FCNTL[machine]
    program.append((_JEQ, None, "allow", fcntl))
    program.append((_LD_ABS, None, None, _argument(1, False)))  # the command: an unsigned int, its low word
    program += [(_JEQ, "deny", None, command) for command in owners]
    program.append((_JA, "allow", None, 0))
    for nr, index, kind, zero in _ON_SELF[machine]:
        block: list[tuple[int, str | None, str | None, int]] = []
        if kind is not None:
            block += [(_LD_ABS, None, None, _argument(kind[0], False)), (_JEQ, None, "deny", kind[1])]
            block += [(_LD_ABS, None, None, _argument(kind[0], True)), (_JEQ, None, "deny", 0)]
        block += [(_LD_ABS, None, None, _argument(index, True)), (_JEQ, None, "deny", 0)]
        block += [(_LD_ABS, None, None, _argument(index, False))]
        block += [(_JEQ, "allow", None, 0)] if zero else []
        block += [(_JEQ, "allow", "deny", me)]
        program.append((-1, f"check{nr}", None, 0))  # a label, no instruction
        program += block
    program += [(-1, "allow", None, 0), (_RET, None, None, _ALLOW), (-1, "deny", None, 0)]
    program.append((_RET, None, None, _ERRNO | errno.EPERM))
    labels, code_at = {}, 0
    for op, label, _, _ in program:
        if op == -1:
            labels[label] = code_at
        else:
            code_at += 1
    code: list[tuple[int, int, int, int]] = []
    for op, true, false, k in (i for i in program if i[0] != -1):
        here = len(code) + 1

        def offset(label: str | None, here: int = here) -> int:
            jump = 0 if label is None else labels[label] - here
            if not 0 <= jump < 256:  # a classic BPF jump is one byte, forward: a longer one would wrap silently
                raise OSError(errno.E2BIG, f"the jail's seccomp filter (other processes): a jump of {jump}")
            return jump

        code.append((op, 0, 0, offset(true)) if op == _JA else (op, offset(true), offset(false), k))
    _install(code, "other processes")


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
