"""The models a chapter trains and a later chapter fine-tunes (chapter 3's GPT, chapter 4's BERT, read by chapter 6),
saved with a fingerprint of the code that made them.

A model is a dictionary of plain values (its config, its ``state_dict``, its tokenizer's vocabulary) saved with
``torch.save`` in ``share/course-data/models/<name>.pt`` of the Python environment, or under ``$COURSE_MODELS``.
:func:`save_chapter_model` adds the fingerprint of the code that trained it: ``course_lib`` (its figures left out) and,
in a checkout of the course, the chapter's own page ``book/<name>.md``. :func:`load_chapter_model` refuses a model
missing or made by other code (the course updated since the chapter last ran), naming the chapter to run again: a
model trained by an older chapter 4 once failed a claim of chapter 6 that chapter 4's current model meets.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

import torch

__all__ = [
    "OutdatedModelError",
    "chapter_model",
    "code_fingerprint",
    "is_current",
    "load_chapter_model",
    "save_chapter_model",
]

MADE_WITH = "made_with"  # the saved dictionary's entry that holds the fingerprint
LIBRARY = Path(__file__).resolve().parent
BOOK = LIBRARY.parent / "book"  # in a checkout of the course; absent where course_lib is installed on its own


class OutdatedModelError(RuntimeError):
    """A saved chapter model made by other code than this environment's."""


def chapter_model(name: str) -> Path:
    """Where the chapter model ``name`` (``"03_gpt"``, ``"04_bert"``) is saved; the folder is made if needed."""
    folder = Path(os.environ.get("COURSE_MODELS") or Path(sys.prefix) / "share" / "course-data" / "models")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.pt"


def code_fingerprint(name: str, library: Path = LIBRARY, book: Path = BOOK) -> str:
    """SHA-256 (hex) of the code that trains the chapter model ``name``: every ``.py`` file of ``library`` but its
    figures (``diagrams/``), by relative path, and ``book/<name>.md`` where there is one."""
    return _fingerprint(library, book / f"{name}.md")


@cache
def _fingerprint(library: Path, page: Path) -> str:
    digest = hashlib.sha256()
    files = sorted(p for p in library.rglob("*.py") if "diagrams" not in p.relative_to(library).parts)
    for path in [*files, *([page] if page.is_file() else [])]:
        label = path.relative_to(library).as_posix() if path.is_relative_to(library) else path.name
        data = path.read_bytes()
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def save_chapter_model(name: str, model: dict[str, Any]) -> Path:
    """Save ``model`` (plain values: config, state_dict, vocabulary) as the chapter model ``name`` with the
    fingerprint of the code that made it; returns the file."""
    if MADE_WITH in model:
        raise ValueError(f"{MADE_WITH!r} is the fingerprint's entry: a model may not bring its own")
    path = chapter_model(name)
    torch.save({**model, MADE_WITH: code_fingerprint(name)}, path)
    return path


def is_current(name: str) -> bool:
    """Whether the chapter model ``name`` is saved and was made by this environment's code."""
    path = chapter_model(name)
    if not path.is_file():
        return False
    try:
        saved = torch.load(path, weights_only=True)
    except Exception:  # a truncated or foreign file is no current model
        return False
    return isinstance(saved, dict) and saved.get(MADE_WITH) == code_fingerprint(name)


def load_chapter_model(name: str, made_by: str) -> dict[str, Any]:
    """The chapter model ``name`` as :func:`save_chapter_model` saved it (without the fingerprint). ``made_by``
    names the chapter that trains it: FileNotFoundError where it is not saved in this environment (a notebook opened
    on its own, on Colab say), OutdatedModelError where other code made it; each says to run that chapter first."""
    path = chapter_model(name)
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: it is the model {made_by} trains and saves. Run {made_by} in this environment "
            "first (its notebook saves the model here), then this cell again"
        )
    saved = torch.load(path, weights_only=True)
    if not isinstance(saved, dict) or saved.get(MADE_WITH) != code_fingerprint(name):
        raise OutdatedModelError(
            f"{path} was made by other code than this environment's ({made_by} or course_lib has changed since it "
            f"ran, or an older course saved it). Run {made_by} again, then this cell"
        )
    return {key: value for key, value in saved.items() if key != MADE_WITH}
