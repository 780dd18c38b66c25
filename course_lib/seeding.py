"""Seeds for the book's runs, all shifted by one environment variable.

A measured claim of the book must hold for any seed, not only for the one a chapter happens to use.
Every chapter seeds through these functions, so ``COURSE_SEED_OFFSET=3 make book`` runs the whole book
with every seed moved by 3, and nothing in a chapter needs editing. Unset (the reader's build), the
offset is 0 and each chapter uses exactly the seeds written in it.
"""

from __future__ import annotations

import os
import random

import torch

__all__ = ["SEED_OFFSET_VARIABLE", "seed_offset", "shifted", "set_seed", "generator"]

SEED_OFFSET_VARIABLE = "COURSE_SEED_OFFSET"


def seed_offset() -> int:
    """The offset ``COURSE_SEED_OFFSET`` adds to every seed (0 when it is unset or empty).

    Raises ValueError, naming the variable, when it is set to something that is not an integer."""
    value = os.environ.get(SEED_OFFSET_VARIABLE, "").strip()
    if not value:
        return 0
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{SEED_OFFSET_VARIABLE} must be an integer, not {value!r}") from None


def shifted(n: int) -> int:
    """The seed a chapter's seed ``n`` stands for in this run: ``n`` plus the offset."""
    return n + seed_offset()


def set_seed(n: int) -> int:
    """Seed torch's and Python's global generators with ``shifted(n)``, and return it."""
    value = shifted(n)
    torch.manual_seed(value)
    random.seed(value)
    return value


def generator(n: int) -> torch.Generator:
    """A fresh torch generator seeded with ``shifted(n)``."""
    return torch.Generator().manual_seed(shifted(n))
