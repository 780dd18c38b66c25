"""The sandbox every process that runs student code starts in: limits, namespaces, a pids cgroup.

* :class:`Limits`: time per cell and per submission, memory, file size, processes, output.
* :func:`jail_argv`: ``unshare`` into private user, mount, PID and network namespaces, then
  :mod:`course_grading.jail` hides the course, the answer keys, the grades and the other
  submissions and makes every other file system read-only. The network namespace has no
  interface but a loopback that is down: no connection can be made, to the host or anywhere.
* :data:`LAUNCHER` / :func:`limited`: the resource limits and the pids cgroup, set in front of the
  jailed command, so that the trusted grading worker itself stays unlimited.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import assignments

SOCKET_FOLDERS = [Path("/run"), Path("/var/run"), Path("/var/tmp")]
UNSHARE = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--net", "--fork", "--kill-child", "--mount-proc"]


@dataclass(frozen=True)
class Limits:
    cell_s: int = 15  # per cell and per call of a hidden check; a1's slowest cell takes about 1 s
    total_s: int = 60  # the whole submission, start-up included: a hang costs this once
    memory_bytes: int = 6 * 2**30  # address space of each process that runs student code
    file_bytes: int = 256 * 2**20  # the largest file any of them may write
    processes: int = 256  # processes and threads of one submission's student process and what it starts
    output_bytes: int = 2**22  # what the notebook may print in all; the rest is dropped


def sandbox_available() -> bool:
    """Whether this machine can start processes in private user, mount, PID and network namespaces."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = [*UNSHARE, "unshare", "--user", "--map-root-user", "--mount", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def jail_argv(hide: list[Path], keep: list[Path], keep_rw: list[Path], command: list[str]) -> list[str]:
    """``command`` in private namespaces where ``hide`` is covered, ``keep`` read-only, ``keep_rw`` writable."""
    argv = [*UNSHARE, sys.executable, "-m", "course_grading.jail"]
    for flag, paths in (("--hide", hide), ("--keep", keep), ("--keep-rw", keep_rw)):
        for path in paths:
            argv += [flag, str(path)]
    return [*argv, "--", *command]


def what_to_hide(course: Path, out: Path, submissions: Path) -> tuple[list[Path], list[Path]]:
    """Folders student code must not see (the project, hence its answer keys, tests and fixtures;
    the course; the grades; the class's submissions) and what Python needs to run (read-only),
    which the jail puts back at its path wherever it is: inside a hidden folder, or under ``/tmp``,
    which the jail replaces with an empty one (a venv in a CI checkout under ``/tmp``)."""
    inbox = submissions.resolve() if submissions.is_dir() else submissions.resolve().parent
    hide = [course.resolve().parent, course.resolve(), assignments.SOLUTIONS.resolve(), out.resolve(), inbox]
    hide += [p for p in SOCKET_FOLDERS if p.is_dir()]  # the host's services listen there, on Unix sockets the network namespace does not cover
    needed = [Path(sys.prefix).resolve(), Path(__file__).resolve().parent, *_package_dirs("course_lib")]
    return hide, [p for p in needed if p.exists()]


def _package_dirs(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    return [Path(p).resolve() for p in (spec.submodule_search_locations or [])] if spec else []


PIDS_CGROUPS = [Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup")]  # cgroup v1, then v2


def pids_cgroup(name: str, limit: int) -> Path | None:
    """A fresh pids cgroup capped at ``limit`` tasks, where the system lets us make one.

    RLIMIT_NPROC does not bind root (CI containers often run as root); a pids cgroup does.
    """
    for root in PIDS_CGROUPS:
        if root == Path("/sys/fs/cgroup") and "pids" not in _read(root / "cgroup.subtree_control"):
            continue
        group = root / f"course-grade-{name}-{os.getpid()}"
        try:
            group.mkdir()
            (group / "pids.max").write_text(str(limit))
            return group
        except OSError:
            with contextlib.suppress(OSError):
                group.rmdir()
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def remove_stale_cgroups() -> None:
    """Remove the pids cgroups of grading runs that were killed before they could clean up."""
    import psutil

    for root in PIDS_CGROUPS:
        for group in root.glob("course-grade-*") if root.is_dir() else []:
            owner = group.name.rsplit("-", 1)[-1]
            if owner.isdigit() and not psutil.pid_exists(int(owner)):
                release_cgroup(group)


def release_cgroup(group: Path | None) -> None:
    """Kill what is left in ``group`` and remove it."""
    if group is None:
        return
    for _ in range(50):
        pids = [int(p) for p in _read(group / "cgroup.procs").split()]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        group.rmdir()


# Run (``python -S -c``) in front of every process that runs student code: it joins the
# submission's pids cgroup (or, where there is none, caps processes with RLIMIT_NPROC), sets the
# memory, file-size and core limits, then execs the rest of its argv. The trusted grading worker
# itself stays unlimited, so that it can serve one submission after another.
LAUNCHER = """
import os, resource, sys
group, memory, files, processes = sys.argv[1:5]
if group:
    with open(os.path.join(group, "cgroup.procs"), "w") as procs:
        procs.write("0")
else:
    resource.setrlimit(resource.RLIMIT_NPROC, (int(processes), int(processes)))
resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
resource.setrlimit(resource.RLIMIT_FSIZE, (int(files), int(files)))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
os.execvp(sys.argv[5], sys.argv[5:])
"""


def limited(limits: Limits, group: Path | None, argv: list[str]) -> list[str]:
    """``argv`` run under the submission's limits (see :data:`LAUNCHER`)."""
    return [sys.executable, "-S", "-c", LAUNCHER, str(group or ""), str(limits.memory_bytes), str(limits.file_bytes), str(limits.processes), *argv]


def process_limit_hits(group: Path | None) -> int:
    """How many times something in ``group`` was refused a process or thread by its ``pids.max``."""
    count = _read(group / "pids.events").split()[-1:] if group is not None else []
    return int(count[0]) if count and count[0].isdigit() else 0
