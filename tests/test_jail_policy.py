"""The jail's policy (:mod:`course_grading.sandbox.policy`), one test per rule, each on the jail itself:
``sandbox.jail_argv`` around a small Python probe that reports what it could do, as JSON.

Where the grader runs as root, every rule is checked in both of the jail's ways of dropping
privilege: as root (the jail becomes nobody outright) and as an ordinary user would run it (a user
namespace, nobody inside a nested one). The end-to-end case, a notebook that prints what it can
find, graded by ``course grade``, is at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from course_grading.sandbox import limits as sandbox
from course_grading.sandbox import policy

from assignment_support import ROOT

pytestmark = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)

MODES = ["as the grader"] + (["as an ordinary user"] if os.geteuid() == 0 else [])
SECRET = "COURSE_SECRET_TOKEN"


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def home_folder() -> Iterator[Path]:
    """A folder in the grader's home (where the issue found a private key): outside /tmp, which
    even a hide-list jail replaced; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="jail-policy-test-", dir=Path.home()))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def jailed(
    code: str,
    mode: str,
    read_only: Sequence[Path] = (),
    writable: Sequence[Path] = (),
    never: Sequence[Path] = (),
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with ``python -c`` in the jail; the environment given is the grader's whole one."""
    argv = sandbox.jail_argv(
        list(never), [*policy.python_folders(), *read_only], list(writable), [sys.executable, "-c", code]
    )
    # As an ordinary user: root confined to a user namespace that maps only itself, as `unshare` does for anyone else.
    if mode == "as an ordinary user":
        argv = ["unshare", "--user", "--map-root-user", *sandbox.NAMESPACES, *argv[len(sandbox.unshare()) :]]
    return subprocess.run(
        argv, env=env if env is not None else dict(os.environ), capture_output=True, text=True, cwd="/", timeout=120
    )


def probed(code: str, mode: str, **kwargs: object) -> dict[str, object]:
    """What the probe ``code`` put in its dict ``found``, printed as JSON at its end."""
    done = jailed("import json, os, sys\nfound = {}\n" + code + "\nprint(json.dumps(found))", mode, **kwargs)  # type: ignore[arg-type]
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


READ = """
for path in PATHS:
    try:
        with open(path, 'rb') as f:
            found[path] = f.read(100).decode(errors='replace')
    except IsADirectoryError:
        found[path] = os.listdir(path)
    except OSError as error:
        found[path] = None
"""


def test_no_file_outside_the_allow_list_can_be_read(home_folder: Path, mode: str) -> None:
    """/etc/shadow, a private key in the home folder, another checkout of the course (its answer
    key and hidden checks), this checkout's answer keys, the host's processes: no path leads there."""
    key = home_folder / ".ssh" / "id_rsa"
    other = home_folder / "other-checkout" / "assignments"
    for path, text in (
        (key, "PRIVATE KEY"),
        (other / "source" / "a1" / "a1.ipynb", "ANSWER KEY"),
        (other / "grading" / "a1_checks.py", "HIDDEN CHECK"),
    ):
        path.parent.mkdir(parents=True)
        path.write_text(text)
    paths = [
        "/etc/shadow",
        str(key),
        str(other / "source" / "a1" / "a1.ipynb"),
        str(other / "grading" / "a1_checks.py"),
        str(ROOT / "solutions"),
        str(ROOT / "assignments"),
        str(home_folder),
        "/home",
        "/run",
        "/sys",
        "/proc/1/root/etc/shadow",
    ]
    found = probed(f"PATHS = {paths!r}\n{READ}", mode)
    assert found == dict.fromkeys(paths), found
    assert (home_folder / ".ssh" / "id_rsa").read_text() == "PRIVATE KEY"  # the probe had real paths to try


def test_etc_holds_only_what_python_needs_and_names_only_nobody(mode: str) -> None:
    found = probed(
        "found['etc'] = sorted(os.listdir('/etc'))\nfound['passwd'] = open('/etc/passwd').read()\nimport pwd\n"
        "found['me'] = pwd.getpwuid(os.getuid()).pw_name",
        mode,
    )
    assert set(found["etc"]) <= {*policy.ETC, *policy.ETC_WRITTEN}, found  # type: ignore[arg-type]
    assert found["passwd"] == policy.ETC_WRITTEN["passwd"] and found["me"] == "nobody"


def test_only_the_jails_processes_are_visible(mode: str) -> None:
    found = probed("found['pids'] = [p for p in os.listdir('/proc') if p.isdigit()]", mode)
    assert found["pids"] == ["1"], found  # the probe itself: nothing of the host's


def test_the_kernels_settings_cannot_be_changed(mode: str) -> None:
    """/proc/sys and /proc/sysrq-trigger are read-only, even where the kernel takes the jail's user
    for root (a grader that is root, in a user namespace that does not map nobody). The probe
    writes the host name it already has, in the jail's own host-name namespace: harmless if it could."""
    found = probed(
        "import socket\n"
        "for path, text in (('/proc/sys/kernel/hostname', socket.gethostname()), ('/proc/sysrq-trigger', '')):\n"
        "    try:\n        open(path, 'w').close()\n        found[path] = 'opened for writing'\n"
        "    except OSError as error:\n        found[path] = type(error).__name__",
        mode,
    )
    for path, outcome in found.items():
        # EACCES for nobody, EROFS for a root
        assert outcome in ("PermissionError", "OSError") or (
            outcome == "FileNotFoundError" and not os.path.exists(path)
        ), found


def test_the_environment_is_the_allow_list_only(mode: str) -> None:
    grader = dict(os.environ) | {
        SECRET: "s3cr3t-t0ken",
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": str(ROOT),
        "LD_PRELOAD": "/nonexistent.so",
    }
    found = probed("found['env'] = dict(os.environ)", mode, env=grader)
    assert found["env"] == policy.environment(grader), found
    assert SECRET not in found["env"] and "PYTHONPATH" not in found["env"] and found["env"]["OMP_NUM_THREADS"] == "1"  # type: ignore[operator, index]
    assert found["env"]["PATH"] == policy.PATH  # type: ignore[index]


ISOLATED = """
import ctypes
from course_grading.sandbox import jail
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0, as the zygote it would be forked from
jail.isolate(SLOT)
found['socket_before_seal'] = os.path.exists(os.path.join(SLOT, 's'))
jail.seal(SLOT)
status = dict(line.split(':\\t') for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
found['uid'], found['gid'], found['capabilities'] = os.getuid(), os.getgid(), int(status['CapEff'], 16)
"""


def test_student_code_runs_as_nobody_without_capabilities(mode: str) -> None:
    """Nobody, before and after the student process isolates itself; no effective capability; and
    no ``exec`` can give it any (``no_new_privs``)."""
    found = probed(
        f"found['before'] = os.getuid()\nSLOT = '/nonexistent'\n{ISOLATED}\n"
        "found['no_new_privs'] = dict(line.split(':\\t') for line in open('/proc/self/status').read().splitlines() "
        "if ':\\t' in line)['NoNewPrivs']",
        mode,
    )
    assert found == {
        "before": policy.UID,
        "socket_before_seal": False,
        "uid": policy.UID,
        "gid": policy.GID,
        "capabilities": 0,
        "no_new_privs": "1",
    }, found


WRITE_SLOT = """
try:
    with open(os.path.join(SLOT, 'big'), 'wb') as f:
        f.write(b'x' * 1000)
    found['written'] = True
except OSError as error:
    found['written'] = type(error).__name__
found['slot'] = os.listdir(SLOT)
"""


@pytest.mark.parametrize("where", ["home", "tmp"])
def test_the_slot_is_not_writable_once_the_student_process_is_isolated(
    home_folder: Path, tmp_path: Path, mode: str, where: str
) -> None:
    """The slot (on the real disk, where the socket lies) is within the student process's reach
    until it has connected, and then covered: nothing written there can reach the disk or lift the
    output cap. Both where it lies under the jail's /tmp and where it does not (TMPDIR elsewhere)."""
    slot = (home_folder if where == "home" else tmp_path) / "slot"
    slot.mkdir()
    (slot / "s").write_text("socket")
    found = probed(
        f"SLOT = {str(slot)!r}\nfound['before'] = sorted(os.listdir(SLOT))\n{ISOLATED}\n{WRITE_SLOT}",
        mode,
        writable=[slot],
    )
    # isolated, it can still reach its socket
    assert found["before"] == ["s"] and found["socket_before_seal"] is True, found
    assert found["written"] == "OSError" and found["slot"] == [], found  # EROFS: an empty read-only cover
    assert sorted(p.name for p in slot.iterdir()) == ["s"]


def test_torch_course_lib_and_a_private_tmp_work_after_isolation(tmp_path: Path, mode: str) -> None:
    """What student code needs still works: torch, course_lib and matplotlib import, /tmp (its
    home) is writable, within its size, and starts empty; a read-only folder the jail shows under
    /tmp (a venv in a CI checkout under /tmp) is still there after the student process has covered
    /tmp with its own, still read-only."""
    venv = tmp_path / "ci-checkout" / ".venv"
    (venv / "planted_package").mkdir(parents=True)
    (venv / "planted_package" / "__init__.py").write_text("VALUE = 42\n")
    code = f"""SLOT = '/nonexistent'
{ISOLATED}
found['home'] = (os.environ['HOME'], os.environ['TMPDIR'], os.getcwd(), os.listdir('/tmp'))
import torch, course_lib, matplotlib.pyplot
found['torch'] = float(torch.ones(3).sum())
with open('/tmp/notes.txt', 'w') as f:
    f.write('x' * 2**20)
found['tmp'] = os.path.getsize('/tmp/notes.txt')
try:
    with open('/tmp/huge', 'wb') as f:
        f.write(b'x' * 2**20 * 100)
    found['huge'] = 'written'
except OSError as error:
    found['huge'] = error.errno
sys.path.insert(0, {str(venv)!r})
import planted_package
found['planted'] = planted_package.VALUE
try:
    open({str(venv / "new.py")!r}, 'w')
    found['venv_writable'] = True
except OSError:
    found['venv_writable'] = False
"""
    found = probed(code, mode, read_only=[venv])
    assert found["torch"] == 3.0 and found["tmp"] == 2**20, found
    # /tmp is empty but for the way to what the jail shows under it: the planted venv, and the checkout
    # and its Python where they live under /tmp (a clone made with mktemp, as CI's may be).
    shown = [venv, ROOT, Path(sys.prefix).resolve()]
    under_tmp = sorted({p.relative_to("/tmp").parts[0] for p in shown if p.is_relative_to("/tmp")})
    assert found["home"][:3] == [policy.HOME] * 3 and sorted(found["home"][3]) == under_tmp, found
    assert found["huge"] == 28, found  # ENOSPC: the private /tmp is small
    assert found["planted"] == 42 and found["venv_writable"] is False, found


GUARDED = """SLOT = '/nonexistent'
libc = __import__('ctypes').CDLL(None)
found['planted_segment'] = libc.shmget(4242, 4096, 0o1000 | 0o666) >= 0  # what an earlier student process left in the jail's IPC namespace
{isolated}
found['segments_seen'] = len(open('/proc/sysvipc/shm').read().splitlines()) - 1
from course_grading.sandbox.student_server import code_guard
sys.addaudithook(code_guard())
with open('/tmp/statistics.py', 'w') as f:  # an allowed module's name, first on a path the student edits
    f.write('SHADOW = True')
sys.path.insert(0, '/tmp')
try:
    import statistics
    found['shadow'] = hasattr(statistics, 'SHADOW')
except PermissionError:
    found['shadow'] = 'refused'
sys.path.insert(0, {planted!r})
import planted_package
found['planted'] = planted_package.VALUE
with open('/tmp/run.sh', 'w') as f:
    f.write('#!/bin/sh\\necho ran')
os.chmod('/tmp/run.sh', 0o755)
try:
    found['executed'] = __import__('subprocess').run(['/tmp/run.sh'], capture_output=True, text=True).stdout
except PermissionError:
    found['executed'] = 'refused'
"""  # noqa: E501 (code run as written)


def test_a_student_process_shares_no_ipc_and_loads_no_code_from_its_writable_folders(tmp_path: Path, mode: str) -> None:
    """Each student process has an IPC namespace of its own (System V shared memory of an earlier
    one is out of sight and dies with it), cannot import a module it wrote under an allowed name,
    nor run a program it wrote (``noexec``), while what the jail shows read-only under ``/tmp``
    stays importable."""
    venv = tmp_path / "ci-checkout" / ".venv"
    (venv / "planted_package").mkdir(parents=True)
    (venv / "planted_package" / "__init__.py").write_text("VALUE = 42\n")
    found = probed(GUARDED.format(isolated=ISOLATED, planted=str(venv)), mode, read_only=[venv])
    assert found == {
        "planted_segment": True,
        "uid": policy.UID,
        "gid": policy.GID,
        "capabilities": 0,
        "socket_before_seal": False,
        "segments_seen": 0,
        "shadow": "refused",
        "planted": 42,
        "executed": "refused",
    }, found


def test_the_jail_refuses_to_show_a_folder_that_holds_a_hidden_one(tmp_path: Path) -> None:
    course = tmp_path / "project" / "assignments"
    course.mkdir(parents=True)
    done = jailed("print('ran')", MODES[0], read_only=[tmp_path / "project"], never=[course])
    assert done.returncode != 0 and "ran" not in done.stdout
    assert f"{tmp_path / 'project'} would show {course}" in done.stderr
    assert policy.exposed([tmp_path / "project"], [course]) and not policy.exposed([course], [tmp_path / "project"])


def test_what_python_needs_is_shown_and_no_more() -> None:
    """The interpreter's prefix and base prefix (not the home they may lie in) and the two
    packages' folders (not the checkout they lie in)."""
    shown = policy.python_folders()
    assert Path(sys.prefix).resolve() in shown and Path(sys.base_prefix).resolve() in shown
    assert (ROOT / "course_grading").resolve() in shown and (ROOT / "course_lib").resolve() in shown
    assert ROOT.resolve() not in shown and Path.home().resolve() not in shown


SNOOP = """
from pathlib import Path as _Path
for _path in {paths!r}:
    try:
        print('SNOOPED', _path, _Path(_path).read_text()[:300])
    except Exception as _error:
        print('SNOOPED', _path, type(_error).__name__)
print('SNOOPED environ', open('/proc/self/environ').read())
"""


def test_a_notebook_that_prints_what_it_can_find_shows_none_of_it_and_keeps_its_points(
    tmp_path: Path, home_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``course grade`` on the answer key with a snoop in an answer cell: a token in the grading
    shell's environment, /etc/shadow, a private key in the home folder, another checkout's answer
    key, this batch's hidden checks and the grades of an earlier run. The snoop runs (its lines
    reach the feedback page), finds none of them, and the notebook keeps every point."""
    from test_course_grade import LIMITS, course_copy

    from course_grading import grade as grading

    from hostile_submissions import ASSIGNMENT, FULL, KEY, notebook

    token = f"tok-{os.getpid()}-secret"
    monkeypatch.setenv(SECRET, token)
    planted = {
        home_folder / ".ssh" / "id_rsa": "PRIVATE-KEY-PLANTED",
        home_folder / "other" / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb": "OTHER-ANSWER-KEY-PLANTED",
    }
    for path, text in planted.items():
        path.parent.mkdir(parents=True)
        path.write_text(text)
    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    out.mkdir()
    (out / "grades.csv").write_text("student,total\nsomeone-else,EARLIER-GRADES-PLANTED\n")
    checks = course / "grading" / f"{ASSIGNMENT}_checks.py"
    paths = ["/etc/shadow", *map(str, planted), str(out / "grades.csv"), str(checks)]
    (inbox / "snoop.ipynb").write_bytes(notebook({"masks": KEY["masks"] + SNOOP.format(paths=paths)}))
    results, _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, out),
        grading.Options(jobs=1, limits=LIMITS),
        progress=lambda done, total, line: None,
    )
    assert results[0].scores == FULL, results[0].notes
    feedback = (out / "feedback" / "snoop.html").read_text()
    # it ran, and found nothing (a .py path under /tmp is refused before it is looked for: the code guard)
    assert [
        p
        for p in paths
        if f"SNOOPED {p} FileNotFoundError" not in feedback and f"SNOOPED {p} PermissionError" not in feedback
    ] == [] and f"PATH={policy.PATH}" in feedback
    secrets = [token, *planted.values(), "EARLIER-GRADES-PLANTED", "SHORTCUTS"]
    if os.access("/etc/shadow", os.R_OK):
        secrets.append(Path("/etc/shadow").read_text().splitlines()[0])
    assert "SHORTCUTS" in checks.read_text()  # a line of the hidden checks
    assert [s for s in secrets if s in feedback] == []
