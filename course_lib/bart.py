"""BART: an encoder-decoder model built from :mod:`course_lib.blocks`, and its five noise functions.

BART (Lewis et al. 2020) is a denoising autoencoder: a bidirectional encoder reads a corrupted
document, an autoregressive decoder writes the original. Architecture: one token embedding shared
by the encoder, the decoder and the LM head (tied); learned positions on each side; a LayerNorm
right after the embeddings (``layernorm_embedding``); post-LN encoder and decoder blocks with the
exact (erf) GELU and LayerNorm eps 1e-5, and no final norm; logits plus a bias that is a buffer,
not a parameter (``final_logits_bias``, zero unless a checkpoint sets it). Optionally the token
embeddings are scaled by ``sqrt(d_model)`` (``scale_embedding``; BART-base and -large do not).

Positions carry fairseq's offset of 2: position ``t`` reads row ``t + 2`` of a table of
``block_size + 2`` rows (rows 0 and 1 are never read: fairseq numbered positions from its padding
index 1, plus one). Hugging Face's ``BartForConditionalGeneration`` keeps the same tensors under
other names: :func:`from_hf_state_dict` and :func:`to_hf_state_dict` convert, refusing a state dict
whose names or shapes do not fit.

The noise functions (section 2.2 of the paper; fairseq's ``DenoisingDataset``) turn one document,
a 1-D LongTensor ``BOS ... EOS``, into a corrupted one; BOS and EOS are never noised, and each
function draws from the ``torch.Generator`` it is given: :func:`token_masking`,
:func:`token_deletion`, :func:`text_infilling`, :func:`sentence_permutation`,
:func:`document_rotation`. :func:`denoising_batch` pads noised documents into a training batch for
:func:`course_lib.seq2seq.teacher_forcing_loss`.

Shapes: ``B`` batch, ``S`` source tokens, ``T`` target tokens, ``V`` vocabulary, ``n`` the tokens of
one document (BOS and EOS included), ``m = n - 2`` its tokens between them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .blocks import (
    ACTIVATIONS,
    Activation,
    BlockConfig,
    Decoder,
    DecoderCaches,
    Encoder,
    LayerNorm,
    LearnedPositions,
    fuse_norms,
    init_normal,
)
from .convert import CheckpointMismatch, HFConverters, HFModel, HFNames
from .seq2seq import collate, source_mask

__all__ = [
    "Bart",
    "BartConfig",
    "BartEmbeddings",
    "Noise",
    "PRESETS",
    "PUBLISHED_PARAMETERS",
    "config_from_hf",
    "denoising_batch",
    "document_rotation",
    "from_hf_state_dict",
    "hf_config_kwargs",
    "poisson_probabilities",
    "sentence_permutation",
    "span_lengths",
    "text_infilling",
    "to_hf_state_dict",
    "token_deletion",
    "token_masking",
]

POSITION_OFFSET = 2  # fairseq's (and Hugging Face's) learned positions start at row 2
NORM_EPS = 1e-5  # every LayerNorm of BART (nn.LayerNorm's default)


@dataclass(frozen=True)
class BartConfig:
    """The shape of a :class:`Bart` (default: BART-base) and its special token ids."""

    vocab_size: int = 50265
    block_size: int = 1024  # the most positions on each side (max_position_embeddings)
    n_layers: int = 6  # encoder blocks
    n_decoder_layers: int = 6
    n_heads: int = 12
    d_model: int = 768
    d_ff: int = 3072
    # after the embeddings, after each branch, and on the attention weights (HF: attention_dropout)
    dropout: float = 0.1
    activation_dropout: float = 0.0  # inside the feed-forward (Hugging Face's activation_dropout)
    activation: Activation = "gelu"  # exact GELU
    scale_embedding: bool = False  # multiply token embeddings by sqrt(d_model)
    bos_id: int = 0  # <s>
    pad_id: int = 1  # <pad>
    eos_id: int = 2  # </s>
    mask_id: int = 50264  # <mask> in BART's vocabulary
    decoder_start_id: int = 2  # the decoder's first input: </s>, as fairseq moves EOS to the front

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layers", "n_decoder_layers", "n_heads", "d_model", "d_ff"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        for name in ("dropout", "activation_dropout"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be in [0, 1), got {getattr(self, name)}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {tuple(ACTIVATIONS)}, got {self.activation!r}")
        for name in ("bos_id", "pad_id", "eos_id", "mask_id", "decoder_start_id"):
            if not 0 <= getattr(self, name) < self.vocab_size:
                raise ValueError(f"{name}={getattr(self, name)} is not a token id of a vocabulary of {self.vocab_size}")


PRESETS: dict[str, BartConfig] = {
    "bart-base": BartConfig(),
    "bart-large": BartConfig(n_layers=12, n_decoder_layers=12, n_heads=16, d_model=1024, d_ff=4096),
}
PUBLISHED_PARAMETERS = {
    "bart-base": 140e6,
    "bart-large": 400e6,
}  # as fairseq's BART README rounds them (the paper: "roughly 10% more parameters than the equivalently sized BERT")


class BartEmbeddings(nn.Module):
    """One side's embedding: token embeddings ``(B, T, d_model)`` plus learned positions (read with
    the offset of 2), then ``layernorm_embedding`` and dropout: ``(B, T, d_model) -> (B, T, d_model)``.
    The token embedding itself is the model's, shared by both sides."""

    def __init__(self, config: BartConfig) -> None:
        super().__init__()
        self.position = LearnedPositions(config.block_size + POSITION_OFFSET, config.d_model)
        self.norm = LayerNorm(config.d_model, NORM_EPS)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, tokens: Tensor, past: int = 0) -> Tensor:
        """``tokens (B, T, d_model)`` at positions ``past .. past + T - 1``."""
        return self.drop(self.norm(self.position(tokens, offset=POSITION_OFFSET + past)))


class Bart(HFModel[BartConfig]):
    """BART: ``forward(input_ids (B, S), decoder_input_ids (B, T), attention_mask) -> logits (B, T, V)``.

    Provides :class:`course_lib.seq2seq.EncoderDecoderLM` (``encode``, ``decode``, ``new_caches``,
    ``decoder_start_id``, ``eos_id``, ``pad_id``, ``vocab_size``), so :mod:`course_lib.seq2seq`'s
    training helpers and :mod:`course_lib.generation`'s decoding work on it.
    """

    final_logits_bias: Tensor

    def __init__(self, config: BartConfig) -> None:
        super().__init__()
        self.config = config
        self.decoder_start_id, self.eos_id, self.pad_id, self.vocab_size = (
            config.decoder_start_id,
            config.eos_id,
            config.pad_id,
            config.vocab_size,
        )
        self.embed_scale = math.sqrt(config.d_model) if config.scale_embedding else 1.0
        # tokens, both sides, and the LM head
        self.shared = nn.Embedding(config.vocab_size, config.d_model, padding_idx=config.pad_id)
        self.encoder_embeddings = BartEmbeddings(config)
        self.decoder_embeddings = BartEmbeddings(config)
        # post-LN blocks end in a norm already: no final norm
        block = BlockConfig(
            config.d_model, config.n_heads, config.d_ff, arrangement="post_ln", activation=config.activation,
            dropout=config.dropout, ff_dropout=config.activation_dropout, norm="layer", norm_eps=NORM_EPS,
            final_norm=False,
        )  # fmt: skip
        self.encoder = Encoder(config.n_layers, block)
        self.decoder = Decoder(config.n_decoder_layers, block)
        self.register_buffer("final_logits_bias", torch.zeros(1, config.vocab_size))  # (1, V), saved with the weights
        fuse_norms(self)
        self.apply(init_normal)  # N(0, 0.02), zero biases, as Hugging Face initialises BART
        with torch.no_grad():
            self.shared.weight[config.pad_id].zero_()  # the padding token's embedding starts at zero

    def num_parameters(self) -> int:
        """Parameters counted once each (the LM head is the token embedding; ``final_logits_bias``
        is a buffer and not counted)."""
        return sum(p.numel() for p in self.parameters())

    def new_caches(self) -> DecoderCaches:
        """Empty decoder caches for :meth:`decode`, one pair per decoder block."""
        return self.decoder.new_caches()

    def forward(self, input_ids: Tensor, decoder_input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """Logits ``(B, T, V)`` for every decoder position, teacher-forced.

        ``input_ids (B, S)``: the (noised) source; ``attention_mask (B, S)``: 1 for its real tokens,
        0 for padding; ``decoder_input_ids (B, T)``: the target shifted right, starting with
        ``decoder_start_id`` (see :func:`course_lib.seq2seq.shift_right`).
        """
        memory = self.encode(input_ids, attention_mask)  # (B, S, d_model)
        return self.decode(decoder_input_ids, memory, attention_mask)

    def encode(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """The encoder's output ``memory (B, S, d_model)`` for ``input_ids (B, S)``; its rows at padded
        positions are computed but mean nothing."""
        self._check_ids(input_ids, "input_ids")
        mask = source_mask(attention_mask, input_ids)  # (B, 1, S)
        return self.encoder(self.encoder_embeddings(self._embed(input_ids)), mask)

    def decode(
        self,
        decoder_input_ids: Tensor,
        memory: Tensor,
        attention_mask: Tensor | None = None,
        caches: DecoderCaches | None = None,
    ) -> Tensor:
        """Logits ``(B, T, V)`` of ``decoder_input_ids (B, T)`` attending to ``memory (B, S, d_model)``
        (``attention_mask (B, S)``: the source's padding). With ``caches`` (from :meth:`new_caches`)
        holding ``P`` decoded positions, the ids are positions ``P .. P + T - 1``."""
        past = caches[0][0].length if caches else 0
        self._check_ids(decoder_input_ids, "decoder_input_ids", past)
        if memory.ndim != 3 or memory.shape[0] != decoder_input_ids.shape[0]:
            raise ValueError(
                f"memory must have shape (B={decoder_input_ids.shape[0]}, S, d_model), got {tuple(memory.shape)}"
            )
        # (B, 1, S); memory[..., 0] has the (B, S) the mask must have
        mask = source_mask(attention_mask, memory[..., 0])
        x = self.decoder_embeddings(self._embed(decoder_input_ids), past)  # (B, T, d_model)
        h = self.decoder(x, memory, mask, caches=caches)  # (B, T, d_model)
        return F.linear(h, self.shared.weight) + self.final_logits_bias  # (B, T, V): the head is the token embedding

    def hidden_states(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """The encoder's output ``(B, S, d_model)``: :meth:`encode`, under the name every family shares."""
        return self.encode(input_ids, attention_mask)

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``BartForConditionalGeneration``'s state dict and config."""
        return HFConverters("bart", from_hf_state_dict, to_hf_state_dict, config_from_hf)

    def _embed(self, ids: Tensor) -> Tensor:
        return self.shared(ids) * self.embed_scale  # (B, T, d_model)

    def _check_ids(self, ids: Tensor, name: str, past: int = 0) -> None:
        c = self.config
        if ids.ndim != 2 or ids.is_floating_point():
            raise ValueError(f"{name} must be token ids of shape (B, T), got {ids.dtype} {tuple(ids.shape)}")
        if ids.numel() and not 0 <= int(ids.min()) <= int(ids.max()) < c.vocab_size:
            raise ValueError(
                f"{name} must be in 0 .. {c.vocab_size - 1} (vocab_size), "
                f"got ids from {int(ids.min())} to {int(ids.max())}"
            )
        if past + ids.shape[1] > c.block_size:
            seen = f" after {past} decoded" if past else ""
            raise ValueError(
                f"{ids.shape[1]} positions of {name}{seen} do not fit in "
                f"the {c.block_size} positions of this model (block_size)"
            )


# ------------------------------------------------------------------------------ pretraining


class Noise(Protocol):
    """A noise function: one document ``(n,)`` to its corrupted form, drawing from ``generator``."""

    def __call__(self, tokens: Tensor, *, generator: torch.Generator) -> Tensor: ...


def denoising_batch(
    documents: Sequence[Tensor], noise: Noise, generator: torch.Generator, *, pad_id: int = 1
) -> tuple[tuple[Tensor, Tensor], Tensor]:
    """A training batch of BART's task from ``documents`` (1-D ``BOS ... EOS`` each):
    ``(input_ids (B, S), attention_mask (B, S)), labels (B, T)``, for
    :func:`course_lib.seq2seq.teacher_forcing_loss`.

    The sources are ``noise(document, generator=generator)`` (e.g.
    ``functools.partial(text_infilling, mask_id=...)``), padded with ``pad_id``; the labels are the
    original documents, padded with ``-100``. The decoder then reads ``</s> <s> ...``, the labels
    shifted right after ``decoder_start_id``, as fairseq feeds it.
    """
    if not documents:
        raise ValueError("no documents to make a batch of")
    return collate([(noise(doc, generator=generator).tolist(), doc.tolist()) for doc in documents], pad_id)


# ---------------------------------------------------------------------------- noise functions


def _check_document(tokens: Tensor, bos_id: int, eos_id: int) -> int:
    """``m``, the number of tokens between BOS and EOS, after checking that ``tokens`` is one."""
    if tokens.ndim != 1 or tokens.dtype != torch.long:
        raise ValueError(
            f"a document must be a 1-D LongTensor of token ids, got {tokens.dtype} of shape {tuple(tokens.shape)}"
        )
    if len(tokens) < 3:
        raise ValueError(f"a document needs BOS, at least one token and EOS: got {len(tokens)} tokens")
    if int(tokens[0]) != bos_id or int(tokens[-1]) != eos_id:
        raise ValueError(
            f"a document must start with BOS ({bos_id}) and end with "
            f"EOS ({eos_id}), got {int(tokens[0])} ... {int(tokens[-1])}"
        )
    return len(tokens) - 2


def _check_ratio(ratio: float, name: str = "ratio") -> None:
    if not 0.0 <= ratio <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {ratio}")


def _budget(ratio: float, m: int) -> int:
    """The count of tokens to noise, ``ceil(ratio * m)``, rounded before the ceiling so that 0.3 * 10
    is 3, not 4. (fairseq computes it in float32 and sometimes takes one more: 61 for 0.3 * 200.)"""
    return math.ceil(round(ratio * m, 9))


def _choose_inner(m: int, k: int, generator: torch.Generator) -> Tensor:
    """``k`` distinct positions among ``1 .. m`` (between BOS and EOS), uniformly, ``(k,)``."""
    return torch.randperm(m, generator=generator)[:k] + 1


def token_masking(
    tokens: Tensor, ratio: float = 0.3, *, mask_id: int, generator: torch.Generator, bos_id: int = 0, eos_id: int = 2
) -> Tensor:
    """Token masking (BERT's): ``ceil(ratio * m)`` tokens, chosen uniformly without replacement
    among the ``m`` between BOS and EOS, become ``mask_id``. ``(n,) -> (n,)``.

    (fairseq can also replace a fraction of them by random tokens, ``--mask-random``; BART did not.)
    """
    m = _check_document(tokens, bos_id, eos_id)
    _check_ratio(ratio)
    noised = tokens.clone()
    noised[_choose_inner(m, _budget(ratio, m), generator)] = mask_id
    return noised


def token_deletion(
    tokens: Tensor, ratio: float = 0.3, *, generator: torch.Generator, bos_id: int = 0, eos_id: int = 2
) -> Tensor:
    """Token deletion: ``ceil(ratio * m)`` tokens, chosen as :func:`token_masking` chooses them, are
    removed; the model must find where. ``(n,) -> (n - ceil(ratio * m),)``."""
    m = _check_document(tokens, bos_id, eos_id)
    _check_ratio(ratio)
    keep = torch.ones(len(tokens), dtype=torch.bool)
    keep[_choose_inner(m, _budget(ratio, m), generator)] = False
    return tokens[keep]


def poisson_probabilities(poisson_lambda: float, tail: float = 1e-7) -> Tensor:
    """``P(k)`` of Poisson(``poisson_lambda``) for ``k = 0 .. K``, ``(K + 1,)``, cut after the first
    ``k`` beyond the mean whose probability is below ``tail`` (fairseq's table of span lengths).

    fairseq stops at the first small term even before the mean, which for lambda above about 16
    leaves only ``k = 0``; here the cut is after the mean, so every lambda gets its distribution."""
    if not poisson_lambda > 0:
        raise ValueError(f"the Poisson lambda must be > 0, got {poisson_lambda}")
    k = 0
    while k <= poisson_lambda or math.exp(-poisson_lambda + k * math.log(poisson_lambda) - math.lgamma(k + 1)) >= tail:
        k += 1
    ks = torch.arange(k + 1, dtype=torch.float64)
    return torch.exp(-poisson_lambda + ks * math.log(poisson_lambda) - torch.lgamma(ks + 1))


def span_lengths(budget: int, poisson_lambda: float, generator: torch.Generator) -> Tensor:
    """The span lengths of text infilling, ``(N,)``, summing to ``budget``: lengths drawn from
    Poisson(``poisson_lambda``) until they cover the budget, the last cut to fit (it stays >= 1).
    Spans of length 0 are kept: each inserts a mask token."""
    probs = poisson_probabilities(poisson_lambda)
    lengths = torch.multinomial(probs, budget, replacement=True, generator=generator)  # (budget,): a first draw
    while int(lengths.sum()) < budget:
        lengths = torch.cat([lengths, torch.multinomial(probs, budget, replacement=True, generator=generator)])
    covered = lengths.cumsum(0)
    last = int(torch.searchsorted(covered, budget))  # the first span that reaches the budget
    lengths = lengths[: last + 1].clone()
    lengths[last] = budget - (int(covered[last - 1]) if last else 0)
    return lengths


def text_infilling(
    tokens: Tensor,
    ratio: float = 0.3,
    *,
    mask_id: int,
    generator: torch.Generator,
    poisson_lambda: float = 3.0,
    bos_id: int = 0,
    eos_id: int = 2,
) -> Tensor:
    """Text infilling: spans of Poisson(``poisson_lambda``) lengths, covering ``ceil(ratio * m)``
    tokens in all (:func:`span_lengths`), are each replaced by a single ``mask_id``; the model must
    also find how many tokens a mask stands for. ``(n,) -> (n',)``.

    As fairseq does it: each span of length ``L >= 1`` starts at a distinct position, chosen
    uniformly among the ``m`` between BOS and EOS; its first token becomes the mask and the next
    ``L - 1`` are deleted, stopping before EOS. Spans may overlap (a mask inside another span is
    deleted with it), so slightly fewer than the budget may be hidden. Each span of length 0 inserts
    a mask at a uniform position between BOS and EOS, after the spans are done.
    """
    m = _check_document(tokens, bos_id, eos_id)
    _check_ratio(ratio)
    if not poisson_lambda > 0:
        raise ValueError(f"the Poisson lambda must be > 0, got {poisson_lambda}")
    budget = _budget(ratio, m)
    if budget == 0:
        return tokens.clone()
    lengths = span_lengths(budget, poisson_lambda, generator)  # (N,)
    n_inserts = int((lengths == 0).sum())
    lengths = lengths[lengths > 0]  # (N_spans,)
    starts = _choose_inner(m, len(lengths), generator)  # (N_spans,)
    noised = tokens.clone()
    noised[starts] = mask_id
    # positions start+1 .. start+L-1 of each span go, never EOS (index n - 1): mark each span's
    # deleted run by +1 where it begins and -1 after it ends; a position is deleted where the sum is > 0
    ends = (starts + lengths).clamp(max=len(tokens) - 1)  # (N_spans,), exclusive
    edges = torch.zeros(len(tokens) + 1, dtype=torch.long)
    edges.index_add_(0, starts + 1, torch.ones_like(starts))
    edges.index_add_(0, ends, -torch.ones_like(ends))
    noised = noised[edges.cumsum(0)[:-1] == 0]
    return _insert_masks(noised, n_inserts, mask_id, generator)


def _insert_masks(tokens: Tensor, k: int, mask_id: int, generator: torch.Generator) -> Tensor:
    """``k`` mask tokens inserted at uniform distinct positions of the result, never first or last:
    ``(n,) -> (n + k,)`` (fairseq's insertion noise)."""
    if k == 0:
        return tokens
    n = len(tokens) + k
    is_mask = torch.zeros(n, dtype=torch.bool)
    is_mask[torch.randperm(n - 2, generator=generator)[:k] + 1] = True
    result = torch.full((n,), mask_id, dtype=tokens.dtype)
    result[~is_mask] = tokens
    return result


def sentence_permutation(
    tokens: Tensor,
    ratio: float = 1.0,
    *,
    sentence_end_id: int,
    generator: torch.Generator,
    bos_id: int = 0,
    eos_id: int = 2,
) -> Tensor:
    """Sentence permutation: the document is split into sentences after each ``sentence_end_id``
    (a full stop, or fairseq's EOS between sentences), and ``ceil(ratio * sentences)`` of them,
    chosen uniformly, are shuffled among their places (BART: ``ratio=1``, all). ``(n,) -> (n,)``.

    As fairseq splits: the last token before EOS always ends a sentence, and in a run of several
    ``sentence_end_id`` only the first ends its sentence (the others start the next one); a run at
    the very end (after the last sentence's end) stays in place.
    """
    _check_document(tokens, bos_id, eos_id)
    _check_ratio(ratio)
    inner = tokens[1:-1]  # (m,)
    is_end = inner == sentence_end_id
    is_end[-1] = True
    first_of_run = is_end & ~torch.cat([torch.zeros(1, dtype=torch.bool), is_end[:-1]])
    ends = (first_of_run.nonzero().squeeze(1) + 1).tolist()  # each sentence's exclusive end in inner
    starts = [0, *ends[:-1]]
    n_sentences = len(ends)
    k = _budget(ratio, n_sentences)
    chosen = torch.randperm(n_sentences, generator=generator)[:k]
    order = torch.arange(n_sentences)
    order[chosen] = chosen[torch.randperm(k, generator=generator)]
    sentences = [inner[starts[i] : ends[i]] for i in order.tolist()]
    return torch.cat([tokens[:1], *sentences, inner[ends[-1] :], tokens[-1:]])


def document_rotation(tokens: Tensor, *, generator: torch.Generator, bos_id: int = 0, eos_id: int = 2) -> Tensor:
    """Document rotation: the tokens between BOS and EOS are rotated to begin at a random one; the
    model must find the document's start. ``(n,) -> (n,)``.

    As fairseq draws it: the start is token ``o`` of the document for ``o`` uniform in ``1 .. n - 1``
    (BOS is token 0), and ``o = n - 1`` (EOS) leaves the document as it is, so the unrotated
    document comes twice as often as each rotation, with probability ``2 / (m + 1)``.
    """
    _check_document(tokens, bos_id, eos_id)
    offset = int(torch.randint(1, len(tokens), (1,), generator=generator))
    return torch.cat([tokens[:1], tokens[offset:-1], tokens[1:offset], tokens[-1:]])


# ------------------------------------------------------------------------- Hugging Face names


def _hf_names(n_layers: int, n_decoder_layers: int) -> list[tuple[str, str]]:
    """(our name, Hugging Face's ``BartForConditionalGeneration`` name) for every tensor."""
    names = [("shared.weight", "model.shared.weight"), ("final_logits_bias", "final_logits_bias")]
    for side in ("encoder", "decoder"):
        names.append((f"{side}_embeddings.position.embedding.weight", f"model.{side}.embed_positions.weight"))
        names += [(f"{side}_embeddings.norm.{p}", f"model.{side}.layernorm_embedding.{p}") for p in ("weight", "bias")]
    attention = [
        (f"{proj}.{p}", f"{proj}.{p}")
        for proj in ("q_proj", "k_proj", "v_proj", "out_proj")
        for p in ("weight", "bias")
    ]
    for side, depth in (("encoder", n_layers), ("decoder", n_decoder_layers)):
        # the sub-layers' norms: post-LN puts one after each sub-layer
        sublayers = [("self_attn", "self_attn", "norm1", "self_attn_layer_norm")]
        sublayers += [("cross_attn", "encoder_attn", "norm2", "encoder_attn_layer_norm")] if side == "decoder" else []
        last_norm = "norm3" if side == "decoder" else "norm2"
        for i in range(depth):
            ours, theirs = f"{side}.layers.{i}.", f"model.{side}.layers.{i}."
            for attn, hf_attn, norm, hf_norm in sublayers:
                names += [(f"{ours}{attn}.{a}", f"{theirs}{hf_attn}.{b}") for a, b in attention]
                names += [(f"{ours}{norm}.{p}", f"{theirs}{hf_norm}.{p}") for p in ("weight", "bias")]
            for p in ("weight", "bias"):
                names += [
                    (f"{ours}ff.linear1.{p}", f"{theirs}fc1.{p}"),
                    (f"{ours}ff.linear2.{p}", f"{theirs}fc2.{p}"),
                    (f"{ours}{last_norm}.{p}", f"{theirs}final_layer_norm.{p}"),
                ]
    return names


TIED_COPIES = (
    "model.encoder.embed_tokens.weight",
    "model.decoder.embed_tokens.weight",
    "lm_head.weight",
)  # all the shared embedding


def _conversion(c: BartConfig) -> HFNames:
    why = "BART ties its token embeddings and LM head"
    return HFNames(
        _hf_names(c.n_layers, c.n_decoder_layers),
        copies={name: ("model.shared.weight", why) for name in TIED_COPIES},
        ignorable=lambda name: name.endswith(".version"),
    )


def from_hf_state_dict(hf: Mapping[str, Tensor], model: Bart) -> dict[str, Tensor]:
    """``model``'s state dict from a Hugging Face ``BartForConditionalGeneration`` state dict.

    The tied copies of the shared embedding (each side's ``embed_tokens`` and ``lm_head``) may be
    present or not, but must equal it; a missing ``final_logits_bias`` is zero (as Hugging Face loads
    it). Refuses, with the names: a missing or left-over tensor (another depth, another model) and
    a tensor of another shape (another width, vocabulary or number of positions)."""
    c = model.config
    hf = dict(hf)
    if "final_logits_bias" not in hf and "model.shared.weight" in hf:
        hf["final_logits_bias"] = torch.zeros(1, hf["model.shared.weight"].shape[0])
    what = f"a Bart with {c.n_layers} encoder and {c.n_decoder_layers} decoder layers"
    return _conversion(c).load(
        hf, {name: t.shape for name, t in model.state_dict().items()}, what=what,
        shapes_what=(
            f"{what} of width {c.d_model}, feed-forward {c.d_ff}, vocabulary "
            f"{c.vocab_size} and {c.block_size} (+ {POSITION_OFFSET}) positions"
        ),
    )  # fmt: skip


def to_hf_state_dict(model: Bart) -> dict[str, Tensor]:
    """The ``BartForConditionalGeneration`` state dict of ``model``, tied copies included (so that it
    loads with ``strict=True``)."""
    return _conversion(model.config).save(model.state_dict())


def config_from_hf(hf: Mapping[str, Any]) -> BartConfig:
    """A :class:`BartConfig` from a Hugging Face BART ``config.json`` (as a dict); refuses what this
    BART does not compute (encoder and decoder of different widths or heads, another activation).

    Hugging Face's ``attention_dropout`` has no place here: the blocks drop attention weights at
    ``dropout`` (BART-base and -large were trained with both at 0.1). Only training sees it."""
    activations: dict[str, Activation] = {
        "gelu": "gelu",
        "relu": "relu",
        "gelu_new": "gelu_tanh",
        "gelu_pytorch_tanh": "gelu_tanh",
    }
    activation = activations.get(str(hf.get("activation_function", "gelu")))
    if activation is None:
        raise CheckpointMismatch(
            f"activation_function {hf.get('activation_function')!r} is not one of gelu, relu, gelu_new"
        )
    for field in ("normalize_before", "add_final_layer_norm"):
        if hf.get(field):
            raise CheckpointMismatch(
                f"config.json sets {field}: this BART is post-LN without a final norm (mBART's layout is not supported)"
            )
    if not hf.get("tie_word_embeddings", True):
        raise CheckpointMismatch(
            "config.json sets tie_word_embeddings=false: BART ties its token embeddings and LM head"
        )
    try:
        for a, b in (("encoder_attention_heads", "decoder_attention_heads"), ("encoder_ffn_dim", "decoder_ffn_dim")):
            if hf[a] != hf[b]:
                raise CheckpointMismatch(f"{a}={hf[a]} and {b}={hf[b]} differ: this BART has one value for both")
        return BartConfig(
            vocab_size=int(hf["vocab_size"]), block_size=int(hf["max_position_embeddings"]),
            n_layers=int(hf["encoder_layers"]), n_decoder_layers=int(hf["decoder_layers"]),
            n_heads=int(hf["encoder_attention_heads"]), d_model=int(hf["d_model"]), d_ff=int(hf["encoder_ffn_dim"]),
            dropout=float(hf.get("dropout", 0.1)), activation_dropout=float(hf.get("activation_dropout", 0.0)),
            activation=activation, scale_embedding=bool(hf.get("scale_embedding", False)),
            bos_id=int(hf.get("bos_token_id", 0)), pad_id=int(hf.get("pad_token_id", 1)),
            eos_id=int(hf.get("eos_token_id", 2)),
            mask_id=int(hf["vocab_size"]) - 1,  # config.json has no mask id: BART's <mask> is its last token
            decoder_start_id=int(hf.get("decoder_start_token_id", 2)),
        )  # fmt: skip
    except KeyError as missing:
        raise CheckpointMismatch(f"config.json lacks {missing}: is it a BART configuration?") from None


def hf_config_kwargs(config: BartConfig) -> dict[str, Any]:
    """The arguments of ``transformers.BartConfig`` for the same model."""
    return dict(
        vocab_size=config.vocab_size, max_position_embeddings=config.block_size, encoder_layers=config.n_layers,
        decoder_layers=config.n_decoder_layers, encoder_attention_heads=config.n_heads,
        decoder_attention_heads=config.n_heads, d_model=config.d_model, encoder_ffn_dim=config.d_ff,
        decoder_ffn_dim=config.d_ff, dropout=config.dropout, attention_dropout=config.dropout,
        activation_dropout=config.activation_dropout,
        activation_function={"gelu_tanh": "gelu_new"}.get(config.activation, config.activation),
        scale_embedding=config.scale_embedding, bos_token_id=config.bos_id, pad_token_id=config.pad_id,
        eos_token_id=config.eos_id, decoder_start_token_id=config.decoder_start_id, forced_eos_token_id=config.eos_id,
        tie_word_embeddings=True,
    )  # fmt: skip
