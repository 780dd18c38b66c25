"""T5: an encoder-decoder model built from :mod:`course_lib.blocks`, and its pretraining objective.

T5 (Raffel et al. 2020) casts every task as text to text: a prefix names the task ("phonemes: ...",
"sentiment: ..."), the encoder reads the input and the decoder writes the answer. Its architecture:

* one token embedding shared by the encoder, the decoder and (tied) the output head, with no
  position embedding: positions enter as a *relative position bias*, one learned scalar per head and
  per bucket of the distance ``key - query``
  (:class:`~course_lib.blocks.RelativePositionBias`), computed once per stack and added to the
  scores of every self-attention (none in cross-attention);
* pre-LN blocks with RMSNorm (eps 1e-6) and no biases anywhere;
* attention without the ``1 / sqrt(d_head)`` factor (the initialisation of the query projection
  carries it instead), with heads of width ``d_kv`` independent of ``d_model / n_heads``;
* a ReLU feed-forward (T5 v1.0) or a gated-GELU one (v1.1);
* with tied embeddings, the decoder's output is scaled by ``d_model ** -0.5`` before the head.

Pretraining is *span corruption*: spans of the text (15% of its tokens, spans of 3 on average) are
each replaced by one sentinel token in the input, and the target lists each sentinel followed by the
span it hides (:func:`random_spans_noise_mask`, :func:`span_corruption`).

Shapes: ``B`` batch, ``S`` source tokens, ``T`` target tokens, ``V`` vocabulary, ``d_model`` width,
``h`` heads. Hugging Face's ``T5ForConditionalGeneration`` keeps the same tensors under other names:
:func:`from_hf_state_dict` and :func:`to_hf_state_dict` convert (every map is an ``nn.Linear`` on
both sides, so no transposes).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import torch
from torch import Tensor, nn

from .attention import MultiHeadAttention
from .blocks import BlockConfig, Decoder, DecoderCaches, Encoder, FeedForward, RelativePositionBias
from .convert import CheckpointMismatch, HFConverters, HFModel, HFNames
from .seq2seq import source_mask

__all__ = [
    "PRESETS",
    "T5",
    "T5Config",
    "TextToText",
    "Tokenizer",
    "config_from_hf",
    "from_hf_state_dict",
    "hf_config_kwargs",
    "noise_span_counts",
    "random_spans_noise_mask",
    "raw_length_for",
    "sentinel_id",
    "span_corruption",
    "span_corruption_lengths",
    "to_hf_state_dict",
]

FeedForwardKind = Literal["relu", "gated-gelu"]


@dataclass(frozen=True)
class T5Config:
    """The shape of a :class:`T5` (default: T5-small, v1.0)."""

    vocab_size: int = 32128
    d_model: int = 512
    d_kv: int = 64  # the width of each head: need not be d_model / n_heads
    d_ff: int = 2048
    n_layers: int = 6  # encoder blocks
    n_decoder_layers: int = 0  # 0 means n_layers
    n_heads: int = 8
    num_buckets: int = 32  # relative position buckets, per stack
    max_distance: int = 128  # distances beyond this share the last bucket
    dropout: float = 0.1
    norm_eps: float = 1e-6
    feed_forward: FeedForwardKind = "relu"  # "relu" (T5 v1.0) or "gated-gelu" (v1.1)
    tie_embeddings: bool = True  # v1.0 ties the head to the embedding; v1.1 does not
    pad_id: int = 0  # also the decoder's start token
    eos_id: int = 1

    @property
    def decoder_layers(self) -> int:
        """The decoder's depth: ``n_decoder_layers``, or ``n_layers`` where it is 0."""
        return self.n_decoder_layers or self.n_layers

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "d_kv", "d_ff", "n_layers", "n_heads", "num_buckets", "max_distance"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.n_decoder_layers < 0 or not 0.0 <= self.dropout < 1.0:
            raise ValueError(
                f"n_decoder_layers must be >= 0 and dropout in [0, 1), got {self.n_decoder_layers} and {self.dropout}"
            )
        if self.feed_forward not in ("relu", "gated-gelu"):
            raise ValueError(f"feed_forward must be 'relu' or 'gated-gelu', got {self.feed_forward!r}")
        if self.num_buckets < 4 or self.max_distance <= self.num_buckets // 4:
            raise ValueError(
                "need num_buckets >= 4 and max_distance > num_buckets "
                f"/ 4, got {self.num_buckets} and {self.max_distance}"
            )
        for name in ("pad_id", "eos_id"):
            if not 0 <= getattr(self, name) < self.vocab_size:
                raise ValueError(f"{name}={getattr(self, name)} is outside the vocabulary of {self.vocab_size}")


PRESETS: dict[str, T5Config] = {
    "t5-small": T5Config(),  # 60,506,624 parameters (the paper's "60M")
    "t5-base": T5Config(d_model=768, d_ff=3072, n_layers=12, n_heads=12),  # "220M"
    "t5-large": T5Config(d_model=1024, d_ff=4096, n_layers=24, n_heads=16),  # "770M"
    "t5-v1_1-small": T5Config(
        d_model=512, d_ff=1024, n_layers=8, n_heads=6, feed_forward="gated-gelu", tie_embeddings=False, dropout=0.0
    ),
}


class T5(HFModel[T5Config]):
    """T5 for conditional generation (:class:`~course_lib.seq2seq.EncoderDecoderLM`).

    Submodules: ``shared`` (the token embedding), ``encoder_relative_bias`` and
    ``decoder_relative_bias`` (one per stack), ``encoder`` and ``decoder`` (pre-LN, RMSNorm, no
    biases, unscaled attention with ``d_kv``-wide heads, final norm), ``lm_head`` (its weight *is*
    ``shared.weight`` when ``tie_embeddings``).
    """

    def __init__(self, config: T5Config) -> None:
        super().__init__()
        self.config = config
        c = config
        self.decoder_start_id, self.eos_id, self.pad_id, self.vocab_size = c.pad_id, c.eos_id, c.pad_id, c.vocab_size
        gated = c.feed_forward == "gated-gelu"
        block = BlockConfig(
            c.d_model, c.n_heads, c.d_ff, arrangement="pre_ln", activation="gelu_tanh" if gated else "relu",
            gated=gated, dropout=c.dropout, norm="rms", norm_eps=c.norm_eps, bias=False, d_head=c.d_kv, attn_scale=1.0,
            final_norm=True,
        )  # fmt: skip
        self.shared = nn.Embedding(c.vocab_size, c.d_model)
        self.encoder_relative_bias = RelativePositionBias(c.n_heads, c.num_buckets, c.max_distance, bidirectional=True)
        self.decoder_relative_bias = RelativePositionBias(c.n_heads, c.num_buckets, c.max_distance, bidirectional=False)
        self.encoder = Encoder(c.n_layers, block)
        self.decoder = Decoder(c.decoder_layers, block)
        self.lm_head = nn.Linear(c.d_model, c.vocab_size, bias=False)
        if c.tie_embeddings:
            self.lm_head.weight = self.shared.weight
        self.dropout = nn.Dropout(c.dropout)
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        """T5's initialisation (Mesh TensorFlow's): each matrix drawn with the standard deviation that
        keeps its outputs at unit scale. The query's ``(d_model * d_kv) ** -0.5`` stands in for the
        attention's missing ``1 / sqrt(d_kv)``."""
        c = self.config
        normal = nn.init.normal_
        if module is self:
            normal(self.shared.weight, std=1.0)
            if not c.tie_embeddings:
                normal(self.lm_head.weight, std=1.0)
        elif isinstance(module, MultiHeadAttention):
            normal(module.q_proj.weight, std=(c.d_model * c.d_kv) ** -0.5)
            normal(module.k_proj.weight, std=c.d_model**-0.5)
            normal(module.v_proj.weight, std=c.d_model**-0.5)
            normal(module.out_proj.weight, std=(c.n_heads * c.d_kv) ** -0.5)
        elif isinstance(module, FeedForward):
            for linear in (module.linear1, module.linear_v):
                if linear is not None:
                    normal(linear.weight, std=c.d_model**-0.5)
            normal(module.linear2.weight, std=c.d_ff**-0.5)
        elif isinstance(module, RelativePositionBias):
            normal(module.embedding.weight, std=c.d_model**-0.5)

    def num_parameters(self) -> int:
        """The number of distinct parameters (a tied head counts once)."""
        return sum(p.numel() for p in self.parameters())

    def encode(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """``input_ids (B, S)``, ``attention_mask (B, S)`` (1 = token) -> ``memory (B, S, d_model)``."""
        self._check_ids(input_ids, "input_ids")
        S = input_ids.shape[1]
        x = self.dropout(self.shared(input_ids))  # (B, S, d_model)
        bias = self.encoder_relative_bias(S, S)  # (1, h, S, S)
        if attention_mask is not None:  # the padding folded into the bias once, not masked again in every block
            padding = ~source_mask(attention_mask, input_ids)[:, None]  # type: ignore[index]  # (B, 1, 1, S)
            bias = bias.masked_fill(padding, torch.finfo(bias.dtype).min)  # (B, h, S, S)
        return self.dropout(self.encoder(x, None, bias))  # (B, S, d_model)

    def decode(
        self,
        decoder_input_ids: Tensor,
        memory: Tensor,
        attention_mask: Tensor | None = None,
        caches: DecoderCaches | None = None,
    ) -> Tensor:
        """``decoder_input_ids (B, T)`` attending to ``memory (B, S, d_model)`` -> logits ``(B, T, V)``.

        ``attention_mask (B, S)`` is the source's. With ``caches`` (:meth:`new_caches`) holding ``P``
        positions, the ids are positions ``P .. P + T - 1``."""
        self._check_ids(decoder_input_ids, "decoder_input_ids")
        T = decoder_input_ids.shape[1]
        past = caches[0][0].length if caches else 0
        x = self.dropout(self.shared(decoder_input_ids))  # (B, T, d_model)
        bias = self.decoder_relative_bias(T, past + T, offset=past)  # (1, h, T, P + T)
        memory_mask = source_mask(attention_mask, memory[..., 0])
        h = self.dropout(self.decoder(x, memory, memory_mask, caches=caches, score_bias=bias))  # (B, T, d_model)
        if self.config.tie_embeddings:
            h = h * self.config.d_model**-0.5  # the tied head sees the output rescaled to the embedding's scale
        return self.lm_head(h)  # (B, T, V)

    def new_caches(self) -> DecoderCaches:
        """Empty decoder caches for generation (see :meth:`course_lib.blocks.Decoder.new_caches`)."""
        return self.decoder.new_caches()

    def forward(self, input_ids: Tensor, decoder_input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """Teacher-forced logits ``(B, T, V)`` for ``decoder_input_ids (B, T)`` given ``input_ids (B, S)``."""
        return self.decode(decoder_input_ids, self.encode(input_ids, attention_mask), attention_mask)

    def hidden_states(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """The encoder's output ``(B, S, d_model)``: :meth:`encode`, under the name every family shares."""
        return self.encode(input_ids, attention_mask)

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``T5ForConditionalGeneration``'s state dict and config."""
        return HFConverters("t5", from_hf_state_dict, to_hf_state_dict, config_from_hf)

    def _check_ids(self, ids: Tensor, name: str) -> None:
        if ids.ndim != 2 or ids.dtype != torch.long:
            raise ValueError(f"{name} must be a LongTensor of shape (B, T), got {ids.dtype} {tuple(ids.shape)}")
        if ids.numel() and (ids.min() < 0 or ids.max() >= self.config.vocab_size):
            raise ValueError(
                f"{name} holds ids outside the vocabulary of "
                f"{self.config.vocab_size}: {ids.min().item()} .. {ids.max().item()}"
            )


# --------------------------------------------------------------------------------- text to text


class Tokenizer(Protocol):
    eos_id: int

    def encode(self, text: str) -> list[int]: ...


class TextToText:
    """T5's format: every task is ``"<task>: <input>"`` -> ``"<answer>"``, each side ending with EOS.

    ``tasks`` are the prefixes a model is (or will be) fine-tuned on. Asking for another one is not an
    error (T5 can be asked anything) but it is almost always a typo or a model used for what it was
    not trained on, so :meth:`source` warns, naming the known tasks. ``max_length`` cuts a long input
    (before its EOS)."""

    def __init__(self, tokenizer: Tokenizer, tasks: Sequence[str], max_length: int | None = None) -> None:
        if not tasks or any(not t or ":" in t for t in tasks):
            raise ValueError(f"tasks must be non-empty names without ':', got {list(tasks)}")
        self.tokenizer, self.tasks, self.max_length = tokenizer, tuple(tasks), max_length

    def source(self, task: str, text: str) -> list[int]:
        """The encoder's input ids for ``text`` under the prefix ``task``."""
        if task not in self.tasks:
            warnings.warn(
                f"task {task!r} is not one this model is fine-tuned on "
                f"({', '.join(self.tasks)}): its answer means little",
                stacklevel=2,
            )
        ids = self.tokenizer.encode(f"{task}: {text}")
        return ids[: self.max_length - 1 if self.max_length else None] + [self.tokenizer.eos_id]

    def target(self, answer: str) -> list[int]:
        """The decoder's labels for ``answer``."""
        return self.tokenizer.encode(answer) + [self.tokenizer.eos_id]

    def pair(self, task: str, text: str, answer: str) -> tuple[list[int], list[int]]:
        """``(source ids, target ids)``, for :func:`course_lib.seq2seq.collate`."""
        return self.source(task, text), self.target(answer)


# ------------------------------------------------------------------------- span corruption


def noise_span_counts(length: int, noise_density: float = 0.15, mean_noise_span_length: float = 3.0) -> tuple[int, int]:
    """How many tokens of a ``length``-token text T5 corrupts, and in how many spans: ``round(length *
    noise_density)`` tokens (at least 1, at most ``length - 1``) in ``round(noise / mean)`` spans (at
    least 1). Fixed by the length: only where the spans fall is random."""
    if not 0.0 < noise_density < 1.0:
        raise ValueError(f"noise_density must be in (0, 1), got {noise_density}")
    if mean_noise_span_length < 1.0:
        raise ValueError(f"mean_noise_span_length must be at least 1, got {mean_noise_span_length}")
    if length < 2:
        raise ValueError(f"a text of {length} token(s) is too short to corrupt: it needs a noise token and a kept one")
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)
    return num_noise, num_spans


def _random_segmentation(num_items: int, num_segments: int, generator: torch.Generator | None) -> Tensor:
    """``num_items`` split into ``num_segments`` positive lengths, every split equally likely: the
    segment boundaries are ``num_segments - 1`` of the ``num_items - 1`` gaps, chosen at random."""
    gaps = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1].sort().values + 1  # boundaries
    edges = torch.cat([torch.tensor([0]), gaps, torch.tensor([num_items])])
    return edges.diff()  # (num_segments,)


def random_spans_noise_mask(
    length: int,
    noise_density: float = 0.15,
    mean_noise_span_length: float = 3.0,
    generator: torch.Generator | None = None,
    random_roll: bool = False,
) -> Tensor:
    """T5's noise mask ``(length,)``, True at the corrupted tokens: the counts of
    :func:`noise_span_counts`, the noise and the kept tokens each cut into that many non-empty runs at
    random, the runs alternating kept, noise, kept, noise... (so it starts with a kept run and ends
    with a noise span). With ``random_roll`` (T5's later option), the mask is then rotated by an offset
    drawn uniformly from ``0 .. length - 1``, so that every position is hidden equally often; a span
    rotated across the end wraps to the start (and a span at each end may then count as two)."""
    num_noise, num_spans = noise_span_counts(length, noise_density, mean_noise_span_length)
    if num_spans > num_noise or num_spans > length - num_noise:
        raise ValueError(
            f"{num_spans} spans cannot alternate with the {length - num_noise} kept tokens of a {length}-token text"
        )
    noise_lengths = _random_segmentation(num_noise, num_spans, generator)
    kept_lengths = _random_segmentation(length - num_noise, num_spans, generator)
    runs = torch.stack([kept_lengths, noise_lengths], dim=1).flatten()  # kept, noise, kept, noise, ...
    is_noise = torch.tensor([False, True]).repeat(num_spans)
    mask = is_noise.repeat_interleave(runs)  # (length,)
    if random_roll:
        mask = mask.roll(int(torch.randint(length, (1,), generator=generator)))
    return mask


def sentinel_id(i: int, vocab_size: int) -> int:
    """The id of sentinel ``i`` (``<extra_id_i>``): numbered down from the top of the vocabulary."""
    return vocab_size - 1 - i


def span_corruption(
    tokens: Tensor, noise_mask: Tensor, vocab_size: int, eos_id: int = 1, num_sentinels: int = 100
) -> tuple[Tensor, Tensor]:
    """T5's span corruption of ``tokens (L,)`` under ``noise_mask (L,)``: returns ``(inputs, targets)``.

    The inputs are the kept tokens with each noise span replaced by one sentinel; the targets are each
    sentinel followed by the span it replaced (the kept runs replaced by sentinels, as T5 builds them);
    both end with ``eos_id``. Sentinel ``i`` is :func:`sentinel_id` ``(i, vocab_size)``: the
    ``num_sentinels`` top ids of the vocabulary, which the text itself must not use."""
    if tokens.ndim != 1 or tokens.shape != noise_mask.shape or noise_mask.dtype != torch.bool:
        raise ValueError(
            "need tokens (L,) and a boolean noise_mask (L,), got "
            f"{tuple(tokens.shape)} and {noise_mask.dtype} {tuple(noise_mask.shape)}"
        )
    if tokens.numel() and tokens.max() >= vocab_size - num_sentinels:
        raise ValueError(
            f"token {tokens.max().item()} is a sentinel id (the top "
            f"{num_sentinels} of {vocab_size}): the text must not use them"
        )
    inputs, n_spans = _replace_spans(tokens, noise_mask, vocab_size)
    targets, _ = _replace_spans(tokens, ~noise_mask, vocab_size)
    if n_spans > num_sentinels:
        raise ValueError(f"{n_spans} noise spans but only {num_sentinels} sentinels")
    eos = torch.tensor([eos_id])
    return torch.cat([inputs, eos]), torch.cat([targets, eos])


def _replace_spans(tokens: Tensor, mask: Tensor, vocab_size: int) -> tuple[Tensor, int]:
    """Each run of True in ``mask`` replaced by the next sentinel; returns the ids and the run count."""
    starts = mask & ~torch.cat([torch.tensor([False]), mask[:-1]])  # (L,) the first token of each run
    span_index = starts.cumsum(0) - 1  # (L,) which run a token belongs to
    replaced = torch.where(starts, vocab_size - 1 - span_index, tokens)  # sentinels down from the top
    keep = ~mask | starts  # the rest of each run disappears
    return replaced[keep], int(starts.sum())


def span_corruption_lengths(
    length: int, noise_density: float = 0.15, mean_noise_span_length: float = 3.0
) -> tuple[int, int]:
    """The lengths of the inputs and the targets :func:`span_corruption` makes of a ``length``-token
    text, EOS included: kept tokens + one sentinel per span + 1, and noise tokens + one sentinel per
    span + 1."""
    num_noise, num_spans = noise_span_counts(length, noise_density, mean_noise_span_length)
    return length - num_noise + num_spans + 1, num_noise + num_spans + 1


def raw_length_for(
    inputs_length: int, noise_density: float = 0.15, mean_noise_span_length: float = 3.0
) -> tuple[int, int]:
    """The longest raw text whose corrupted inputs fit in ``inputs_length`` tokens, and its targets'
    length (T5's ``random_spans_helper``: with inputs of 512, texts of 568 tokens, targets of 114)."""
    if inputs_length < 3:
        raise ValueError(f"inputs_length must be at least 3 (a kept token, a sentinel, EOS), got {inputs_length}")
    length = 2
    while span_corruption_lengths(length + 1, noise_density, mean_noise_span_length)[0] <= inputs_length:
        length += 1
    return length, span_corruption_lengths(length, noise_density, mean_noise_span_length)[1]


# ---------------------------------------------------------------------------- Hugging Face


def _hf_names(config: T5Config) -> list[tuple[str, str]]:
    """(ours, Hugging Face's) for every tensor of a ``T5ForConditionalGeneration``."""
    ff = (
        {"wi": "linear1", "wo": "linear2"}
        if config.feed_forward == "relu"
        else {"wi_0": "linear1", "wi_1": "linear_v", "wo": "linear2"}
    )
    attn = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "out_proj"}
    names = [("shared.weight", "shared.weight")]
    for side, n_layers in (("encoder", config.n_layers), ("decoder", config.decoder_layers)):
        names.append(
            (
                f"{side}_relative_bias.embedding.weight",
                f"{side}.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
            )
        )
        sublayers = [("SelfAttention", "self_attn")] + (
            [("EncDecAttention", "cross_attn")] if side == "decoder" else []
        )
        for i in range(n_layers):
            hf, ours = f"{side}.block.{i}.layer", f"{side}.layers.{i}"
            for j, (hf_attn, our_attn) in enumerate(sublayers):
                names += [(f"{ours}.{our_attn}.{b}.weight", f"{hf}.{j}.{hf_attn}.{a}.weight") for a, b in attn.items()]
                names.append((f"{ours}.norm{j + 1}.weight", f"{hf}.{j}.layer_norm.weight"))
            j = len(sublayers)
            names += [(f"{ours}.ff.{b}.weight", f"{hf}.{j}.DenseReluDense.{a}.weight") for a, b in ff.items()]
            names.append((f"{ours}.norm{j + 1}.weight", f"{hf}.{j}.layer_norm.weight"))
        names.append((f"{side}.norm.weight", f"{side}.final_layer_norm.weight"))
    if not config.tie_embeddings:
        names.append(("lm_head.weight", "lm_head.weight"))
    return names


def _conversion(config: T5Config) -> HFNames:
    """Our names against ``T5ForConditionalGeneration``'s: each side's ``embed_tokens`` repeats the shared
    embedding, and so does a tied head."""
    why = "T5's encoder and decoder read the shared embedding"
    copies = {name: ("shared.weight", why) for name in ("encoder.embed_tokens.weight", "decoder.embed_tokens.weight")}
    if not config.tie_embeddings:
        return HFNames(_hf_names(config), copies=copies)
    untied = ("the checkpoint's head is untied (T5 v1.1 style), but this T5 ties its head to the embedding "
              "(T5Config(tie_embeddings=True)); build it with "
              "tie_embeddings=False to load this checkpoint")  # fmt: skip
    return HFNames(
        _hf_names(config),
        copies=copies | {"lm_head.weight": ("shared.weight", untied)},
        tied={"lm_head.weight": "shared.weight"},
    )


def from_hf_state_dict(hf: Mapping[str, Tensor], model: T5) -> dict[str, Tensor]:
    """A ``T5ForConditionalGeneration`` state dict -> ``model``'s, refusing one whose names or shapes
    do not fit ``model`` (another depth, width, head count, vocabulary or feed-forward kind).

    An untied ``model`` (no rescaling, a head of its own) takes the checkpoint's ``lm_head.weight``, or,
    where the file has none (transformers 5 saves T5 v1.1's head as the embedding itself, not rescaled),
    a copy of ``shared.weight``: the same logits as Hugging Face's."""
    c = model.config
    if not c.tie_embeddings and "lm_head.weight" not in hf and "shared.weight" in hf:
        hf = {**hf, "lm_head.weight": hf["shared.weight"].clone()}
    what = f"this T5 ({c.n_layers}+{c.decoder_layers} blocks, {c.feed_forward})"
    return _conversion(c).load(
        hf, {k: v.shape for k, v in model.state_dict().items()}, what=what, shapes_what="this T5"
    )


def to_hf_state_dict(model: T5) -> dict[str, Tensor]:
    """``model``'s tensors under ``T5ForConditionalGeneration``'s names (tied copies included; an untied
    model's own ``lm_head.weight``). Saved with :func:`hf_config_kwargs`' configuration, Hugging Face
    reads an untied head back as its own: transformers 5 ties T5's head to the embedding unless the
    file holds a head that differs from it."""
    return _conversion(model.config).save(model.state_dict())


def hf_config_kwargs(config: T5Config) -> dict[str, object]:
    """The arguments of ``transformers.T5Config`` for the same model (tests and the chapter build Hugging
    Face's twin with them)."""
    return dict(
        vocab_size=config.vocab_size, d_model=config.d_model, d_kv=config.d_kv, d_ff=config.d_ff,
        num_layers=config.n_layers, num_decoder_layers=config.decoder_layers, num_heads=config.n_heads,
        relative_attention_num_buckets=config.num_buckets, relative_attention_max_distance=config.max_distance,
        dropout_rate=config.dropout, layer_norm_epsilon=config.norm_eps, feed_forward_proj=config.feed_forward,
        tie_word_embeddings=config.tie_embeddings, pad_token_id=config.pad_id, eos_token_id=config.eos_id,
        decoder_start_token_id=config.pad_id,
    )  # fmt: skip


def config_from_hf(hf: Mapping[str, Any]) -> T5Config:
    """A :class:`T5Config` from a Hugging Face T5 ``config.json``'s fields, refusing
    (:class:`~course_lib.convert.CheckpointMismatch`, naming the field) what this T5 does not compute."""
    feed_forward = hf.get("feed_forward_proj", "relu")
    if feed_forward not in ("relu", "gated-gelu"):
        raise CheckpointMismatch(
            f"config.json's feed_forward_proj={feed_forward!r}: this "
            "T5 computes 'relu' (v1.0) or 'gated-gelu' (v1.1) only"
        )
    # Ties and rescales (v1.0), or a head of its own without rescaling (v1.1). transformers 4 says which by
    # tie_word_embeddings; transformers 5 writes tie_word_embeddings=true always and says it by
    # scale_decoder_outputs (its head is then the file's own lm_head, or the embedding not rescaled).
    tied = bool(hf.get("scale_decoder_outputs", hf.get("tie_word_embeddings", True)))
    pad = int(hf.get("pad_token_id", 0))
    if hf.get("decoder_start_token_id") is not None and int(hf["decoder_start_token_id"]) != pad:
        raise CheckpointMismatch(
            f"config.json's decoder_start_token_id={hf['decoder_start_token_id']} is "
            f"not its pad_token_id={pad}: this T5 starts decoding with the padding token"
        )
    try:
        return T5Config(
            vocab_size=int(hf["vocab_size"]), d_model=int(hf["d_model"]), d_kv=int(hf["d_kv"]), d_ff=int(hf["d_ff"]),
            n_layers=int(hf["num_layers"]), n_decoder_layers=int(hf.get("num_decoder_layers") or 0),
            n_heads=int(hf["num_heads"]), num_buckets=int(hf.get("relative_attention_num_buckets", 32)),
            max_distance=int(hf.get("relative_attention_max_distance", 128)),
            dropout=float(hf.get("dropout_rate", 0.1)), norm_eps=float(hf.get("layer_norm_epsilon", 1e-6)),
            feed_forward=feed_forward, tie_embeddings=tied, pad_id=pad, eos_id=int(hf.get("eos_token_id", 1)),
        )  # fmt: skip
    except KeyError as missing:
        raise CheckpointMismatch(f"config.json lacks {missing}: is it a T5 configuration?") from None
