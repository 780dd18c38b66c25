"""Checks shared by every model family's conversion from another library's state dict (Hugging
Face's): a state dict that does not fit the model is refused, naming what does not fit.

Each family declares one :class:`HFNames`: its table of names, ours against theirs (with the slices of
a fused tensor and the transposes a table needs), the tensors Hugging Face repeats (a tied head, each
side's token embedding) and the buffers it may save. :meth:`HFNames.load` and :meth:`HFNames.save` are
the one conversion every family shares: a checkpoint of another depth, shape, tying or model fails with
the names at fault instead of loading part of itself silently. Every such refusal, here and in the
families, is a :class:`CheckpointMismatch`.

:func:`read_checkpoint` reads a Hugging Face checkpoint directory (what ``save_pretrained`` writes):
its ``config.json`` and its weights. :class:`HFModel` is the base of every family's model class: it
writes ``from_hf``, ``from_pretrained`` and ``to_hf`` once, from the converters a family names in
:meth:`HFModel.hf_converters`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, NamedTuple, Self, TypeVar

import torch
from torch import nn

__all__ = [
    "CheckpointMismatch",
    "HFConverters",
    "HFModel",
    "HFNames",
    "Rename",
    "check_names",
    "check_shapes",
    "check_tied",
    "read_checkpoint",
]

ConfigT = TypeVar("ConfigT")


class CheckpointMismatch(ValueError):
    """A checkpoint (a state dict, a ``config.json``) that does not fit the model it is loaded into:
    another depth, width, head count, vocabulary, tying or model. The message names the keys or fields."""


def check_names(
    available: Iterable[str],
    needed: Collection[str],
    *,
    ignorable: Callable[[str], bool] = lambda name: False,
    what: str = "the model",
) -> None:
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


def check_shapes(
    tensors: Mapping[str, torch.Tensor], expected: Mapping[str, torch.Size], *, what: str = "the model"
) -> None:
    """Raise :class:`CheckpointMismatch` if a tensor's shape differs from the ``expected`` one of the same name (a
    checkpoint of another width, vocabulary or context), listing the names with both shapes."""
    wrong = [
        f"{name} {tuple(tensors[name].shape)} (expected {tuple(shape)})"
        for name, shape in expected.items()
        if name in tensors and tensors[name].shape != shape
    ]
    if wrong:
        raise CheckpointMismatch(
            f"the state dict does not fit {what}: {len(wrong)} tensors have other shapes: {_some(wrong)}"
        )


def check_tied(tensors: Mapping[str, torch.Tensor], copies: Iterable[str], shared: str, *, why: str) -> None:
    """Raise :class:`CheckpointMismatch` if one of ``copies`` that ``tensors`` holds differs from
    ``tensors[shared]``: a model that ties them would load the shared one alone and drop the copy without a
    word. ``why`` says what ties them."""
    for name in copies:
        if name in tensors and not torch.equal(tensors[name], tensors[shared]):
            raise CheckpointMismatch(f"{name} differs from {shared}: {why}")


class Rename(NamedTuple):
    """One of our tensors and its Hugging Face twin: ``theirs``, or its ``part`` (``(i, n)``: the i-th of n
    equal slices of its last dimension, as GPT-2's ``c_attn`` holds q | k | v), ``transpose``-d where
    theirs is stored (in, out) (GPT-2's ``Conv1D``) and ours (out, in)."""

    ours: str
    theirs: str
    part: tuple[int, int] | None = None
    transpose: bool = False


@dataclass(frozen=True)
class HFNames:
    """One family's map to a Hugging Face state dict.

    ``renames``: each of our tensors and its twin (:class:`Rename`, or a pair of names). ``copies``:
    their names that repeat another of their tensors (a tied head, each side's ``embed_tokens``) -> that
    tensor and what ties them; a file may hold a copy or not, but not one that differs. ``tied``: our
    names that are another of our tensors (a tied head). ``ignorable``: their names that carry no
    weights (the buffers some versions save)."""

    renames: Sequence[Rename | tuple[str, str]]
    copies: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    tied: Mapping[str, str] = field(default_factory=dict)
    ignorable: Callable[[str], bool] = lambda name: False

    def _table(self) -> list[Rename]:
        return [r if isinstance(r, Rename) else Rename(*r) for r in self.renames]

    def load(
        self,
        hf: Mapping[str, torch.Tensor],
        expected: Mapping[str, torch.Size],
        *,
        what: str,
        shapes_what: str | None = None,
    ) -> dict[str, torch.Tensor]:
        """Our state dict from ``hf``, refusing, by name, a tensor missing or left over, a copy that
        differs from what it copies, and a shape other than ``expected`` (by our names; reported by
        theirs, a transposed tensor as ours); ``what``
        (and ``shapes_what`` for the shapes, if given) names the model in the messages."""
        table = self._table()
        check_names(
            hf.keys(),
            {r.theirs for r in table},
            ignorable=lambda name: name in self.copies or self.ignorable(name),
            what=what,
        )
        for copy, (source, why) in self.copies.items():
            check_tied(hf, (copy,), source, why=why)
        ours = {}
        for r in table:
            tensor = hf[r.theirs]
            if r.part is not None:
                tensor = tensor.chunk(r.part[1], dim=-1)[r.part[0]]
            ours[r.ours] = (tensor.t() if r.transpose and tensor.ndim == 2 else tensor).contiguous()

        def theirs(r: Rename) -> str:  # a shape is reported under the checkpoint's name
            return r.theirs if r.part is None else f"{r.theirs} (slice {r.part[0] + 1} of {r.part[1]})"

        shapes = {theirs(r): expected[r.ours] for r in table if r.ours in expected}
        check_shapes({theirs(r): ours[r.ours] for r in table}, shapes, what=shapes_what or what)
        for name, source in self.tied.items():
            ours[name] = ours[source]
        return ours

    def save(self, state: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """Hugging Face's state dict from ours (``state``), every copy included (so that it loads with
        ``strict=True``); slices are joined in their order."""
        hf: dict[str, torch.Tensor] = {}
        parts: dict[str, dict[int, torch.Tensor]] = {}
        for r in self._table():
            tensor = state[r.ours].t() if r.transpose and state[r.ours].ndim == 2 else state[r.ours]
            if r.part is None:
                hf[r.theirs] = tensor.contiguous()
            else:
                parts.setdefault(r.theirs, {})[r.part[0]] = tensor
        for name, slices in parts.items():
            hf[name] = torch.cat([slices[i] for i in sorted(slices)], dim=-1).contiguous()
        for copy, (source, _) in self.copies.items():
            hf[copy] = hf[source]
        return hf


def read_checkpoint(directory: str | Path, model_type: str) -> tuple[dict[str, Any], dict[str, torch.Tensor]]:
    """The ``config.json`` (as a dict) and the tensors of a Hugging Face checkpoint directory, which
    holds ``model.safetensors`` or ``pytorch_model.bin``. Refuses a directory with either missing
    (``FileNotFoundError``) and a config of another ``model_type`` (:class:`CheckpointMismatch`)."""
    directory = Path(directory)
    if not (directory / "config.json").is_file():
        raise FileNotFoundError(
            f"{directory} has no config.json: a checkpoint directory holds "
            "config.json and model.safetensors (or pytorch_model.bin)"
        )
    config = json.loads((directory / "config.json").read_text())
    if config.get("model_type", model_type) != model_type:
        raise CheckpointMismatch(
            f"config.json has model_type {config['model_type']!r}: this family reads {model_type!r} checkpoints"
        )
    if (directory / "model.safetensors").is_file():
        from safetensors.torch import load_file

        return config, load_file(directory / "model.safetensors")
    if (directory / "pytorch_model.bin").is_file():
        return config, torch.load(directory / "pytorch_model.bin", map_location="cpu", weights_only=True)
    raise FileNotFoundError(
        f"{directory} has no model.safetensors or pytorch_model.bin: "
        "a checkpoint directory holds config.json and its weights"
    )


class HFConverters(NamedTuple):
    """A family's converters to and from Hugging Face, and the ``model_type`` its ``config.json`` names."""

    model_type: str
    load: Callable[[Mapping[str, torch.Tensor], Any], dict[str, torch.Tensor]]  # (theirs, our model) -> ours
    save: Callable[[Any], dict[str, torch.Tensor]]  # our model -> theirs
    config: Callable[[Mapping[str, Any]], Any]  # their config.json's fields -> our config


class HFModel(nn.Module, Generic[ConfigT]):
    """The base of a family's model class (``ConfigT``: its config dataclass): the Hugging Face side written
    once, from the converters the family names in :meth:`hf_converters`. Every load refuses, with
    :class:`CheckpointMismatch`, a state dict or config that does not fit."""

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """The family's converters (each family's class names its own)."""
        raise NotImplementedError(f"{cls.__name__} names no Hugging Face converters")

    @classmethod
    def from_hf(cls, state_dict: Mapping[str, torch.Tensor], config: ConfigT) -> Self:
        """A model of ``config`` with the weights of a Hugging Face state dict, refusing one that does not fit."""
        model = cls.shaped_for(config, state_dict)
        model.load_state_dict(cls.hf_converters().load(state_dict, model))
        return model

    @classmethod
    def shaped_for(cls, config: ConfigT, state_dict: Mapping[str, torch.Tensor]) -> Self:
        """An untrained model of ``config`` with the optional parts ``state_dict`` has (a family with
        such parts, BERT's pooler or NSP head, says so here)."""
        return cls(config)

    @classmethod
    def from_pretrained(cls, directory: str | Path) -> Self:
        """A model from a Hugging Face checkpoint directory (``config.json`` and its weights)."""
        converters = cls.hf_converters()
        hf_config, state = read_checkpoint(directory, converters.model_type)
        return cls.from_hf(state, converters.config(hf_config))

    def to_hf(self) -> dict[str, torch.Tensor]:
        """This model's tensors under Hugging Face's names, every copy included."""
        return self.hf_converters().save(self)


def _some(names: list[str], shown: int = 8) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
