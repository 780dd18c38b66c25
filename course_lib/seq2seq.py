"""What every encoder-decoder model (T5, BART) shares: the interface, teacher forcing and the loss.
Decoding (greedy, sampling and beam search, with caches) is :mod:`course_lib.generation`'s, for
every family.

Shapes: ``B`` batch, ``S`` source tokens, ``T`` target tokens, ``V`` vocabulary.
``attention_mask (B, S)`` marks the source's real tokens (1 or True) and its padding (0 or False),
as Hugging Face's does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import torch
import torch.nn.functional as F
from torch import Tensor

from .blocks import DecoderCaches
from .losses import IGNORE_INDEX

__all__ = [
    "EncoderDecoderLM",
    "IGNORE_INDEX",
    "collate",
    "seq2seq_loss",
    "shift_right",
    "source_mask",
    "teacher_forcing_loss",
]


@runtime_checkable
class EncoderDecoderLM(Protocol):
    """The interface decoding (:mod:`course_lib.generation`) and training use; :class:`course_lib.t5.T5` and
    :class:`course_lib.bart.Bart` provide it."""

    decoder_start_id: int  # the first decoder input (T5: pad = 0; BART: </s> = 2)
    eos_id: int
    pad_id: int
    vocab_size: int

    def encode(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """``input_ids (B, S)`` -> the encoder's output ``memory (B, S, d_model)``."""
        ...

    def decode(
        self,
        decoder_input_ids: Tensor,
        memory: Tensor,
        attention_mask: Tensor | None = None,
        caches: DecoderCaches | None = None,
    ) -> Tensor:
        """``decoder_input_ids (B, T)`` attending to ``memory`` -> logits ``(B, T, V)``; with ``caches``
        the ids continue the positions held there."""
        ...

    def new_caches(self) -> DecoderCaches:
        """Empty decoder caches, one pair per decoder block."""
        ...


def shift_right(labels: Tensor, start_id: int, pad_id: int) -> Tensor:
    """Teacher forcing: the decoder's inputs are the labels ``(B, T)`` moved one step right, with
    ``start_id`` first; ignored label positions (``-100``) become ``pad_id``."""
    if labels.ndim != 2:
        raise ValueError(f"labels must have shape (B, T), got {tuple(labels.shape)}")
    inputs = labels.new_full(labels.shape, start_id)
    inputs[:, 1:] = labels[:, :-1]
    return inputs.masked_fill(inputs == IGNORE_INDEX, pad_id)


def seq2seq_loss(logits: Tensor, labels: Tensor) -> Tensor:
    """Mean cross-entropy of ``logits (B, T, V)`` against ``labels (B, T)`` over the positions whose
    label is not ``-100`` (padding)."""
    if logits.shape[:2] != labels.shape:
        raise ValueError(f"logits {tuple(logits.shape)} and labels {tuple(labels.shape)} do not match")
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=IGNORE_INDEX)


def teacher_forcing_loss(model: EncoderDecoderLM, inputs: tuple[Tensor, Tensor], labels: Tensor) -> Tensor:
    """The loss :func:`course_lib.train.train` minimises for an encoder-decoder model: ``inputs`` are
    ``(input_ids (B, S), attention_mask (B, S))``, the decoder reads the labels ``(B, T)`` shifted
    right (:func:`shift_right`) and is scored on predicting them (:func:`seq2seq_loss`)."""
    input_ids, attention_mask = inputs
    decoder_input_ids = shift_right(labels, model.decoder_start_id, model.pad_id)
    logits = model(input_ids, decoder_input_ids, attention_mask)  # type: ignore[operator]
    return seq2seq_loss(logits.float(), labels)


def collate(pairs: Sequence[tuple[Sequence[int], Sequence[int]]], pad_id: int) -> tuple[tuple[Tensor, Tensor], Tensor]:
    """(source ids, target ids) pairs -> ``((input_ids (B, S), attention_mask (B, S)), labels (B, T))``:
    sources padded with ``pad_id`` (mask 0 there), targets with ``-100`` (not scored)."""
    if not pairs or any(len(source) == 0 or len(target) == 0 for source, target in pairs):
        raise ValueError("need at least one pair, each with a non-empty source and target")
    S, T = max(len(s) for s, _ in pairs), max(len(t) for _, t in pairs)
    input_ids = torch.full((len(pairs), S), pad_id, dtype=torch.long)
    labels = torch.full((len(pairs), T), IGNORE_INDEX, dtype=torch.long)
    for i, (source, target) in enumerate(pairs):
        input_ids[i, : len(source)] = torch.as_tensor(source)
        labels[i, : len(target)] = torch.as_tensor(target)
    attention_mask = (torch.arange(S)[None, :] < torch.tensor([len(s) for s, _ in pairs])[:, None]).long()
    return (input_ids, attention_mask), labels


def source_mask(attention_mask: Tensor | None, input_ids: Tensor) -> Tensor | None:
    """``attention_mask (B, S)`` (1 = token) -> the boolean key mask ``(B, 1, S)`` the blocks take."""
    if attention_mask is None:
        return None
    if attention_mask.shape != input_ids.shape:
        raise ValueError(
            f"attention_mask {tuple(attention_mask.shape)} must have the shape of the ids {tuple(input_ids.shape)}"
        )
    return attention_mask.bool()[:, None, :]
