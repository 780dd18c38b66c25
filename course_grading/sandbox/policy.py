"""The jail's whole policy, in one place: what a student's process sees, what it may write, whom it
runs as, what it inherits and how it is limited. :mod:`course_grading.sandbox.jail` carries it out.

**Files: an allow-list.** The jail builds a fresh root (a tmpfs) and puts in it only what follows,
then makes it its root (``pivot_root``) and lets go of the old one, so that no path leads to
anything else: not the grader's home, not ``/etc/shadow``, not a checkout of the course (its
answer keys and hidden checks), not the grades, the roster or the other submissions.

* read-only: the system's programs and libraries (:data:`SYSTEM`); a handful of files of
  ``/etc`` (:data:`ETC`) and a ``passwd`` and ``group`` that name only the student's user
  (:data:`ETC_WRITTEN`); the interpreter and its packages and the course's two packages
  (:func:`python_folders`);
* devices: :data:`DEVICES` only;
* ``/proc``: that of the jail's own PID namespace (its processes, nothing of the host's), with the
  kernel's settings read-only (:data:`PROC_READ_ONLY`);
* writable: a private, small, empty ``/tmp`` and ``/dev/shm`` (:data:`PRIVATE`) for each student
  process, which are its home: ``noexec``, and no Python code or library is loaded from them
  (:func:`course_grading.sandbox.student_server.code_guard`). The job's slot (where its socket lies, on the real disk)
  is shown until the student process has connected, then covered by an empty read-only tmpfs: nothing the
  student's code writes reaches the real disk.

Paths that must never be visible (:func:`never_shown`) are checked against this list: a shown
folder that holds one of them is refused (:func:`exposed`).

**User.** The student's code runs as :data:`UID` (nobody), with no capability and ``no_new_privs``
(no ``exec`` gains any): where the grader is root, the host's nobody; where it is not, nobody in a
user namespace that maps only the grader's own user. Each student process then has user, mount,
IPC, host-name and network namespaces of its own (the jail's mounts locked; no System V object of
an earlier student in sight).

**Namespaces.** Mount, PID (``/proc`` shows the jail's processes only), network (a loopback that
is down and nothing else), IPC and host name: the jail's own, all of it killed with the jail.

**Environment: an allow-list** (:func:`environment`): :data:`FIXED` values and the
:data:`PASSED` variables the grader has set, nothing else; no token of the grading shell reaches
student code.

**Limits** are :class:`course_grading.sandbox.limits.Limits` (time per cell and per submission, memory,
file size, processes, output), set from outside the student's process by
:data:`course_grading.sandbox.limits.LAUNCHER` and the slot's control groups.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = [
    "DEVICES",
    "DEVICE_LINKS",
    "ETC",
    "ETC_WRITTEN",
    "GID",
    "HOME",
    "PATH",
    "PRIVATE",
    "PROC_READ_ONLY",
    "SYSTEM",
    "UID",
    "environment",
    "exposed",
    "never_shown",
    "python_folders",
]

UID = GID = 65534  # nobody: the user every jailed process runs as

# read-only; a symlink (merged /usr) stays a symlink
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime")  # of /etc: the dynamic loader's, and the time zone
ETC_WRITTEN = {
    "passwd": f"nobody:x:{UID}:{GID}:nobody:/tmp:/usr/sbin/nologin\n",
    "group": f"nogroup:x:{GID}:\n",
}
DEVICES = ("null", "zero", "full", "random", "urandom")  # of /dev
# of /proc: the kernel's settings, read-only even to a user the kernel takes for root
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus", "fs")
DEVICE_LINKS = {
    "fd": "/proc/self/fd",
    "stdin": "/proc/self/fd/0",
    "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2",
}
# a fresh tmpfs of this size for each student process: its only writable space
PRIVATE = {"/tmp": "64m", "/dev/shm": "64m"}
HOME = "/tmp"  # the student process's home, TMPDIR and working folder

PATH = "/usr/local/bin:/usr/bin:/bin"
FIXED = {
    "PATH": PATH,
    "HOME": HOME,
    "TMPDIR": HOME,
    "MPLBACKEND": "Agg",
    "MPLCONFIGDIR": f"{HOME}/mpl",
    "PYTHONDONTWRITEBYTECODE": "1",
    # one order of a set of strings for every run: without it each start of the student's process draws a hash
    # seed, and an answer that walks a set (a vocabulary built from one) could be graded differently twice
    "PYTHONHASHSEED": "0",
}
PASSED = (  # taken from the grader's environment where set: locale, thread counts, which CPU kernels
    "LANG",
    "LC_ALL",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "ATEN_CPU_CAPABILITY",
    "MKL_ENABLE_INSTRUCTIONS",
    "ONEDNN_MAX_CPU_ISA",
)

# the host's services listen there (Unix sockets, which no network namespace covers)
SOCKET_FOLDERS = ("/run", "/var/run", "/var/tmp")


def environment(grader: Mapping[str, str]) -> dict[str, str]:
    """The whole environment of the jailed processes: :data:`FIXED`, and :data:`PASSED` from ``grader``."""
    return {name: grader[name] for name in PASSED if name in grader} | FIXED


def python_folders() -> list[Path]:
    """What Python needs, read-only: this interpreter's prefix (the venv) and base prefix (the
    Python it was made from, only its own folder), and the folders of the ``course_grading`` and
    ``course_lib`` packages (editable installs point into a checkout: only these two of it)."""
    folders = [Path(sys.prefix), Path(sys.base_prefix), *_package_dirs("course_grading"), *_package_dirs("course_lib")]
    unique: list[Path] = []
    for folder in (f.resolve() for f in folders):
        if folder.exists() and folder not in unique:
            unique.append(folder)
    return unique


def _package_dirs(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


def never_shown(course: Path, solutions: Path, out: Path, submissions: Path) -> list[Path]:
    """Folders no shown folder may hold: the project (its answer keys, tests and fixtures), the
    course, the answer keys, the grades, the class's submissions, and the host's sockets."""
    inbox = submissions.resolve() if submissions.is_dir() else submissions.resolve().parent
    folders = [course.resolve().parent, course.resolve(), solutions.resolve(), out.resolve(), inbox]
    return folders + [Path(p) for p in SOCKET_FOLDERS if os.path.isdir(p)]


def exposed(shown: Iterable[Path], hidden: Iterable[Path]) -> list[str]:
    """Each shown folder that is, or holds, a hidden one (empty when the policy holds)."""
    hidden = list(hidden)
    return [f"{s} would show {h}" for s in shown for h in hidden if h == s or s in h.parents]
