"""Start a command in a private mount namespace where the course and the grades are hidden.

Used by ``course grade`` (see :mod:`course_grading.sandbox`) in front of the student processes'
zygote::

    unshare --user --map-root-user --mount --pid --net --fork --kill-child --mount-proc \\
        python -m course_grading.jail --hide DIR ... --keep DIR ... --keep-rw DIR ... -- python -m course_grading.student_server

``--hide`` folders get an empty tmpfs on top: the real course folder, the answer keys, the grades,
the submissions and the batch folder that holds every other student's files. ``--keep`` folders
(Python, the grading package, course_lib) stay visible at their path, read-only, even inside a
hidden folder; ``--keep-rw`` folders (the job's slot, where the student process's socket is) stay
writable; every other file system is remounted read-only, and ``/tmp`` and ``/dev/shm`` are
private, empty and small. The command, and everything the student's code starts, sees only that
view, and all of it dies with it (``--pid --kill-child``). ``/proc`` shows only the jail's
processes (``--mount-proc``), so no ``/proc/<pid>/root`` leads back to the real files; the network
namespace has a loopback that is down and nothing else; and the command runs in a nested user
namespace, where the mounts are locked: root there cannot unmount what hides the course.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

PRIVATE = ("/tmp", "/dev/shm")  # get a small empty tmpfs of their own: scratch space, private


def _mount(*args: str, fds: tuple[int, ...] = ()) -> None:
    subprocess.run(["mount", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=fds)


def mount_points() -> list[str]:
    """Every mount point of this namespace, as /proc/self/mountinfo lists them (octal escapes decoded)."""
    with open("/proc/self/mountinfo") as info:
        points = [line.split()[4] for line in info]
    return [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), p) for p in points]


def main(argv: list[str]) -> None:
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m course_grading.jail")
    parser.add_argument("--hide", action="append", default=[], help="hide this folder behind an empty tmpfs")
    parser.add_argument("--keep", action="append", default=[], help="keep this folder visible, read-only")
    parser.add_argument("--keep-rw", action="append", default=[], help="keep this folder visible and writable")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    # Hold the kept folders open: once a tmpfs covers their parent, their paths lead nowhere.
    kept = [(path, os.open(path, os.O_RDONLY | os.O_DIRECTORY), path in args.keep) for path in args.keep + args.keep_rw]
    for path in args.hide:
        if os.path.isdir(path):
            _mount("-t", "tmpfs", "-o", "size=1m,mode=000", "tmpfs", path)
    for path in PRIVATE:
        if os.path.isdir(path):
            _mount("-t", "tmpfs", "-o", "size=64m,mode=1777", "tmpfs", path)
    for path, _, _ in kept:  # their mount points, in the hiding tmpfs where need be
        os.makedirs(path, exist_ok=True)
    # Everything else read-only: the notebook may write only to its home (and the private tmpfs).
    for point in mount_points():
        if point == "/proc" or point.startswith("/proc/") or point in PRIVATE:
            continue
        try:
            _mount("-o", "remount,bind,ro", point)
        except subprocess.CalledProcessError:
            if point == "/":
                raise
    for path, fd, read_only in kept:
        _mount("--no-canonicalize", "--bind", f"/proc/self/fd/{fd}", path, fds=(fd,))
        _mount("-o", f"remount,bind,{'ro' if read_only else 'rw'}", path)
        os.close(fd)
    # A nested user and mount namespace locks these mounts: root in it cannot unmount them.
    os.execvp("unshare", ["unshare", "--user", "--map-root-user", "--mount", "--", *command])


if __name__ == "__main__":
    main(sys.argv[1:])
