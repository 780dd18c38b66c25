"""What every encoder-decoder model (T5, BART) shares: the interface, teacher forcing, the loss,
and decoding (greedy, sampling and beam search) with a self-attention KV cache and a
cross-attention cache computed once per source.

Shapes: ``B`` batch, ``S`` source tokens, ``T`` target tokens, ``V`` vocabulary, ``k`` beams.
``attention_mask (B, S)`` marks the source's real tokens (1 or True) and its padding (0 or False),
as Hugging Face's does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple, Protocol

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .blocks import DecoderCaches
from .gpt import next_token  # chapter 3's sampling rule (temperature, top-k, nucleus), shared by every family

__all__ = ["Beams", "EncoderDecoderLM", "IGNORE_INDEX", "beam_search", "collate", "generate", "seq2seq_loss", "shift_right", "source_mask", "teacher_forcing_loss"]

IGNORE_INDEX = -100  # a label position that is not predicted (F.cross_entropy's ignore_index)


class EncoderDecoderLM(Protocol):
    """The interface decoding and training use; :class:`course_lib.t5.T5` and
    :class:`course_lib.bart.Bart` provide it."""

    decoder_start_id: int  # the first decoder input (T5: pad = 0; BART: </s> = 2)
    eos_id: int
    pad_id: int
    vocab_size: int

    def encode(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """``input_ids (B, S)`` -> the encoder's output ``memory (B, S, d_model)``."""
        ...

    def decode(self, decoder_input_ids: Tensor, memory: Tensor, attention_mask: Tensor | None = None, caches: DecoderCaches | None = None) -> Tensor:
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
        raise ValueError(f"attention_mask {tuple(attention_mask.shape)} must have the shape of the ids {tuple(input_ids.shape)}")
    return attention_mask.bool()[:, None, :]


# ---------------------------------------------------------------------------------- decoding


@contextmanager
def _evaluating(model: EncoderDecoderLM) -> Iterator[None]:
    """No dropout while decoding; the model's mode is restored afterwards."""
    assert isinstance(model, nn.Module)
    was_training = model.training
    model.eval()
    try:
        yield
    finally:
        model.train(was_training)


def _start(model: EncoderDecoderLM, input_ids: Tensor, attention_mask: Tensor | None, max_new_tokens: int) -> Tensor:
    """Checks the request and encodes the source once: ``memory (B, S, d_model)``."""
    if input_ids.ndim != 2 or input_ids.shape[1] == 0:
        raise ValueError(f"input_ids must have shape (B, S) with S >= 1, got {tuple(input_ids.shape)} (one sequence of ids: ids[None])")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be at least 1, got {max_new_tokens}")
    return model.encode(input_ids, attention_mask)


def _step(model: EncoderDecoderLM, tokens: Tensor, memory: Tensor, attention_mask: Tensor | None, caches: DecoderCaches | None) -> Tensor:
    """The next-token logits ``(B, V)`` after ``tokens (B, t)``: with caches, only the newest token is
    fed (the cross-attention keys and values of the source were cached on the first step)."""
    feed = tokens[:, -1:] if caches is not None else tokens
    return model.decode(feed, memory, attention_mask, caches)[:, -1]


@torch.no_grad()
def generate(
    model: EncoderDecoderLM,
    input_ids: Tensor,
    attention_mask: Tensor | None = None,
    *,
    max_new_tokens: int = 20,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: torch.Generator | None = None,
    use_cache: bool = True,
) -> Tensor:
    """Decode an answer for each source ``input_ids (B, S)``: greedy with ``temperature=0``, else
    sampled (with chapter 3's top-k and nucleus filters). Returns ``(B, n)`` tokens, ``n <=
    max_new_tokens``, without the start token; a row that has produced EOS is padded with the pad id
    after it, and decoding stops once every row has.

    With ``use_cache`` each step feeds the newest token only and reuses the keys and values of the
    earlier ones (and of the source); without, each step recomputes the whole prefix. Both give the
    same tokens."""
    with _evaluating(model):
        memory = _start(model, input_ids, attention_mask, max_new_tokens)
        caches = model.new_caches() if use_cache else None
        B = input_ids.shape[0]
        tokens = input_ids.new_full((B, 1), model.decoder_start_id)
        done = torch.zeros(B, dtype=torch.bool, device=input_ids.device)
        for _ in range(max_new_tokens):
            token = next_token(_step(model, tokens, memory, attention_mask, caches), temperature, top_k, top_p, generator)  # (B, 1)
            token = token.masked_fill(done[:, None], model.pad_id)
            tokens = torch.cat([tokens, token], dim=1)
            done |= token[:, 0] == model.eos_id
            if done.all():
                break
    return tokens[:, 1:]


class Beams(NamedTuple):
    """The result of :func:`beam_search`: per source, the best finished hypotheses in order."""

    tokens: Tensor  # (B, k, n): without the start token, EOS included, padded with the pad id
    lengths: Tensor  # (B, k): each hypothesis's number of tokens
    scores: Tensor  # (B, k): sum of log-probabilities / length ** length_penalty


@torch.no_grad()
def beam_search(
    model: EncoderDecoderLM,
    input_ids: Tensor,
    attention_mask: Tensor | None = None,
    *,
    beam_width: int = 4,
    max_new_tokens: int = 20,
    length_penalty: float = 1.0,
    early_stopping: bool = True,
    use_cache: bool = True,
) -> Beams:
    """Beam search: keep the ``beam_width`` best partial answers, scored by their sum of
    log-probabilities, extend each by every token, keep the best ``beam_width`` of the
    ``beam_width x V`` candidates.

    A candidate that ends with EOS (or reaches ``max_new_tokens``) is finished: it leaves the beam
    and joins the finished list, scored ``sum / length ** length_penalty`` (length: its tokens, EOS
    included; ``length_penalty > 0`` favours longer answers) and is never extended again. Only
    candidates that rank among the first ``beam_width`` may finish; the best ``2 * beam_width`` are
    ranked so that enough unfinished ones remain to fill the beam. With ``early_stopping``, a
    source is done once ``beam_width`` hypotheses have finished; without, once no running beam can
    beat the worst finished one at its current length. These are the rules of Hugging Face's
    ``generate(num_beams=...)`` (whose answers the tests compare with).
    """
    V = model.vocab_size
    if not 1 <= beam_width <= V:
        raise ValueError(f"beam_width must be between 1 and the vocabulary size {V}, got {beam_width}")
    with _evaluating(model):
        return _beam_search(model, input_ids, attention_mask, beam_width, max_new_tokens, length_penalty, early_stopping, use_cache)


def _beam_search(model: EncoderDecoderLM, input_ids: Tensor, attention_mask: Tensor | None, k: int, max_new_tokens: int, length_penalty: float, early_stopping: bool, use_cache: bool) -> Beams:
    memory = _start(model, input_ids, attention_mask, max_new_tokens)  # (B, S, d_model)
    B, V, device = input_ids.shape[0], model.vocab_size, input_ids.device
    memory = memory.repeat_interleave(k, dim=0)  # (B k, S, d_model): each beam reads its own copy
    mask = attention_mask.repeat_interleave(k, dim=0) if attention_mask is not None else None
    caches = model.new_caches() if use_cache else None
    neg = float("-inf")
    running = input_ids.new_full((B, k, 1), model.decoder_start_id)  # (B, k, t)
    running_scores = torch.full((B, k), neg, device=device)
    running_scores[:, 0] = 0.0  # one live beam at first: the others would only repeat it
    finished = input_ids.new_full((B, k, max_new_tokens), model.pad_id)
    finished_scores = torch.full((B, k), neg, device=device)
    finished_lengths = torch.zeros((B, k), dtype=torch.long, device=device)
    can_improve = torch.ones(B, dtype=torch.bool, device=device)
    rank_may_finish = torch.arange(2 * k, device=device) < k  # (2k,)
    for step in range(1, max_new_tokens + 1):
        logits = _step(model, running.flatten(0, 1), memory, mask, caches)  # (B k, V)
        scores = logits.float().log_softmax(-1).view(B, k, V) + running_scores[..., None]  # sums of log-probabilities
        top_scores, top = scores.flatten(1).topk(2 * k, dim=-1)  # (B, 2k) over beams x vocabulary
        parent, token = top // V, top % V  # (B, 2k)
        candidates = torch.cat([running.gather(1, parent[..., None].expand(-1, -1, step)), token[..., None]], dim=-1)  # (B, 2k, t + 1)
        ends = (token == model.eos_id) | (step == max_new_tokens)  # (B, 2k)
        # finished candidates join the finished list if they rank among the first k and may still count
        full = (finished_scores > neg).all(dim=-1) & early_stopping  # (B,)
        joins = ends & rank_may_finish & (can_improve & ~full)[:, None]
        normalised = torch.where(joins, top_scores / step**length_penalty, neg)  # (B, 2k)
        padded = F.pad(candidates[..., 1:], (0, max_new_tokens - step), value=model.pad_id)  # (B, 2k, max_new_tokens)
        merged_scores, best = torch.cat([finished_scores, normalised], dim=1).topk(k, dim=-1)  # (B, k)
        finished = torch.cat([finished, padded], dim=1).gather(1, best[..., None].expand(-1, -1, max_new_tokens))
        finished_lengths = torch.cat([finished_lengths, torch.full_like(top, step)], dim=1).gather(1, best)
        finished_scores = merged_scores
        # the best k unfinished candidates continue
        running_scores, keep = top_scores.masked_fill(ends, neg).topk(k, dim=-1)  # (B, k)
        running = candidates.gather(1, keep[..., None].expand(-1, -1, step + 1))
        if caches is not None:
            rows = (parent.gather(1, keep) + torch.arange(B, device=device)[:, None] * k).flatten()  # (B k,) the parents' rows
            for self_cache, _ in caches:
                assert self_cache.k is not None and self_cache.v is not None
                self_cache.k, self_cache.v = self_cache.k[rows], self_cache.v[rows]
        all_finished = (finished_scores > neg).all(dim=-1)  # (B,)
        best_running = running_scores[:, 0] / step**length_penalty  # the best a running beam could still score (a heuristic)
        can_improve &= ~all_finished | (best_running > finished_scores.min(dim=-1).values)
        if not (can_improve & ~(all_finished & early_stopping)).any() or ends.all():
            break
    n = int(finished_lengths.max().clamp(min=1))
    return Beams(finished[..., :n], finished_lengths, finished_scores)
