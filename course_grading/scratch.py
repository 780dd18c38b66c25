"""The private scratch folders of ``course grade``, and the removal of those a killed run left behind.

A batch's scratch folder holds a copy of every assignment's hidden checks and of the class's
submissions. It is made mode 0700 (:func:`tempfile.mkdtemp`) and held with an exclusive ``flock``
for as long as its run lives; the lock dies with the run, however it ends. So the next run tells a
killed run's folder (no lock held) from a running one's, and removes it (:func:`remove_stale`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PREFIX", "private_folder", "remove_stale"]

PREFIX = "course-grade-"
GRACE_S = 10.0  # a folder younger than this may be a starting run's, not yet locked


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """A fresh folder under the temp folder, mode 0700, locked while in use and removed after."""
    path = Path(tempfile.mkdtemp(prefix=PREFIX))
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def remove_stale(root: Path | None = None) -> list[Path]:
    """Remove this user's scratch folders under ``root`` (default: the temp folder) that no running
    batch holds; return them."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob(f"{PREFIX}*"):
        try:
            info = folder.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or time.time() - info.st_mtime < GRACE_S:
            continue
        if _unheld(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _unheld(folder: Path) -> bool:
    """Whether no running batch holds ``folder``'s lock (a batch holds it until its folder is gone)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
