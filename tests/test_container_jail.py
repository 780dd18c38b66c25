"""The container jail (course_grading/sandbox/container.py), where Gradescope runs it (issue 38).

Its parts first, on this machine: which jail is chosen, what must stay hidden, an autograder root locked down
and checked as every slot's user, two slots' users kept apart, the seccomp filter, the subreaper's clean-up.
Then, inside Docker's default confinement simulated (tests/container_simulation.py: no new user or mount
namespace, read-only control groups, Docker's capability set), the Gradescope zip grades a right, a wrong and
a prying a1 notebook, and ``course grade --jail container`` grades the hostile submissions that apply, with
the verdicts the namespace jail gives. Where the simulation cannot run, those tests say why and skip
(``REQUIRE_CONTAINER_SIMULATION=1``, as in CI, makes that a failure).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from course_grading import cli
from course_grading import grade as grading
from course_grading.gradescope import JAIL_VARIABLE, ROOT_VARIABLE
from course_grading.notebook.assignments import REPO, copy_course
from course_grading.sandbox import container, policy
from course_grading.sandbox import limits as sandbox

import container_simulation
from assignment_support import ASSIGNMENTS
from hostile_submissions import EVERY_FILE, FULL, KEY, MISSING_SCALE, Case, hostile_cases, notebook, without

WHY_NOT = container_simulation.unavailable()
if WHY_NOT and os.environ.get("REQUIRE_CONTAINER_SIMULATION"):
    raise RuntimeError(f"REQUIRE_CONTAINER_SIMULATION is set, and {WHY_NOT}")
needs_simulation = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")


def run_as_student(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            "setpriv",
            f"--reuid={container.student_id(0)}",
            f"--regid={container.student_id(0)}",
            "--clear-groups",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
    )


# ----------------------------------------------------------------------------- its parts, here


def test_the_namespace_jail_is_chosen_wherever_it_can_be_built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(container, "GRADESCOPE_ROOT", tmp_path / "autograder")
    assert container.choose("auto", namespaces=True) == container.NAMESPACE
    with pytest.raises(
        RuntimeError, match="--jail container"
    ):  # not in a container made for one submission: no weaker jail by accident
        container.choose("auto", namespaces=False)
    with pytest.raises(RuntimeError, match="namespaces"):
        container.choose(container.NAMESPACE, namespaces=False)
    with pytest.raises(ValueError, match="unknown jail"):
        container.choose("chroot", namespaces=True)
    for name in ("source", "submission"):
        (tmp_path / "autograder" / name).mkdir(parents=True)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert container.choose("auto", namespaces=False) == container.CONTAINER  # Gradescope's layout, as root
    assert container.choose("auto", namespaces=True) == container.NAMESPACE
    assert container.choose(container.CONTAINER, namespaces=True) == container.CONTAINER  # asked for by name
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(RuntimeError, match="needs root"):
        container.choose(container.CONTAINER, namespaces=True)


def test_what_must_stay_hidden_is_everything_but_the_way_to_python(tmp_path: Path) -> None:
    project = tmp_path / "project"
    for name in ("course_lib", "course_grading", "assignments/grading", "solutions", "tests/fixtures"):
        (project / name).mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    hidden = container.must_hide(
        [project, project / "assignments", Path("/run")], [project / "course_lib", project / "course_grading"]
    )
    assert sorted(hidden) == sorted(
        [
            project / "assignments",
            project / "pyproject.toml",
            project / "solutions",
            project / "tests",
            project / "assignments",
        ]
    )


@pytest.fixture()
def open_tree() -> Iterator[Path]:
    """A folder nobody can reach (under /tmp, mode 0755), removed after."""
    folder = Path(tempfile.mkdtemp(dir="/tmp", prefix="container-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_a_root_locked_down_hides_all_but_the_packages_and_is_checked_as_every_slots_user(open_tree: Path) -> None:
    root = open_tree / "autograder"
    package = root / "source" / "project" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("WHO = 'pkg'\n")
    secret = root / "source" / "project" / "assignments" / "grading" / "course_secret"
    secret.parent.mkdir(parents=True)
    secret.write_text("key")
    (root / "results").mkdir()
    (root / "source" / "setup.sh").write_text("")
    for path in [root, *root.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o666)  # as careless as an unpacked zip can be
    never, keep = [root / "source" / "project", root / "results"], [package]
    uids = [container.student_id(0), container.student_id(1)]
    found = container.problems(never, keep, uids)
    assert any("can read" in p and "assignments" in p for p in found) and any(
        "can write" in p and "pkg" in p for p in found
    ), found
    container.lock_down(root, keep)
    assert container.problems(never, keep, uids) == []
    os.chown(root / "results", uids[1], uids[1])  # what one slot's user may read is found, though the other may not
    assert container.problems(never, keep, uids) == [f"uid {uids[1]} can read {root / 'results'}"]
    os.chown(root / "results", 0, 0)
    attempt = run_as_student(
        # as an editable install's finder imports: by the package's path, its parents only traversed
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('pkg', {str(package / '__init__.py')!r})\n"
        "pkg = importlib.util.module_from_spec(spec); spec.loader.exec_module(pkg); print(pkg.WHO)\n"
        f"for p in ({str(secret)!r}, {str(root / 'source' / 'setup.sh')!r}):\n"
        "    try:\n        open(p).read(); print('read', p)\n    except OSError: pass\n"
        f"try:\n    open({str(root / 'results' / 'results.json')!r}, 'w'); print('wrote')\nexcept OSError: pass\n"
        f"try:\n    open({str(package / 'evil.py')!r}, 'w'); print('planted')\nexcept OSError: pass\n"
    )
    assert attempt.stdout.split() == ["pkg"], attempt


def test_the_seccomp_filter_refuses_every_new_socket() -> None:
    code = (
        "import socket\nfrom course_grading.sandbox import seccomp\nseccomp.forbid_sockets()\n"
        "a, b = socket.socketpair(); a.sendall(b'x'); assert b.recv(1) == b'x'\n"
        "for family, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM), "
        "(socket.AF_UNIX, socket.SOCK_STREAM), (socket.AF_NETLINK, socket.SOCK_RAW)):\n"
        "    try:\n        socket.socket(family, kind); print('opened', family)\n"
        "    except PermissionError as e: print(e.errno)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == [str(errno.EACCES)] * 4, run


def test_the_seccomp_filter_refuses_every_new_thread_and_process_and_leaves_torch_working() -> None:
    """The operator trace and the guards watch the calling thread: no other may start (attacks_n: a forbidden
    routine run in a thread scored full marks), nor a process; torch's own operations still run, in this one."""
    code = (
        "import os, subprocess, threading, torch\nfrom course_grading.sandbox import seccomp\n"
        "seccomp.forbid_new_tasks()\nx = torch.randn(256, 256)\nprint(bool(torch.isfinite(x @ x).all()))\n"
        "try:\n    threading.Thread(target=print).start(); print('thread')\n"
        "except RuntimeError: print('refused')\n"
        "for start in (os.fork, lambda: subprocess.run(['true'])):\n"
        "    try:\n        start(); print('started')\n    except PermissionError: print('refused')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == ["True", "refused", "refused", "refused"], run


def test_the_seccomp_filter_refuses_every_call_on_another_process_and_allows_them_on_this_one() -> None:
    """attacks_x: the namespace jail's zygote runs as the student's user, and ``resource.prlimit(1, ...)`` lowered
    the limits of every process it forked afterwards. Calls that name this process keep working."""
    code = (
        "import ctypes, errno, fcntl, os, resource, signal, threading, torch\n"
        "from course_grading.sandbox import seccomp\n"
        "seccomp.forbid_other_processes()\nparent = os.getppid()\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def outcome(call):\n    try:\n        call(); return 'ok'\n    except PermissionError: return 'refused'\n"
        "def raw(number, *args):\n"
        "    def call():\n"
        "        if libc.syscall(number, *args) == -1 and ctypes.get_errno() == errno.EPERM:\n"
        "            raise PermissionError(errno.EPERM, 'x')\n"
        "    return call\n"
        "limit = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "mine = [lambda: resource.prlimit(0, resource.RLIMIT_NOFILE, limit),\n"
        "        lambda: resource.prlimit(os.getpid(), resource.RLIMIT_NOFILE),\n"
        "        lambda: resource.setrlimit(resource.RLIMIT_NOFILE, limit),\n"
        "        lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),\n"
        "        lambda: os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0)),\n"
        "        lambda: os.kill(os.getpid(), 0), lambda: signal.pthread_kill(threading.get_ident(), 0),\n"
        "        lambda: torch.randn(64, 64) @ torch.randn(64, 64), lambda: fcntl.fcntl(0, fcntl.F_GETFL)]\n"
        "others = [lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE),\n"
        "          lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE, limit),\n"
        "          lambda: os.sched_setaffinity(parent, os.sched_getaffinity(0)),\n"
        "          lambda: os.sched_setscheduler(parent, os.SCHED_IDLE, os.sched_param(0)),\n"
        "          lambda: os.setpriority(os.PRIO_PROCESS, parent, 19),\n"
        "          lambda: os.setpriority(os.PRIO_USER, 0, 19), lambda: os.setpriority(os.PRIO_PGRP, 0, 19),\n"
        "          lambda: os.kill(parent, 0), lambda: os.kill(0, 0), lambda: os.kill(-1, 0),\n"
        "          lambda: os.killpg(os.getpgid(0), 0),\n"
        "          lambda: os.pidfd_open(parent), raw(101, 16, parent, 0, 0), raw(302, parent, 7, 0, 0),\n"
        "          raw(302, parent + 2**32, 7, 0, 0), raw(62, parent, 0), raw(129, parent, 0, 0),\n"
        "          raw(297, parent, parent, 0, 0), lambda: fcntl.fcntl(os.pipe()[0], fcntl.F_SETOWN, parent),\n"
        "          raw(72, 0, 15, 0)]\n"
        "print(' '.join(outcome(c) for c in mine)); print(' '.join(outcome(c) for c in others))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    mine, others = run.stdout.splitlines()
    assert mine.split() == ["ok"] * 9, run
    assert others.split() == ["refused"] * 20, run


def test_the_subreaper_stops_what_escaped_into_its_own_session() -> None:
    code = (
        "import os, subprocess, time\nfrom course_grading.sandbox import container\ncontainer.become_subreaper()\n"
        "child = os.fork()\nif child == 0:\n"
        "    os.setsid()\n    subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "    subprocess.Popen(['sh', '-c', 'sleep 600 & exit 0'])\n    os._exit(0)\n"
        "os.waitpid(child, 0)\ntime.sleep(0.5)\n"
        "tasks = container.kill_descendants()\n"
        "print(tasks, len(container._all_below(os.getpid(), container._children_of())))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    tasks, left = map(int, run.stdout.split())
    assert tasks >= 2 and left == 0, run


SWEEP = """
import os, subprocess, sys
from course_grading.sandbox import container
places = (sys.argv[1] + "/tmp", sys.argv[1] + "/shm")  # this machine's own are not swept
for place in places:
    os.mkdir(place)
    os.chmod(place, 0o1777)
def leave(uid):
    made = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable, "-c",
        "import ctypes, sys, tempfile; l = ctypes.CDLL(None); "
        "print(l.shmget(0, 4096, 0o1600), l.semget(0, 1, 0o1600), l.msgget(0, 0o1600)); "  # IPC_PRIVATE, IPC_CREAT | 0600
        "print(tempfile.mkdtemp(dir=sys.argv[1]), tempfile.mkstemp(dir=sys.argv[2])[1])", *places], capture_output=True, text=True, check=True).stdout
    ids, paths = (line.split() for line in made.splitlines())
    assert all(int(i) >= 0 for i in ids) and all(os.path.exists(p) for p in paths), made
    return paths
def owned(uid):
    return [k for k, column in (("shm", 7), ("sem", 4), ("msg", 7)) for line in open(f"/proc/sysvipc/{k}").readlines()[1:] if line.split()[column] == str(uid)]
mine, others = container.student_id(0), container.student_id(1)
swept, kept = leave(mine), leave(others)  # two slots' student processes, the sweep of the first's
open(places[0] + "/roots_own", "w").close()
container.sweep(mine, places)
print(owned(mine), [p for p in swept if os.path.exists(p)], os.path.exists(places[0] + "/roots_own"))
print(len(owned(others)), all(os.path.exists(p) for p in kept))
"""  # noqa: E501 (code run as written)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_the_sweep_removes_what_its_slots_user_left_and_nothing_else(open_tree: Path) -> None:
    """In an IPC namespace of its own, with two folders standing for /tmp and /dev/shm (this machine's are not
    swept): what another slot's user left, graded at the same time, stays."""
    run = subprocess.run(
        ["unshare", "--ipc", sys.executable, "-c", SWEEP, str(open_tree)], capture_output=True, text=True, timeout=120
    )
    assert run.stdout.split() == ["[]", "[]", "True", "3", "True"], run


APART = """
import os, signal, sys, time
from course_grading.sandbox import container
homes = [container.fresh_home(container.student_id(slot)) for slot in (0, 1)]
reading, writing = os.pipe()
first = os.fork()
if first == 0:  # slot 0's student process: confined, then waiting
    container.confine(homes[0], container.student_id(0))
    open("mine", "w").write("hidden")
    os.write(writing, b"."); time.sleep(60); os._exit(0)
os.read(reading, 1)
second = os.fork()
if second == 0:  # slot 1's, graded at the same time: what can it reach of the first?
    container.confine(homes[1], container.student_id(1))
    tried = []
    for name, attempt in (
        ("signal", lambda: os.kill(first, signal.SIGKILL)),
        ("read its home", lambda: os.listdir(homes[0])),
        ("read its file", lambda: open(os.path.join(homes[0], "mine")).read()),
        ("read its memory", lambda: open(f"/proc/{first}/mem", "rb").read(1)),
    ):
        try:
            attempt(); tried.append(name)
        except OSError:
            pass
    try:  # succeeds wherever any other process exists (a refusal is not an error of kill(-1)): what counts is below
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    os.write(writing, repr(tried).encode()); os._exit(0)
os.waitpid(second, 0)
print(os.read(reading, 4096).decode())
print(os.waitpid(first, os.WNOHANG) == (0, 0))  # the first still runs
os.kill(first, signal.SIGKILL); os.waitpid(first, 0)
for home in homes:
    import shutil; shutil.rmtree(home)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
def test_two_slots_student_processes_cannot_reach_each_other() -> None:
    """Two job slots' student processes in the container jail, were they graded at once: the second can neither signal
    the first (by its pid or with every process it may, ``kill(-1)``: the first still runs), nor read its home, its
    files or its memory."""
    run = subprocess.run([sys.executable, "-c", APART], capture_output=True, text=True, timeout=120)
    assert run.stdout.split("\n")[:2] == ["[]", "True"], run


def test_the_container_jail_grades_one_submission_at_a_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """attacks_q: with two slots, one submission filled the container's disk (shared, bounded per file only) and the
    other slot's right notebooks were not graded; the container jail refuses --jobs above 1."""
    monkeypatch.setattr(container, "choose", lambda requested, namespaces: container.CONTAINER)
    batch = grading.Batch(tmp_path / "course", "a1_attention", tmp_path / "inbox", tmp_path / "out")
    with pytest.raises(RuntimeError, match="one submission at a time"):
        grading.grade(batch, grading.Options(jobs=2, jail=container.CONTAINER), progress=lambda *a: None)


# --------------------------------------------------------------------- in the simulated container

IMAGE = policy.python_folders()  # what the simulated image holds of this checkout


def in_container(
    argv: list[str], keep: Path, env: dict[str, str] | None = None, timeout: int = 600
) -> subprocess.CompletedProcess[str]:
    """``argv`` in the simulated container, whose /tmp holds ``keep`` (the test's folder) alone."""
    return subprocess.run(
        container_simulation.simulated(argv, IMAGE, REPO, [keep]),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd="/",
    )


@needs_simulation
def test_the_simulation_is_dockers_default_confinement() -> None:
    probe = (
        "import subprocess\nfrom course_grading.sandbox import limits\n"
        "print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])\n"
        "print(subprocess.run(['unshare', '--user', 'true']).returncode != 0, subprocess.run(['unshare', "
        "'--mount', 'true']).returncode != 0)\n"
        "print(limits.sandbox_available())\n"
        "try:\n    open('/sys/fs/cgroup/course-probe', 'w'); print('cgroup writable')\n"
        "except OSError: print('cgroup read-only')\n"
    )
    run = in_container([sys.executable, "-c", probe], Path("/tmp"))
    assert run.stdout.split() == [
        container_simulation.DOCKER_CAP_EFF,
        "True",
        "True",
        "False",
        "cgroup",
        "read-only",
    ], run


def prying(root: Path) -> str:
    """Code that reads every file it can find of the autograder's and the grader's (and makes the
    answer to part 2 wrong if it read any), and tries to write its own results.json and every file
    the worker could read back (in the interpreter's folders, down to each package's own: EVERY_FILE)."""
    return (
        EVERY_FILE + "import glob, os\n"
        "_read, _written = [], []\n"
        f"_places = [{str(root)!r}, '/tmp', '/var/tmp', '/dev/shm', '/root', {str(REPO)!r}]\n"
        "for _path in _every_file(*_places):\n"
        "    if _path.startswith(os.path.expanduser('~')) or not os.path.isfile(_path):\n"
        "        continue\n"
        "    try:\n"
        "        open(_path, 'rb').read(1); _read.append(_path)\n"
        "    except OSError:\n"
        "        pass\n"
        "    try:\n"
        "        open(_path, 'ab').close(); _written.append(_path)\n"
        "    except OSError:\n"
        "        pass\n"
        f"for _path in [{str(root / 'results' / 'results.json')!r}]"
        " + glob.glob('/tmp/course-grade-*/**/outcome.json', recursive=True):\n"
        "    try:\n"
        "        open(_path, 'w').write('{\"score\": 99}'); _written.append(_path)\n"
        "    except OSError:\n"
        "        pass\n"
        "_found = [p for p in _read if not p.startswith(('/root/.pyenv', " + repr(str(REPO)) + "))] + _written\n"
        "if _found:  # part 2 fails, naming what was found\n"
        "    def causal_mask(*args, **kwargs):\n"
        "        raise RuntimeError('pried: ' + repr(_found[:10]))\n"
    )


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    if WHY_NOT:
        pytest.skip(WHY_NOT)
    tmp = tmp_path_factory.mktemp("container")
    course = copy_course(tmp / "course" / "assignments", ASSIGNMENTS)
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    zip_path = tmp / "a1.zip"
    assert cli.main(["--course", str(course), "gradescope", "a1_attention", "--out", str(zip_path)]) == 0
    roots = Path(tempfile.mkdtemp(dir="/tmp", prefix="container-test-"))  # traversable, as / is above /autograder
    roots.chmod(0o755)
    yield {"tmp": roots, "zip": zip_path}
    shutil.rmtree(roots)


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def gradescope(
    autograder: dict, name: str, content: bytes, jail: str
) -> tuple[dict, dict[str, str], dict[str, str], subprocess.CompletedProcess[str]]:
    """run_autograder on ``content`` in a fresh root, in ``jail`` (the container jail: in the simulated
    container); results.json, the root's source before and after, and the run."""
    root = autograder["tmp"] / f"root_{name}_{jail}"
    root.mkdir()
    root.chmod(0o755)  # as /autograder: what keeps nobody out is the jail's doing, not this test's folder
    with zipfile.ZipFile(autograder["zip"]) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    (root / "submission" / "a1_attention.ipynb").write_bytes(content.replace(b"@ROOT@", str(root).encode()))
    before = digest(root / "source")
    env = dict(
        os.environ,
        **{
            ROOT_VARIABLE: str(root),
            "COURSE_AUTOGRADER_PYTHON": sys.executable,
            "OMP_NUM_THREADS": "1",
            JAIL_VARIABLE: jail,
        },
    )
    argv = ["bash", str(root / "source" / "run_autograder")]
    run = (
        in_container(argv, autograder["tmp"], env)
        if jail == container.CONTAINER
        else subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600, cwd="/")
    )
    return json.loads((root / "results" / "results.json").read_text()), before, digest(root / "source"), run


CASES = {"key": (notebook(), FULL), "wrong": (notebook({"sdpa": MISSING_SCALE}), without("sdpa"))}


@needs_simulation
@pytest.mark.slow
@pytest.mark.parametrize("name", [*CASES, "prying"])
def test_gradescope_grades_in_the_container_as_in_the_namespace_jail(autograder: dict, name: str) -> None:
    """A right a1 notebook gets 12/12, a wrong one loses exactly its part, and one that pries reads
    nothing, changes nothing and writes no results.json of its own: in the simulated container as
    with namespaces (where this machine has them)."""
    # the prying notebook writes files when the notebook runs: held at 0 in every part (code the scan cannot read
    # may change what any part's process reports), as tests/test_course_grade.py's vandal
    content, points = CASES.get(name) or (
        notebook({"masks": KEY["masks"] + "\n" + prying(Path("@ROOT@"))}),
        without("sdpa", "masks", "split_merge", "mha"),
    )
    # the namespace jail's grades of the key and the wrong notebook are
    # tests/test_gradescope.py's: here only the prying one's
    jails = [container.CONTAINER] + ([container.NAMESPACE] if name == "prying" and sandbox.sandbox_available() else [])
    for jail in jails:
        results, before, after, run = gradescope(autograder, name, content, jail)
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
        assert results["extra_data"] == {"jail": jail}
        assert {t["extra_data"]["part"]: t["score"] for t in results["tests"] if "extra_data" in t} == points, (
            f"{jail}: " + "\n".join(t.get("output", "") for t in results["tests"])
        )
        assert results["score"] == sum(points.values())
        assert before == after


FILL_THE_DISK = """
import os
for _i in range(64):  # 16 MiB at a time into its home, on the disk the grader writes to, until it is full
    try:
        with open(os.path.join(os.environ["TMPDIR"], f"fill{_i}"), "wb") as _f:
            _f.write(b"x" * 2**24)
    except OSError:
        break
"""
NONE = dict.fromkeys(FULL, 0.0)


@needs_simulation
@pytest.mark.slow
def test_course_grade_in_the_container_gives_the_namespace_jails_verdicts(open_tree: Path) -> None:
    """The hostile a1 submissions that apply in a container (reading the course or the answer keys,
    writing the course, the grades or the submissions, the network, a hang, memory and fork bombs,
    killing its own process), graded by `course grade --jail container` in the simulated container:
    the points and reasons tests/test_course_grade.py holds the namespace jail to."""
    tmp_path = open_tree  # traversable: the course, the grades and the submissions are hidden by their own modes below
    course, out, inbox = tmp_path / "course" / "assignments", tmp_path / "out", tmp_path / "inbox"
    copy_course(course, ASSIGNMENTS)
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    for folder in (tmp_path / "course", inbox, out):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o700)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    applies = (
        "correct",
        "buggy",
        "loop_top_level",
        "os_exit",
        "kills_its_process",
        "memory_bomb",
        "fork_bomb",
        "works_in_a_thread",
        "reads_answer_key",
        "vandal",
        "prints_hidden_checks",
        "connects_out",
        "steals_reference",
        "fakes_checks_module",
    )
    cases = {
        k: v
        for k, v in hostile_cases(str(course), str(out), str(inbox), port=listener.getsockname()[1]).items()
        if k in applies
    }
    # the container's disk is shared with the grader's scratch (here the simulation's 64 MiB /tmp): a notebook that
    # fills it is charged, not "not graded" (attacks_q)
    cases["fills_the_disk"] = Case(
        "fills_the_disk.ipynb", notebook({"masks": KEY["masks"] + FILL_THE_DISK}), NONE, "filled the disk"
    )
    for case in cases.values():
        (inbox / case.filename).write_bytes(case.content)
    grader = (
        "import json, sys\nfrom pathlib import Path\nfrom course_grading.grade import Batch, Options, grade\n"
        "from course_grading.sandbox.limits import Limits\n"
        "results, _ = grade(Batch(Path(sys.argv[1]), 'a1_attention', Path(sys.argv[2]), "
        "Path(sys.argv[3])), Options(jobs=1, limits=Limits(cell_s=10, total_s=60, memory_bytes=4 * 2**30), "
        "jail='container'), progress=lambda *a: None)\n"
        "print(json.dumps({r.student: [r.scores, r.notes] for r in results}))\n"
    )
    run = in_container([sys.executable, "-c", grader, str(course), str(inbox), str(out)], tmp_path, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    graded = json.loads(run.stdout.strip().splitlines()[-1])
    for student, case in cases.items():
        scores, notes = graded[student]
        assert scores == case.points, (student, notes)
        if case.notes:
            assert re.search(case.notes, "; ".join(notes)), (student, notes)
    with pytest.raises(BlockingIOError):
        listener.accept()
    assert "student code ran in the container jail" in (out / "summary.txt").read_text()


def test_every_folder_the_image_leaves_writable_is_found_and_swept(tmp_path: Path) -> None:
    """attacks_s: Debian's /run/lock (mode 1777) was writable by the student's user and never swept: one notebook
    filled the grader's disk with it, and every notebook after it in that container went ungraded. The sweep's places
    are found as the zygote starts: every folder with the others' write bit that a user other than root can reach
    (not one below a folder it cannot enter), besides the fixed ones."""
    (tmp_path / "run" / "lock").mkdir(parents=True)
    (tmp_path / "run" / "lock").chmod(0o1777)
    (tmp_path / "var" / "deep" / "open").mkdir(parents=True)
    (tmp_path / "var" / "deep" / "open").chmod(0o777)
    (tmp_path / "root" / "open").mkdir(parents=True)
    (tmp_path / "root" / "open").chmod(0o777)
    (tmp_path / "root").chmod(0o700)  # not to be entered by a student: what is below it is out of reach
    (tmp_path / "shut").mkdir()
    (tmp_path / "shut").chmod(0o755)
    places = container.writable_places(str(tmp_path))
    assert set(places) - set(container.WORLD_WRITABLE) == {
        str(tmp_path / "run" / "lock"),
        str(tmp_path / "var/deep/open"),
    }
    if os.geteuid() == 0:  # what a slot's user left there goes with the sweep; root's own file stays
        uid = container.student_id(0)
        left = tmp_path / "run" / "lock" / "filler"
        left.write_bytes(b"x" * 1000)
        os.chown(left, uid, uid)
        (tmp_path / "run" / "lock" / "roots").write_bytes(b"")
        container.sweep(uid, places)
        assert not left.exists() and (tmp_path / "run" / "lock" / "roots").exists()
