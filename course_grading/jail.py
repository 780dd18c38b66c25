"""Start a grading kernel inside a private mount namespace, where the course's files are read-only or hidden.

Used as the ``argv`` of the kernel spec that ``course grade`` gives nbgrader::

    unshare --user --map-root-user --mount --pid --fork --kill-child \\
        python -m course_grading.jail --ro DIR ... --hide DIR ... -- python -m ipykernel_launcher -f FILE

``--ro`` paths are re-mounted read-only (the scratch course: its gradebook, the submission, the
feedback); ``--hide`` paths get an empty tmpfs on top (the real course folder, the answer keys, the
grades). The kernel, and everything the student's code starts, then sees only that view, and all of
it dies with the kernel (``--pid --kill-child``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main(argv: list[str]) -> None:
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m course_grading.jail")
    parser.add_argument("--ro", action="append", default=[], help="make this folder read-only")
    parser.add_argument("--hide", action="append", default=[], help="hide this folder behind an empty tmpfs")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    for path in args.ro:
        _mount("--bind", path, path)
        _mount("-o", "remount,bind,ro", path)
    for path in args.hide:
        if os.path.isdir(path):
            _mount("-t", "tmpfs", "-o", "size=1m,mode=000", "tmpfs", path)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
