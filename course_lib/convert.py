"""Checks shared by every model family's conversion from another library's state dict (Hugging
Face's): a state dict that does not fit the model is refused, naming what does not fit.

Each family (``gpt``, and the families after it) keeps its own table of names, ours against theirs,
and converts with it; before converting, it calls :func:`check_names` with the names its table needs.
A checkpoint of another depth or another model then fails with the names at fault instead of loading
part of itself silently. Every such refusal, here and in the families, is a :class:`CheckpointMismatch`.

:func:`read_checkpoint` reads a Hugging Face checkpoint directory (what ``save_pretrained`` writes):
its ``config.json`` and its weights, for each family's ``from_pretrained``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

import torch

__all__ = ["CheckpointMismatch", "check_names", "check_shapes", "check_tied", "read_checkpoint"]


class CheckpointMismatch(ValueError):
    """A checkpoint (a state dict, a ``config.json``) that does not fit the model it is loaded into:
    another depth, width, head count, vocabulary, tying or model. The message names the keys or fields."""


def check_names(available: Iterable[str], needed: Collection[str], *, ignorable: Callable[[str], bool] = lambda name: False, what: str = "the model") -> None:
    """Raise :class:`CheckpointMismatch` if a name in ``needed`` is not ``available``, or if an available name is
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
        raise CheckpointMismatch("the state dict does not fit: " + "; ".join(problems))


def check_shapes(tensors: Mapping[str, torch.Tensor], expected: Mapping[str, torch.Size], *, what: str = "the model") -> None:
    """Raise :class:`CheckpointMismatch` if a tensor's shape differs from the ``expected`` one of the same name (a
    checkpoint of another width, vocabulary or context), listing the names with both shapes."""
    wrong = [f"{name} {tuple(tensors[name].shape)} (expected {tuple(shape)})" for name, shape in expected.items() if name in tensors and tensors[name].shape != shape]
    if wrong:
        raise CheckpointMismatch(f"the state dict does not fit {what}: {len(wrong)} tensors have other shapes: {_some(wrong)}")


def check_tied(tensors: Mapping[str, torch.Tensor], copies: Iterable[str], shared: str, *, why: str) -> None:
    """Raise :class:`CheckpointMismatch` if one of ``copies`` that ``tensors`` holds differs from ``tensors[shared]``:
    a model that ties them would load the shared one alone and drop the copy without a word. ``why`` says what ties them."""
    for name in copies:
        if name in tensors and not torch.equal(tensors[name], tensors[shared]):
            raise CheckpointMismatch(f"{name} differs from {shared}: {why}")


def read_checkpoint(directory: str | Path, model_type: str) -> tuple[dict[str, Any], dict[str, torch.Tensor]]:
    """The ``config.json`` (as a dict) and the tensors of a Hugging Face checkpoint directory, which
    holds ``model.safetensors`` or ``pytorch_model.bin``. Refuses a directory with either missing
    (``FileNotFoundError``) and a config of another ``model_type`` (:class:`CheckpointMismatch`)."""
    directory = Path(directory)
    if not (directory / "config.json").is_file():
        raise FileNotFoundError(f"{directory} has no config.json: a checkpoint directory holds config.json and model.safetensors (or pytorch_model.bin)")
    config = json.loads((directory / "config.json").read_text())
    if config.get("model_type", model_type) != model_type:
        raise CheckpointMismatch(f"config.json has model_type {config['model_type']!r}: this family reads {model_type!r} checkpoints")
    if (directory / "model.safetensors").is_file():
        from safetensors.torch import load_file

        return config, load_file(directory / "model.safetensors")
    if (directory / "pytorch_model.bin").is_file():
        return config, torch.load(directory / "pytorch_model.bin", map_location="cpu", weights_only=True)
    raise FileNotFoundError(f"{directory} has no model.safetensors or pytorch_model.bin: a checkpoint directory holds config.json and its weights")


def _some(names: list[str], shown: int = 8) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
