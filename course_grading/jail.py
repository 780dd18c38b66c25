"""Start a grading kernel in a private mount namespace where only its own scratch folder is visible.

Used as the ``argv`` of the kernel spec that ``course grade`` gives nbgrader::

    unshare --user --map-root-user --mount --pid --fork --kill-child \\
        python -m course_grading.jail --hide DIR ... --keep DIR ... --keep-rw DIR ... -- python -m ipykernel_launcher -f FILE

``--hide`` folders get an empty tmpfs on top: the real course folder, the answer keys, the grades,
and the batch folder that holds every other student's files. ``--keep`` folders (this submission's
scratch course) stay visible at their path, read-only, even inside a hidden folder; ``--keep-rw``
folders (the kernel's home) stay writable. The kernel, and everything the student's code starts,
sees only that view, and all of it dies with the kernel (``--pid --kill-child``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def _mount(*args: str, fds: tuple[int, ...] = ()) -> None:
    subprocess.run(["mount", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=fds)


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
    for path, fd, read_only in kept:
        os.makedirs(path, exist_ok=True)
        _mount("--no-canonicalize", "--bind", f"/proc/self/fd/{fd}", path, fds=(fd,))
        if read_only:
            _mount("-o", "remount,bind,ro", path)
        os.close(fd)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
