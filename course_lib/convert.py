"""Checks shared by every model family's conversion from another library's state dict (Hugging
Face's): a state dict that does not fit the model is refused, naming what does not fit.

Each family (``gpt``, and the families after it) keeps its own table of names, ours against theirs,
and converts with it; before converting, it calls :func:`check_names` with the names its table needs.
A checkpoint of another depth or another model then fails with the names at fault instead of loading
part of itself silently.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

import torch

__all__ = ["check_names", "check_shapes"]


def check_names(available: Iterable[str], needed: Collection[str], *, ignorable: Callable[[str], bool] = lambda name: False, what: str = "the model") -> None:
    """Raise ``ValueError`` if a name in ``needed`` is not ``available``, or if an available name is
    neither needed nor ``ignorable`` (buffers a library saves, tied copies): each message lists the
    names, at most eight of them, and how many there are."""
    available = set(available)
    missing = sorted(set(needed) - available)
    unused = sorted(name for name in available - set(needed) if not ignorable(name))
    problems = []
    if missing:
        problems.append(f"{len(missing)} names that {what} needs are missing: {_some(missing)}")
    if unused:
        problems.append(f"{len(unused)} names that {what} has no place for: {_some(unused)}")
    if problems:
        raise ValueError("the state dict does not fit: " + "; ".join(problems))


def check_shapes(tensors: Mapping[str, torch.Tensor], expected: Mapping[str, torch.Size], *, what: str = "the model") -> None:
    """Raise ``ValueError`` if a tensor's shape differs from the ``expected`` one of the same name (a
    checkpoint of another width, vocabulary or context), listing the names with both shapes."""
    wrong = [f"{name} {tuple(tensors[name].shape)} (expected {tuple(shape)})" for name, shape in expected.items() if name in tensors and tensors[name].shape != shape]
    if wrong:
        raise ValueError(f"the state dict does not fit {what}: {len(wrong)} tensors have other shapes: {_some(wrong)}")


def _some(names: list[str], shown: int = 8) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
