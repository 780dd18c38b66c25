"""The container jail: student code confined where Linux namespaces cannot be made, as inside Docker's
default confinement (Gradescope's autograder containers: root without ``CAP_SYS_ADMIN``, a seccomp
profile that refuses new user namespaces, read-only control groups).

The namespace jail (:mod:`course_grading.sandbox.jail`) stays the default: :func:`choose` takes this
one only where that one cannot be built and the process is root in a disposable container
(Gradescope's layout, :func:`gradescope_layout`), or where the instructor asks for it by name. What
it holds to, in place of a fresh root:

* **Files by permission.** The student's processes run as a user of their own (:func:`student_id`: one per job slot,
  a number no image gives anyone), no supplementary group, no capability, ``no_new_privs``: two slots' processes
  cannot signal, trace or read each other's processes and files, nor share a process count (``RLIMIT_NPROC`` counts
  by user), and the sweep after one leaves the other's alone. Even so ``course grade`` grades one submission at a
  time in this jail: the disk is the container's, bounded per file only. Before anything is graded, :func:`problems`
  reads, as each of those users, every file and folder the grader must hide (the course, its checks and secret, the
  batch, the grades, the submissions) and ``course grade`` refuses to grade if one opens, or if one of them can
  write in any folder Python imports from. :func:`lock_down` sets the modes of an autograder root (everything root's
  alone but the paths to what Python imports).
* **No new socket** (a seccomp filter, :func:`course_grading.sandbox.seccomp.forbid_sockets`): no network, no
  Unix socket of the container's services, no ``io_uring`` to go around it. The student's process reaches the
  worker over the socket it connected while it was still root, and nothing else.
* **Limits from outside**: the launcher's rlimits (memory, processes and threads, CPU time, file
  size, open files: :data:`course_grading.sandbox.limits.LAUNCHER`), and the kernel's OOM killer
  told to take a student's process first (``oom_score_adj`` 1000), so that the worker survives a
  memory bomb.
* **Nothing outlives a submission**: the zygote stays root and is the subreaper of all its student
  processes start, and kills them all after each submission (:func:`kill_descendants`); then it
  removes what that slot's user left in the world-writable folders (:func:`sweep`). A fresh, private home
  for each student process (:func:`fresh_home`).

What it cannot do, said in the README: hide the container's own system files and ``/proc`` (other
processes' command lines) from the student, or bound the disk the student fills in ``/tmp`` (a notebook that fills
it, so that the grader cannot write, is charged: the worker's ``autograde``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import stat
import tempfile
import time
from pathlib import Path

from course_grading.sandbox import policy, seccomp

__all__ = [
    "CONTAINER",
    "JAILS",
    "NAMESPACE",
    "student_id",
    "become_subreaper",
    "choose",
    "confine",
    "fresh_home",
    "gradescope_layout",
    "kill_descendants",
    "lock_down",
    "must_hide",
    "problems",
    "sweep",
    "writable_places",
]

NAMESPACE, CONTAINER = "namespace", "container"
JAILS = (NAMESPACE, CONTAINER)
# The student processes of job slot k run as FIRST_ID + k, group the same: numbers Debian reserves (65000-65533) and
# no image gives a file or a user, below the 65536 ids a user-namespaced Docker maps
FIRST_ID, SLOTS = 65_000, 500
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")  # where a student process can leave files behind
GRADESCOPE_ROOT = Path("/autograder")
HOME_PREFIX = "course-student-"
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36
CHECKED_FILES = 200_000  # a hidden tree larger than this is refused rather than read in part

_libc = ctypes.CDLL(None, use_errno=True)


def gradescope_layout() -> bool:
    """Whether this is root in Gradescope's autograder container: ``/autograder`` with its
    ``source`` and ``submission`` folders (a container made for one submission, then thrown away)."""
    return os.geteuid() == 0 and all((GRADESCOPE_ROOT / name).is_dir() for name in ("source", "submission"))


def choose(requested: str, namespaces: bool) -> str:
    """The jail to grade in: ``requested`` is ``auto``, :data:`NAMESPACE` or :data:`CONTAINER`;
    ``namespaces`` says whether the namespace jail can be built here. ``auto`` takes the namespace
    jail where it can be built, else this one in Gradescope's layout; a class is never graded with
    weaker isolation by accident. Raises RuntimeError saying why no jail can grade here."""
    if requested not in ("auto", *JAILS):
        raise ValueError(f"unknown jail {requested!r}: auto, {NAMESPACE} or {CONTAINER}")
    if requested == CONTAINER or (requested == "auto" and not namespaces and gradescope_layout()):
        if os.geteuid() != 0:
            raise RuntimeError(
                "the container jail runs student code as another user: it needs root (as in Gradescope's container)"
            )
        return CONTAINER
    if not namespaces:
        raise RuntimeError(
            "course grade runs student code in Linux namespaces, and "
            "`unshare --user --mount --pid --net` is not available here; "
            "inside a container made for one submission, as root, `--jail container` grades with file permissions, "
            "rlimits and a seccomp filter instead"
        )
    return NAMESPACE


def lock_down(root: Path, keep: list[Path]) -> None:
    """Make everything under ``root`` root's alone (no access for group or others), but the folders on
    the way to ``keep`` (traverse only, 0711) and ``keep`` themselves (readable, no one else writes)."""
    keep = [k.resolve() for k in keep]
    root = root.resolve()

    def visit(path: Path) -> None:
        if any(path == k or k in path.parents for k in keep):
            for folder, _, files in os.walk(path):
                for name in [folder, *(os.path.join(folder, f) for f in files)]:
                    mode = os.lstat(name).st_mode
                    if not stat.S_ISLNK(mode):
                        os.chmod(
                            name,
                            (stat.S_IMODE(mode) & ~0o022) | (0o555 if stat.S_ISDIR(mode) or mode & 0o100 else 0o444),
                        )
            return
        os.lchown(path, 0, 0)
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return
        if any(path in k.parents for k in keep):
            os.chmod(path, 0o711)
            for child in path.iterdir():
                visit(child)
        else:
            os.chmod(path, stat.S_IMODE(mode) & 0o700)

    visit(root)


def student_id(slot: int) -> int:
    """The user (and group) id the student processes of job slot ``slot`` run as."""
    if not 0 <= slot < SLOTS:
        raise ValueError(f"job slot {slot}: the container jail has users for slots 0 to {SLOTS - 1}")
    return FIRST_ID + slot


def _as_student(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # from root to a student's user: every capability is cleared


def _opens(path: str, folder: bool) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | (os.O_DIRECTORY if folder else 0))
    except OSError:
        return False
    os.close(fd)
    return True


def must_hide(never: list[Path], read_only: list[Path]) -> list[Path]:
    """The namespace jail's ``never`` list as this jail holds it: a folder that holds a ``read_only``
    one (the project, which holds the course's packages) stands for everything else in it; the host's
    socket folders are left to the seccomp filter."""
    kept = [k.resolve() for k in read_only]
    found: list[Path] = []
    for path in (p.resolve() for p in never if str(p) not in policy.SOCKET_FOLDERS):
        if any(path in k.parents for k in kept):
            found += must_hide([c for c in path.iterdir() if not any(c == k for k in kept)], read_only)
        elif not any(path == k or k in path.parents for k in kept):
            found.append(path)
    return found


def problems(never: list[Path], read_only: list[Path], uids: list[int]) -> list[str]:
    """What any of ``uids`` (the slots' users, :func:`student_id`) could read of ``never`` (:func:`must_hide`) or
    write of ``read_only``, tried as each user (in a forked process): each file and folder of ``never`` opened, each
    folder and file of ``read_only`` asked for write access. Empty when the policy holds."""
    never = must_hide(never, read_only)
    hidden = [(str(p), p.is_dir()) for p in never if p.exists()]
    for top in [p for p in never if p.is_dir()]:
        for folder, folders, files in os.walk(top):
            hidden += [(os.path.join(folder, n), True) for n in folders] + [
                (os.path.join(folder, n), False) for n in files
            ]
    shown = [str(p) for p in read_only if p.exists()]
    for top in [p for p in read_only if p.is_dir()]:
        for folder, folders, files in os.walk(top):
            shown += [os.path.join(folder, n) for n in folders + files if not os.path.islink(os.path.join(folder, n))]
    hidden = list(dict.fromkeys(hidden))  # a folder named and found by the walk of its parent, once
    if len(hidden) > CHECKED_FILES:
        return [f"{len(hidden)} files to hide: more than the {CHECKED_FILES} this jail checks"]
    return [found for uid in uids for found in _problems_as(uid, hidden, shown)]


def _problems_as(uid: int, hidden: list[tuple[str, bool]], shown: list[str]) -> list[str]:
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(reading)
            _as_student(uid)
            found = [f"uid {uid} can read {p}" for p, folder in hidden if _opens(p, folder)][:5]
            found += [f"uid {uid} can write {p}" for p in shown if os.access(p, os.W_OK)][:5]
            os.write(writing, "\n".join(found).encode()[:60_000] or b"-")
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        text = answer.read().decode()
    os.waitpid(child, 0)
    if not text:
        return [f"the check as uid {uid} gave no answer"]
    return [] if text == "-" else text.splitlines()


def fresh_home(uid: int) -> str:
    """(The zygote, root.) An empty folder for the next student process: its home, its working folder
    and its temp folder, owned by ``uid``, mode 0700."""
    home = tempfile.mkdtemp(prefix=HOME_PREFIX, dir="/tmp")
    os.chown(home, uid, uid)
    return home


def _children_of() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                found.setdefault(parent, []).append(int(entry))
    return found


def _all_below(root: int, children: dict[int, list[int]]) -> list[int]:
    below, todo = [], [root]
    while todo:
        kids = children.get(todo.pop(), [])
        below += kids
        todo += kids
    return below


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _tasks(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def kill_descendants() -> int:
    """(The zygote, root and subreaper.) Kill every process below this one, however it detached
    itself (a double fork or a new session reparents it to the subreaper), and reap them. Returns
    how many tasks (processes and threads) there were: without control groups, what tells that the
    student's processes reached their limit (RLIMIT_NPROC counts the same)."""
    tasks = sum(_tasks(pid) for pid in _all_below(os.getpid(), _children_of()))
    for _ in range(500):
        below = _all_below(os.getpid(), _children_of())
        if not below:
            return tasks
        for pid in below:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
        _reap()
    raise RuntimeError("the student's processes could not all be stopped")


_IPC = {
    "shm": (1, 7, lambda i: _libc.shmctl(i, 0, None)),
    "sem": (1, 4, lambda i: _libc.semctl(i, 0, 0)),
    "msg": (1, 7, lambda i: _libc.msgctl(i, 0, None)),
}


def _remove_ipc_objects(uid: int) -> None:
    """System V shared memory, semaphores and message queues of ``uid`` (no IPC namespace here)."""
    for kind, (id_column, uid_column, remove) in _IPC.items():
        with contextlib.suppress(OSError):
            with open(f"/proc/sysvipc/{kind}") as table:
                rows = [line.split() for line in table.readlines()[1:]]
            for row in rows:
                if len(row) > uid_column and row[uid_column] == str(uid):
                    remove(int(row[id_column]))  # IPC_RMID


def writable_places(root: str = "/", skip: tuple[str, ...] = ("/proc", "/sys")) -> tuple[str, ...]:
    """(The zygote, root, once.) :data:`WORLD_WRITABLE` and every other folder any user may create files in (the
    others' write bit), found by walking from ``root`` every folder a user other than root may enter: what the image
    itself leaves open (Debian's ``/run/lock``, ``/dev/mqueue``: attacks_s filled ``/run/lock``, on the grader's
    disk, which the fixed list did not sweep). At most :data:`CHECKED_FILES` folders are looked at."""
    found, todo, seen = list(WORLD_WRITABLE), [root], 0
    while todo and seen < CHECKED_FILES:
        folder, seen = todo.pop(), seen + 1
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.path in skip or not entry.is_dir(follow_symlinks=False):
                    continue
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if mode & stat.S_IWOTH and entry.path not in found:
                found.append(entry.path)
            if mode & stat.S_IXOTH:
                todo.append(entry.path)
    return tuple(found)


def sweep(uid: int, places: tuple[str, ...]) -> None:
    """(The zygote, root.) Remove what ``uid`` (its slot's user) owns in ``places`` (the world-writable folders:
    :func:`writable_places`), and its System V IPC objects: nothing one student process left there reaches the next,
    and another slot's are left."""
    _remove_ipc_objects(uid)
    for place in places:
        with contextlib.suppress(OSError):
            entries = list(os.scandir(place))
        for entry in entries if os.path.isdir(place) else []:
            with contextlib.suppress(OSError):
                if entry.stat(follow_symlinks=False).st_uid == uid:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


def confine(home: str, uid: int) -> None:
    """What a freshly forked student process does, still root, once it has connected to the worker:
    become the OOM killer's first choice, ``uid`` with no group and no capability, no socket
    from now on, and live in ``home``."""
    with open("/proc/self/oom_score_adj", "w") as adj:
        adj.write("1000")
    _as_student(uid)
    _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # its own /proc/self stays its own (setuid made it root's)
    seccomp.forbid_sockets()
    os.chdir(home)
    # a user no passwd file names: who it is comes from the environment (getpass reads it first)
    os.environ.update(
        {"HOME": home, "TMPDIR": home, "MPLCONFIGDIR": f"{home}/mpl", "USER": "student", "LOGNAME": "student"}
    )
    tempfile.tempdir = home


def become_subreaper() -> None:
    """(The zygote.) Every process a student process starts and abandons comes back to this one."""
    if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "container jail: cannot become a subreaper")
