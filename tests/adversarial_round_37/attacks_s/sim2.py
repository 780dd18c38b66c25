"""Docker's default confinement, simulated on a developer's or CI machine (issue 38), so that the
container jail is tested where it will run: Gradescope's autograder containers.

``simulated(argv)`` runs ``argv`` as root of a user namespace that maps the host's ids 0-65535 (so
files keep their owners and modes), in a mount namespace of its own where:

* no new user namespace can be made (``user.max_user_namespaces`` 0, as Docker's seccomp profile
  refuses ``unshare(CLONE_NEWUSER)``);
* every control group mount is read-only;
* the image holds only what Gradescope's would: of the checkout, the course's two packages and the
  virtual environment (the rest is covered, as the zip carries no checkout), and the folders on the
  way to the interpreter can be traversed (pyenv's Python lies under /root here; an image's under
  /usr), showing nothing else; ``/tmp``, ``/var/tmp`` and ``/dev/shm`` are the container's own;
* the command runs with Docker's default capability set alone (``setpriv``), ``CapEff: a80425fb``:
  no ``CAP_SYS_ADMIN``, so no mount namespace either.

It needs root, util-linux's ``unshare`` and ``setpriv``, ``newuidmap`` (Debian's ``uidmap``) and
``root:0:65536`` in /etc/subuid and /etc/subgid; ``.ci/run`` sets them up. Run as a script, this
module is the namespace's first process: it sets the above up and executes ``setpriv``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

DOCKER_CAPABILITIES = (
    "chown,dac_override,fsetid,fowner,mknod,net_raw,setgid,setuid,setfcap,setpcap,net_bind_service,sys_chroot,"
    "kill,audit_write"
)
DOCKER_CAP_EFF = "00000000a80425fb"


def unavailable() -> str | None:
    """Why the simulation cannot run here, or None."""
    if os.geteuid() != 0:
        return "the simulated container needs root"
    missing = [tool for tool in ("unshare", "setpriv", "newuidmap", "newgidmap") if shutil.which(tool) is None]
    if missing:
        return f"the simulated container needs {', '.join(missing)} (util-linux; Debian's uidmap)"
    for name in ("/etc/subuid", "/etc/subgid"):
        text = Path(name).read_text() if Path(name).exists() else ""
        if not any(
            line.split(":")[:1] == ["root"] and int(line.split(":")[2]) >= 65536
            for line in text.splitlines()
            if line.count(":") == 2
        ):
            return f"the simulated container needs a line root:0:65536 in {name}"
    return None


def simulated(argv: list[str], show: list[Path], hide_under: Path, keep_in_tmp: list[Path]) -> list[str]:
    """``argv`` in the simulated container: of ``hide_under`` (the checkout), only ``show`` is left;
    a folder on the way to ``show`` that others cannot traverse shows only that way; ``/tmp``,
    ``/var/tmp`` and ``/dev/shm`` are the container's own (empty but for ``keep_in_tmp``)."""
    plan = json.dumps(
        {
            "show": [str(p.resolve()) for p in show],
            "hide_under": str(hide_under.resolve()),
            "keep_in_tmp": [str(p.resolve()) for p in keep_in_tmp],
        }
    )
    return [
        "unshare",
        "--user",
        "--map-users=0,0,65536",
        "--map-groups=0,0,65536",
        "--mount",
        "--propagation",
        "private",
        sys.executable,
        str(Path(__file__).resolve()),
        plan,
        "--",
        *argv,
    ]


def _cover(folder: Path, targets: list[Path], mode: int) -> None:
    """A tmpfs of ``mode`` over ``folder``, with its entries on the way to ``targets`` bound back."""
    from course_grading.sandbox import jail

    held = {
        entry: os.open(entry, os.O_PATH | os.O_CLOEXEC)
        for entry in folder.iterdir()
        if any(entry == t or entry in t.parents for t in targets)
    }
    jail._mount("tmpfs", str(folder), "tmpfs", 0, f"size=64m,mode={mode:o}")
    for entry, fd in held.items():
        jail.bind(fd, str(entry), writable=True)
        os.close(fd)


def _setup(plan: dict) -> None:
    from course_grading.sandbox import jail

    Path("/proc/sys/user/max_user_namespaces").write_text("0")
    jail.read_only("/sys/fs/cgroup")
    show, hide_under, keep = (
        [Path(p) for p in plan["show"]],
        Path(plan["hide_under"]),
        [Path(p) for p in plan["keep_in_tmp"]],
    )
    _cover(hide_under, show, 0o711)
    for target in show:
        for folder in reversed(target.parents):
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                _cover(folder, show, 0o711)
    for fresh in ("/tmp", "/var/tmp", "/dev/shm"):
        if os.path.isdir(fresh):
            _cover(Path(fresh), [*show, hide_under, *keep], 0o1777)
    # attacks_s: Docker's image has ONE writable layer: /run/lock (1777 in Ubuntu's base image) is on the same
    # filesystem as /tmp. Simulate it by binding a 1777 folder of the container's /tmp over /run/lock.
    os.makedirs("/tmp/.layer-run-lock", exist_ok=True)
    os.chmod("/tmp/.layer-run-lock", 0o1777)
    fd = os.open("/tmp/.layer-run-lock", os.O_PATH | os.O_CLOEXEC)
    jail.bind(fd, "/run/lock", writable=True)
    os.close(fd)


if __name__ == "__main__":
    split = sys.argv.index("--")
    _setup(json.loads(sys.argv[1]))
    command = sys.argv[split + 1 :]
    os.execvp(
        "setpriv",
        [
            "setpriv",
            f"--bounding-set=-all,{','.join('+' + c for c in DOCKER_CAPABILITIES.split(','))}",
            "--inh-caps=-all",
            "--",
            *command,
        ],
    )
