"""The sandbox every process that runs student code starts in: limits, namespaces, control groups.

* :class:`Limits`: time per cell and per submission, memory (per process, per submission, and the
  trusted worker's own), file size, processes, output.
* :func:`jail_argv`: ``unshare`` into private mount, PID, network and IPC namespaces, then
  :mod:`course_grading.sandbox.jail` builds a root that shows only what :mod:`course_grading.sandbox.policy`
  allows and runs the command there as nobody. The network namespace has no interface but a
  loopback that is down: no connection can be made, to the host or anywhere.
* :func:`slot_group`: control groups per job slot that bind everything its student processes start
  together (processes, memory, a CPU quota), set from outside the student's reach.
* :data:`LAUNCHER` / :func:`limited`: the resource limits and the slot's groups, set in front of
  the jailed command; the trusted worker runs under its own memory limit instead
  (``worker_memory_bytes``), so that it can serve one submission after another.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from course_grading.notebook import assignments
from course_grading.sandbox import policy

__all__ = [
    "CGROUPS",
    "CPU_PERIOD_US",
    "LAUNCHER",
    "cap_address_space",
    "Limits",
    "NAMESPACES",
    "SlotGroup",
    "jail_argv",
    "limited",
    "memory_limit_hits",
    "process_limit_hits",
    "release_cgroup",
    "release_slot",
    "remove_stale_cgroups",
    "sandbox_available",
    "slot_group",
    "unshare",
    "what_to_hide",
]

NAMESPACES = ["--mount", "--pid", "--net", "--ipc", "--uts", "--fork", "--kill-child", "--mount-proc"]


@dataclass(frozen=True)
class Limits:
    cell_s: int = 30  # per cell and per call of a hidden check: a right a1 causal_mask written as two Python loops
    # takes about 10 s on 1,100 positions (the contracts' long case) under the operator trace (sandbox.trace)
    total_s: int = 60  # the whole submission, start-up included: a hang costs this once
    memory_bytes: int = 6 * 2**30  # address space of each process that runs student code
    group_memory_bytes: int = 4 * 2**30  # memory of everything one submission runs together (its slot's control group)
    # address space of the trusted worker (nbgrader, the checks, the correct parts it runs for the student)
    worker_memory_bytes: int = 4 * 2**30
    file_bytes: int = 256 * 2**20  # the largest file any of them may write
    processes: int = 256  # processes and threads of one submission's student process and what it starts
    output_bytes: int = 2**22  # what the notebook may print in all; the rest is dropped
    open_files: int = 4096  # descriptors each process may hold
    cpu_s: int = 60 * 64  # CPU seconds of each process (all its threads): a backstop to the wall-clock limits


def cap_address_space(limit: int) -> None:
    """Limit this process's address space (and its children's) to ``limit`` bytes: for a process
    that runs code of a notebook outside the jail (``course check``'s kernel, ``course mutants``)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def unshare() -> list[str]:
    """``unshare`` into private mount, PID, network, IPC and host-name namespaces; for a grader that
    is not root, a user namespace too, where it is root (to build the jail) and nothing more."""
    return ["unshare", *([] if os.geteuid() == 0 else ["--user", "--map-root-user"]), *NAMESPACES]


def sandbox_available() -> bool:
    """Whether this machine can build the jail and, inside it, a student process's own namespaces."""
    if shutil.which("unshare") is None:
        return False
    probe = jail_argv(
        [],
        policy.python_folders(),
        [],
        [
            sys.executable,
            "-c",
            "from course_grading.sandbox import jail; jail.isolate('/nonexistent'); jail.seal('/nonexistent')",
        ],
    )
    return subprocess.run(probe, capture_output=True, env=policy.environment(os.environ), cwd="/").returncode == 0


def jail_argv(never: list[Path], read_only: list[Path], writable: list[Path], command: list[str]) -> list[str]:
    """``command`` in a fresh root (see :mod:`course_grading.sandbox.jail`) that shows only the system the
    policy names and ``read_only`` and ``writable``; it refuses to start if they hold a ``never``."""
    argv = [*unshare(), sys.executable, "-m", "course_grading.sandbox.jail"]
    for flag, paths in (("--never", never), ("--read-only", read_only), ("--writable", writable)):
        for path in paths:
            argv += [flag, str(path)]
    return [*argv, "--", *command]


def what_to_hide(course: Path, out: Path, submissions: Path) -> tuple[list[Path], list[Path]]:
    """What no folder shown to student code may hold (:func:`policy.never_shown`), and what Python
    needs, shown read-only (:func:`policy.python_folders`). Raises if the second holds the first."""
    never, shown = policy.never_shown(course, assignments.SOLUTIONS, out, submissions), policy.python_folders()
    exposed = policy.exposed(shown, never)
    if exposed:
        raise RuntimeError(f"cannot jail student code: {'; '.join(exposed)}")
    return never, shown


CGROUPS = Path("/sys/fs/cgroup")
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class SlotGroup:
    """The control groups that hold everything one job slot's student processes start, with the
    slot's limits set from outside: processes, memory of all of them together, and a CPU quota.
    Under cgroup v2 one folder holds every controller; under v1 each controller has its own."""

    pids: Path | None = None
    memory: Path | None = None
    cpu: Path | None = None

    @property
    def folders(self) -> list[Path]:
        return sorted({p for p in (self.pids, self.memory, self.cpu) if p is not None})

    def joined(self) -> str:
        """The folders to join, as the launcher reads them (``os.pathsep``-separated)."""
        return os.pathsep.join(str(p) for p in self.folders)

    def missing(self) -> list[str]:
        """The limits this machine could not set from outside (said in the run's summary)."""
        return [name for name, p in (("processes", self.pids), ("memory", self.memory), ("CPU", self.cpu)) if p is None]


def slot_group(name: str, limits: Limits, cpus: int) -> SlotGroup:
    """Fresh control groups for one slot, where the system lets us make them (root, or a delegated
    cgroup v2 subtree): at most ``limits.processes`` tasks, ``limits.group_memory_bytes`` of memory
    (no swap) for all of them together, and ``cpus`` cores' worth of CPU time.

    RLIMIT_NPROC and RLIMIT_AS (set by the launcher in any case) bind each process, and not root;
    a control group binds everything together, root too."""
    folder = f"course-grade-{name}-{os.getpid()}"
    if (CGROUPS / "cgroup.controllers").exists():  # v2: one hierarchy
        enabled = _read(CGROUPS / "cgroup.subtree_control").split()
        group = _make(CGROUPS / folder)
        if group is None:
            return SlotGroup()
        pids = group if "pids" in enabled and _write(group / "pids.max", str(limits.processes)) else None
        memory = group if "memory" in enabled and _write(group / "memory.max", str(limits.group_memory_bytes)) else None
        if memory is not None:
            _write(group / "memory.swap.max", "0")
        cpu = (
            group if "cpu" in enabled and _write(group / "cpu.max", f"{cpus * CPU_PERIOD_US} {CPU_PERIOD_US}") else None
        )
        return SlotGroup(pids, memory, cpu)
    pids = _v1("pids", folder, {"pids.max": str(limits.processes)})
    memory = _v1("memory", folder, {"memory.limit_in_bytes": str(limits.group_memory_bytes)})
    if memory is not None:
        # no swap either, where swap is accounted
        _write(memory / "memory.memsw.limit_in_bytes", str(limits.group_memory_bytes))
    cpu = _v1("cpu", folder, {"cpu.cfs_period_us": str(CPU_PERIOD_US), "cpu.cfs_quota_us": str(cpus * CPU_PERIOD_US)})
    return SlotGroup(pids, memory, cpu)


def _v1(controller: str, folder: str, settings: dict[str, str]) -> Path | None:
    group = _make(CGROUPS / controller / folder) if (CGROUPS / controller).is_dir() else None
    if group is not None and not all(_write(group / key, value) for key, value in settings.items()):
        release_cgroup(group)
        return None
    return group


def _make(group: Path) -> Path | None:
    try:
        group.mkdir()
        return group
    except OSError:
        return None


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
        return True
    except OSError:
        return False


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def remove_stale_cgroups() -> None:
    """Remove the control groups of grading runs that were killed before they could clean up."""
    import psutil

    for root in [CGROUPS, *(CGROUPS / c for c in ("pids", "memory", "cpu"))]:
        for group in root.glob("course-grade-*") if root.is_dir() else []:
            owner = group.name.rsplit("-", 1)[-1]
            if owner.isdigit() and not psutil.pid_exists(int(owner)):
                release_cgroup(group)


def release_slot(group: SlotGroup) -> None:
    """Kill what is left in the slot's groups and remove them."""
    for folder in group.folders:
        release_cgroup(folder)


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


# Run (``python -S -c``) in front of every process that runs student code: it joins the slot's
# control groups (where there is no pids group, it caps processes with RLIMIT_NPROC), sets the
# per-process memory, file-size, descriptor, CPU-time and core limits, then execs the rest of its argv.
LAUNCHER = """
import os, resource, sys
groups, counted, memory, files, processes, descriptors, cpu = sys.argv[1:8]
for group in filter(None, groups.split(os.pathsep)):
    with open(os.path.join(group, "cgroup.procs"), "w") as procs:
        procs.write("0")
if not counted:
    resource.setrlimit(resource.RLIMIT_NPROC, (int(processes), int(processes)))
resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
resource.setrlimit(resource.RLIMIT_FSIZE, (int(files), int(files)))
resource.setrlimit(resource.RLIMIT_NOFILE, (int(descriptors), int(descriptors)))
resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu)))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
os.execvp(sys.argv[8], sys.argv[8:])
"""


def limited(limits: Limits, group: SlotGroup, argv: list[str]) -> list[str]:
    """``argv`` run under the submission's limits (see :data:`LAUNCHER`)."""
    numbers = (limits.memory_bytes, limits.file_bytes, limits.processes, limits.open_files, limits.cpu_s)
    return [
        sys.executable,
        "-S",
        "-c",
        LAUNCHER,
        group.joined(),
        "1" if group.pids is not None else "",
        *map(str, numbers),
        *argv,
    ]


def process_limit_hits(group: SlotGroup) -> int:
    """How many times something in the slot was refused a process or thread by its ``pids.max``."""
    count = _read(group.pids / "pids.events").split()[-1:] if group.pids is not None else []
    return int(count[0]) if count and count[0].isdigit() else 0


def memory_limit_hits(group: SlotGroup) -> int:
    """How many processes of the slot the kernel killed for passing the slot's memory limit."""
    if group.memory is None:
        return 0
    for line in (_read(group.memory / "memory.events") or _read(group.memory / "memory.oom_control")).splitlines():
        key, _, value = line.partition(" ")
        if key == "oom_kill" and value.strip().isdigit():
            return int(value)
    return 0
