"""The course secret and the seeds of the hidden inputs.

A hidden check draws its inputs from a seed. The checks modules are public in an open course, so
the seed must be what nobody but the instructor can compute: it is a keyed digest (HMAC-SHA256) of
every code cell of the submission (the answer cells, the cells a student added, the test cells as
the canonical notebook holds them) under the course secret. The same notebook always gets the same
seed, hence the same inputs and the same grade; a notebook changed in any code cell, a lookup table
added in its own cell included, gets inputs that could not be known when it was written.

The secret is 32 random bytes in ``<course>/grading/course_secret`` (mode 0600, git-ignored),
created by ``course release`` or the first ``course grade``. It never reaches a student: the jail
hides the course folder, the scratch course keeps it beside the hidden checks (out of every jail's
sight), and only the trusted worker reads it. The Gradescope zip carries a copy, so a class graded
there and on the instructor's machine gets the same grades.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

__all__ = ["SECRET_BYTES", "SECRET_FILE", "checks_seed", "ensure_secret", "read_secret", "secret_tag"]

SECRET_FILE = "course_secret"  # in the course's grading/ folder, beside the hidden checks
SECRET_BYTES = 32


def ensure_secret(grading: Path) -> Path:
    """The course secret's file in ``grading``, created (random, owner-only) if it does not exist."""
    path = grading / SECRET_FILE
    if not path.exists():
        grading.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(SECRET_BYTES).hex().encode() + b"\n")
    return path


def read_secret(grading: Path) -> bytes:
    """The course secret in ``grading``; ValueError naming the file if it is missing or malformed."""
    path = grading / SECRET_FILE
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        raise ValueError(f"{path} is missing: `course release` or `course grade` creates the course secret") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"{path} is not a course secret (64 hexadecimal digits)") from None
    if len(key) < SECRET_BYTES:
        raise ValueError(f"{path} holds {len(key)} bytes; a course secret has {SECRET_BYTES}")
    return key


def checks_seed(secret: bytes, assignment: str, code_cells: Iterable[str]) -> int:
    """The seed of a submission's hidden inputs: HMAC-SHA256 under ``secret`` of the assignment and
    every code cell's source, in order (63 bits)."""
    mac = hmac.new(secret, assignment.encode() + b"\0", hashlib.sha256)
    for source in code_cells:
        mac.update(len(source.encode("utf-8", "surrogatepass")).to_bytes(8, "little"))
        mac.update(source.encode("utf-8", "surrogatepass"))
    return int.from_bytes(mac.digest()[:8], "little") & (2**63 - 1)


def secret_tag(secret: bytes) -> str:
    """A public name of the secret (its HMAC of a fixed text): grades cached under another secret
    are not reused."""
    return hmac.new(secret, b"course secret tag", hashlib.sha256).hexdigest()[:16]
