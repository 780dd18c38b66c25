"""Start a command in a fresh root that holds only what :mod:`course_grading.sandbox.policy` allows.

Used by ``course grade`` (see :mod:`course_grading.sandbox.limits`) in front of the student processes'
zygote::

    unshare [--user --map-root-user] --mount --pid --net --ipc --uts --fork --kill-child --mount-proc \\
        python -m course_grading.sandbox.jail --read-only DIR ... --writable DIR ... --never DIR ... \\
        -- python -m course_grading.sandbox.student_server

In its own mount namespace, :func:`main` mounts a tmpfs, puts in it the policy's system folders,
files of ``/etc``, devices, the jail's ``/proc``, a private ``/tmp`` and ``/dev/shm``, and the
``--read-only`` and ``--writable`` folders at their own paths, makes it the root (``pivot_root``)
and detaches the old one: nothing else has a path any more, and no descriptor into it is left. It
refuses to start if a shown folder holds a ``--never`` one. It then gives up root
(:func:`become_unprivileged`: the policy's user, no capability) and runs the command with the
policy's environment, nothing else of the caller's. The network namespace has a loopback that is
down and nothing else; the command and all it starts die with the jail (``--pid --kill-child``).

:func:`isolate` and :func:`seal` are what each student process does in its first moments: a user
and mount namespace of its own, a fresh ``/tmp`` and ``/dev/shm``; once it has connected to its
socket, the slot covered and no capability left.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
from pathlib import Path

from course_grading.sandbox import policy

__all__ = [
    "PR_SET_DUMPABLE",
    "become_unprivileged",
    "bind",
    "build_root",
    "drop_capabilities",
    "enter",
    "isolate",
    "main",
    "mount_points",
    "private",
    "read_only",
    "seal",
]

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 8, 32, 4096, 16384
MS_NOATIME, MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME = 1024, 2048, 1 << 21, 1 << 24
ST_NOSUID, ST_NODEV, ST_NOEXEC, ST_NOATIME, ST_NODIRATIME, ST_RELATIME = 2, 4, 8, 1024, 2048, 4096
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWNET = 0x04000000, 0x08000000, 0x40000000
MNT_DETACH = 2
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38
LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"jail: {what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    encoded = [s.encode() if s is not None else None for s in (source, target, fstype, data)]
    _check(_libc.mount(encoded[0], encoded[1], encoded[2], flags, encoded[3]), f"mount {source} on {target}")


def mount_points() -> list[str]:
    """Every mount point of this namespace, as /proc/self/mountinfo lists them (octal escapes decoded)."""
    with open("/proc/self/mountinfo") as info:
        points = [line.split()[4] for line in info]
    return [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), p) for p in points]


def _locked_flags(path: str) -> int:
    """The flags of the mount at ``path`` that a user namespace may not change (a remount must repeat them)."""
    f_flag = os.statvfs(path).f_flag
    flags = sum(
        ms
        for st, ms in (
            (ST_NOSUID, MS_NOSUID),
            (ST_NODEV, MS_NODEV),
            (ST_NOEXEC, MS_NOEXEC),
            (ST_NOATIME, MS_NOATIME),
            (ST_NODIRATIME, MS_NODIRATIME),
        )
        if f_flag & st
    )
    return flags | (MS_RELATIME if f_flag & ST_RELATIME else 0 if f_flag & ST_NOATIME else MS_STRICTATIME)


def read_only(path: str) -> None:
    """Make the mount at ``path``, and every mount under it, read-only."""
    for point in mount_points():
        if point == path or point.startswith(path.rstrip("/") + "/"):
            _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _locked_flags(point))


def bind(fd: int, target: str, writable: bool) -> None:
    """Bind what ``fd`` (an ``O_PATH`` descriptor) names onto ``target`` (made if need be), read-only unless
    ``writable``."""
    if os.path.isdir(f"/proc/self/fd/{fd}"):
        os.makedirs(target, exist_ok=True)
    elif not os.path.exists(target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "w").close()
    _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
    if not writable:
        read_only(target)


def private(target: str, size: str) -> None:
    """A fresh, empty tmpfs of ``size`` at ``target``, writable by anyone (sticky); nothing on it
    can be executed or mapped as code (a program or a shared library the student wrote)."""
    os.makedirs(target, exist_ok=True)
    _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, f"size={size},mode=1777")


def _opened(path: str) -> int:
    """A descriptor that names ``path`` (to bind it once its path is covered), and opens nothing."""
    return os.open(path, os.O_PATH | os.O_CLOEXEC)


def build_root(new: str, shown: dict[str, bool]) -> None:
    """Fill the tmpfs at ``new`` with what the policy allows, and ``shown`` (path: writable)."""
    sources = {path: _opened(path) for path in shown}  # opened first: their paths may lie under ``new``
    system = {p: _opened(p) for p in policy.SYSTEM if os.path.isdir(p) and not os.path.islink(p)}
    etc = {
        f"/etc/{n}": _opened(f"/etc/{n}")
        for n in policy.ETC
        if os.path.exists(f"/etc/{n}") and not os.path.islink(f"/etc/{n}")
    }
    devices = {f"/dev/{d}": _opened(f"/dev/{d}") for d in policy.DEVICES}
    proc = _opened("/proc")
    _mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")
    for link in [p for p in policy.SYSTEM if os.path.islink(p)] + [
        f"/etc/{n}" for n in policy.ETC if os.path.islink(f"/etc/{n}")
    ]:
        os.makedirs(os.path.dirname(new + link), exist_ok=True)
        os.symlink(os.readlink(link), new + link)
    for path, fd in {**system, **etc, **devices}.items():
        # a device stays usable on a read-only mount; its owner and mode do not change
        bind(fd, new + path, writable=False)
    for name, text in policy.ETC_WRITTEN.items():
        Path(new, "etc", name).write_text(text)
    for name, target in policy.DEVICE_LINKS.items():
        os.symlink(target, f"{new}/dev/{name}")
    os.makedirs(new + "/proc")
    _mount(f"/proc/self/fd/{proc}", new + "/proc", None, MS_BIND | MS_REC)
    for name in policy.PROC_READ_ONLY:
        if os.path.exists(f"{new}/proc/{name}"):
            fd = _opened(f"{new}/proc/{name}")
            bind(fd, f"{new}/proc/{name}", writable=False)
            os.close(fd)
    for path, size in policy.PRIVATE.items():
        private(new + path, size)
    for path in sorted(shown):  # a folder before what lies in it
        bind(sources[path], new + path, shown[path])
    for fd in [*sources.values(), *system.values(), *etc.values(), *devices.values(), proc]:
        os.close(fd)


def enter(new: str) -> None:
    """Make ``new`` the root, detach the old one, and make the new root itself read-only."""
    os.chdir(new)
    _check(_libc.pivot_root(b".", b"."), f"pivot_root into {new}")
    _check(_libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | _locked_flags("/"))


def _own_namespaces(uid: int, gid: int, others: int = 0) -> None:
    """A new user and mount namespace (and the ``others`` flags') in which this process is ``uid``:``gid``."""
    outer_uid, outer_gid = os.getuid(), os.getgid()
    _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | others), "unshare a user and mount namespace")
    for path, text in (
        ("/proc/self/setgroups", "deny"),
        ("/proc/self/uid_map", f"{uid} {outer_uid} 1"),
        ("/proc/self/gid_map", f"{gid} {outer_gid} 1"),
    ):
        with open(path, "w") as f:
            f.write(text)


def _maps(map_file: str, inner: int) -> bool:
    """Whether this user namespace's ``uid_map`` or ``gid_map`` gives ``inner`` an outer id."""
    with open(f"/proc/self/{map_file}") as ranges:
        return any(
            int(start) <= inner < int(start) + int(count) for start, _, count in (line.split() for line in ranges)
        )


def become_unprivileged() -> None:
    """Run as the policy's user, with no capability, and no ``exec`` able to gain any
    (``no_new_privs``). Started by root, the jail has the host's user ids: it becomes nobody
    outright. Started by anyone else, it is root only in a user namespace that maps that one user:
    it enters a nested user and mount namespace as nobody (where the mounts made so far are
    locked), whose capabilities are lost at the next ``exec``."""
    if _maps("uid_map", policy.UID) and _maps("gid_map", policy.GID):
        os.setgroups([])
        os.setresgid(policy.GID, policy.GID, policy.GID)
        os.setresuid(policy.UID, policy.UID, policy.UID)  # from root to no root: the kernel clears every capability
    else:
        _own_namespaces(policy.UID, policy.GID)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "set no_new_privs")


def drop_capabilities() -> None:
    """Give up every capability of this process (effective, permitted, inheritable, hence ambient)."""
    header = (ctypes.c_uint32 * 2)(LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "drop capabilities")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "set no_new_privs")


def isolate(slot: str) -> None:
    """What a freshly forked student process does first, before it connects to its socket in
    ``slot``: its own user and mount namespaces (its uid unchanged), an empty ``/tmp`` and
    ``/dev/shm`` where the previous one left nothing (and IPC, UTS and network namespaces of its
    own: no System V shared memory outlives it), and what the jail showed under ``/tmp`` put
    back (Python, in a CI checkout under ``/tmp``, read-only; the slot as it was). Raises OSError
    where it cannot: such a process never connects, and runs nothing of the student's."""
    # forked from a zygote that is not, its /proc/self would be root's: its uid_map out of its reach
    _check(_libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "make this process dumpable")
    # System V objects, host name and sockets of its own: nothing a previous student left there
    _own_namespaces(os.getuid(), os.getgid(), CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET)
    outer = [p for p in sorted(mount_points()) if p.startswith("/tmp/")]
    # bound with its outer folder
    kept = [p for i, p in enumerate(outer) if not any(p.startswith(q + "/") for q in outer[:i])]
    held = {p: _opened(p) for p in kept}  # their paths lead nowhere once /tmp is covered
    for path, size in policy.PRIVATE.items():
        private(path, size)
    for path, fd in held.items():
        bind(fd, path, writable=path == slot)
        os.close(fd)


def seal(slot: str) -> None:
    """Once connected, before it runs the student's code: the ``slot`` (on the real disk), where it
    exists, covered by an empty read-only tmpfs, no capability left, and its home (the policy's,
    ``/tmp``) as working folder."""
    if os.path.isdir(slot):
        _mount("tmpfs", slot, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=555")
    drop_capabilities()
    os.chdir(policy.HOME)


def main(argv: list[str]) -> None:
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m course_grading.sandbox.jail")
    parser.add_argument("--read-only", action="append", default=[], help="show this folder, read-only")
    parser.add_argument("--writable", action="append", default=[], help="show this folder, writable")
    parser.add_argument("--never", action="append", default=[], help="refuse to start if a shown folder holds this one")
    args = parser.parse_args(argv[:split])
    shown = {str(Path(p).resolve()): False for p in args.read_only} | {
        str(Path(p).resolve()): True for p in args.writable
    }
    exposed = policy.exposed([Path(p) for p in [*shown, *policy.SYSTEM]], [Path(p) for p in args.never])
    if exposed:
        sys.exit(f"jail: refused, a shown folder holds one that must stay hidden: {'; '.join(exposed)}")
    os.umask(0o022)  # what it makes, nobody can read and traverse
    new = "/tmp"  # this namespace's /tmp, covered by the tmpfs that becomes the root
    build_root(new, shown)
    enter(new)
    become_unprivileged()
    os.closerange(3, 2**31 - 1)  # no descriptor inherited from the caller may lead back to the old root
    command = argv[split + 1 :]
    os.execvpe(command[0], command, policy.environment(os.environ))  # nothing else of the caller's environment


if __name__ == "__main__":
    main(sys.argv[1:])
