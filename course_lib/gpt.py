"""GPT: a decoder-only language model built from :mod:`course_lib.blocks`.

The GPT-2 arrangement (Radford et al. 2019): token and learned position embeddings, ``n_layers``
pre-LN decoder blocks without cross-attention, a final LayerNorm, and an LM head that shares its
weight with the token embedding. GPT-1 (Radford et al. 2018) is the same stack with post-LN blocks
and no final norm. Shapes: ``B`` batch, ``T`` tokens, ``V`` vocabulary size, ``d_model`` width,
``L = n_layers`` blocks, ``h = n_heads`` heads.

Hugging Face's ``GPT2LMHeadModel`` stores the same parameters under other names, with the query,
key and value projections fused into one ``c_attn`` and every linear map as a ``Conv1D`` (weight
``(in, out)``, the transpose of ``nn.Linear``'s): :func:`from_hf_state_dict` and
:func:`to_hf_state_dict` convert, so published GPT-2 checkpoints load (``GPT.from_hf``). One
difference shows in training only: with ``dropout > 0`` the feed-forward also drops inside, after its
activation (as ``nn.TransformerEncoderLayer`` does), where GPT-2 drops at the branch's output only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import KVCache, decoder_padding
from .blocks import (
    Activation,
    Arrangement,
    BlockConfig,
    DecoderBlock,
    LayerNorm,
    LearnedPositions,
    fuse_norms,
    init_normal,
)
from .convert import CheckpointMismatch, HFConverters, HFModel, HFNames, Rename

__all__ = [
    "GPT",
    "GPTClassifier",
    "GPTConfig",
    "PRESETS",
    "PUBLISHED_PARAMETERS",
    "check_gpt2_compatible",
    "config_from_hf",
    "from_hf_state_dict",
    "hf_config_kwargs",
    "lm_loss",
    "pair_input",
    "to_hf_state_dict",
]


@dataclass(frozen=True)
class GPTConfig:
    """The shape of a :class:`GPT` (default: GPT-2 small) and its arrangement of each block."""

    vocab_size: int = 50257
    block_size: int = 1024  # the context: the most positions the model can see
    n_layers: int = 12
    n_heads: int = 12
    d_model: int = 768
    d_ff: int = 0  # 0 means 4 * d_model
    dropout: float = 0.0
    arrangement: Arrangement = "pre_ln"
    activation: Activation = "gelu_tanh"

    @property
    def ff_width(self) -> int:
        """The feed-forward's hidden width: ``d_ff``, or ``4 * d_model`` where ``d_ff`` is 0."""
        return self.d_ff or 4 * self.d_model

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layers", "n_heads", "d_model"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        if self.d_ff < 0 or not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"d_ff must be >= 0 and dropout in [0, 1), got {self.d_ff} and {self.dropout}")


# The published models. GPT-1's vocabulary is its 40,478 BPE tokens (Radford et al. 2018).
PRESETS: dict[str, GPTConfig] = {
    "gpt1": GPTConfig(vocab_size=40478, block_size=512, arrangement="post_ln"),
    "gpt2": GPTConfig(),
    "gpt2-medium": GPTConfig(n_layers=24, n_heads=16, d_model=1024),
    "gpt2-large": GPTConfig(n_layers=36, n_heads=20, d_model=1280),
    "gpt2-xl": GPTConfig(n_layers=48, n_heads=25, d_model=1600),
}
# The sizes the papers state. GPT-2's were counted differently from the released checkpoints
# (whose true counts, with tied embeddings, are 124M, 355M, 774M and 1558M): see chapter 3.
PUBLISHED_PARAMETERS = {"gpt1": 117e6, "gpt2": 117e6, "gpt2-medium": 345e6, "gpt2-large": 762e6, "gpt2-xl": 1542e6}


class GPT(HFModel[GPTConfig]):
    """``forward(input_ids (B, T)) -> logits (B, T, V)``; see the module docstring."""

    def __init__(self, config: GPTConfig) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.wpe = LearnedPositions(config.block_size, config.d_model)
        self.drop = nn.Dropout(config.dropout)
        shape = BlockConfig(
            config.d_model,
            config.n_heads,
            config.ff_width,
            arrangement=config.arrangement,
            activation=config.activation,
            dropout=config.dropout,
        )
        self.blocks: list[DecoderBlock] = nn.ModuleList(
            DecoderBlock(shape, cross_attention=False) for _ in range(config.n_layers)
        )  # type: ignore[assignment]
        self.ln_f = LayerNorm(config.d_model) if config.arrangement != "post_ln" else None
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # tied: one matrix embeds tokens and scores them
        fuse_norms(self)  # chapter 2 wrote LayerNorm out; here it runs as one kernel
        self.apply(init_normal)  # GPT-2's initialisation
        # GPT-2: each residual branch's last projection scaled by 1/sqrt(2 n_layers), so that the
        # residual stream's variance does not grow with depth (two branches per block). GPT-1
        # (post-LN, whose norms rescale the stream after every branch) did not scale.
        if config.arrangement != "post_ln":
            for block in self.blocks:
                for projection in (block.self_attn.out_proj, block.ff.linear2):
                    nn.init.normal_(projection.weight, std=0.02 / math.sqrt(2 * config.n_layers))

    def num_parameters(self) -> int:
        """Parameters counted once each (the tied LM head is the token embedding)."""
        return sum(p.numel() for p in self.parameters())

    def training_flops_per_token(self, context: int | None = None) -> float:
        """Floating-point operations to train on one token with ``context`` tokens of context (default
        ``block_size``): ``6 N`` for the weights' products (forward 2, backward 4 per weight; ``N``
        without the position table, which is looked up, not multiplied) plus ``12 L d_model T`` for the
        attention's scores and weighted sums, as Chowdhery et al. (2022, appendix B) count; the
        model FLOPs utilisation (MFU) is ``tokens/s * this / the device's peak``."""
        T = context or self.config.block_size
        n = self.num_parameters() - self.wpe.embedding.weight.numel()
        return 6 * n + 12 * self.config.n_layers * self.config.d_model * T

    def forward(
        self, input_ids: Tensor, caches: list[KVCache] | None = None, *, attention_mask: Tensor | None = None
    ) -> Tensor:
        """Logits ``(B, T, V)`` for token ids ``input_ids (B, T)``.

        With ``caches`` (one :class:`KVCache` per block, as :meth:`new_caches` makes), ``input_ids`` are
        the positions after those the caches hold, and their keys and values are added to them.
        ``attention_mask``: see :meth:`hidden_states`.
        """
        return self.lm_head(self.hidden_states(input_ids, attention_mask, caches))  # (B, T, V)

    def hidden_states(
        self, input_ids: Tensor, attention_mask: Tensor | None = None, caches: list[KVCache] | None = None
    ) -> Tensor:
        """The last block's output (after the final norm) ``(B, T, d_model)``: what the LM head
        scores, and what a classification head reads.

        ``attention_mask (B, P + T)`` marks real tokens 1 and padding 0 over the ``P`` positions the
        ``caches`` hold and the ``T`` new ones (Hugging Face's convention): no token attends to padding,
        and each real token's position counts the real tokens before it (:func:`mask_positions`), so a
        left-padded prompt is read as it would be alone (GPT-2 was trained without padding)."""
        if input_ids.ndim != 2:
            raise ValueError(f"input_ids must have shape (B, T), got {tuple(input_ids.shape)}")
        if (
            input_ids.numel()
            and not torch.compiler.is_compiling()
            and not 0 <= int(input_ids.min()) <= int(input_ids.max()) < self.config.vocab_size
        ):
            raise ValueError(
                f"token ids must be in 0 .. {self.config.vocab_size - 1} (vocab_size), "
                f"got ids from {int(input_ids.min())} to {int(input_ids.max())}"
            )
        B, T = input_ids.shape
        past = caches[0].length if caches else 0
        if past + T > self.config.block_size:
            raise ValueError(f"{past + T} positions do not fit in the context of {self.config.block_size} (block_size)")
        if caches is not None and len(caches) != len(self.blocks):
            raise ValueError(f"expected one cache per block ({len(self.blocks)}), got {len(caches)}")
        padding, positions = decoder_padding(attention_mask, B, past, T)  # (B, 1, P + T), (B, T)
        x = self.drop(self.wpe(self.wte(input_ids), offset=past, positions=positions))  # (B, T, d_model)
        for i, block in enumerate(self.blocks):
            x = block(x, self_mask=padding, cache=caches[i] if caches is not None else None)
        return self.ln_f(x) if self.ln_f is not None else x

    def new_caches(self) -> list[KVCache]:
        """One empty :class:`KVCache` per block, for :meth:`forward` while generating."""
        return [KVCache() for _ in self.blocks]

    def add_tokens(self, n: int) -> list[int]:
        """Grow the vocabulary by ``n`` tokens (GPT-1's [START], [DELIM], [EXTRACT]); return their ids.

        The old embeddings are kept; the new rows are initialised as the others were, and the LM
        head stays tied to the embedding.
        """
        old = self.wte.weight
        grown = nn.Embedding(old.shape[0] + n, old.shape[1], device=old.device, dtype=old.dtype)
        nn.init.normal_(grown.weight, std=0.02)
        with torch.no_grad():
            grown.weight[: old.shape[0]] = old
        self.wte = grown
        self.lm_head = nn.Linear(old.shape[1], grown.num_embeddings, bias=False, device=old.device, dtype=old.dtype)
        self.lm_head.weight = self.wte.weight
        self.config = replace(self.config, vocab_size=grown.num_embeddings)
        return list(range(old.shape[0], grown.num_embeddings))

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``GPT2LMHeadModel``'s state dict and config."""
        return HFConverters("gpt2", _load_into, to_hf_state_dict, config_from_hf)


class GPTClassifier(nn.Module):
    """GPT-1's fine-tuning for classification (Radford et al. 2018): the input is one sequence,
    ``[START] text [EXTRACT]`` or, for a pair, ``[START] premise [DELIM] hypothesis [EXTRACT]``
    (:func:`pair_input`), and a linear head reads the hidden state at the [EXTRACT] token.

    ``forward(input_ids (B, T)) -> (class logits (B, n_classes), LM logits (B, T, V))``: GPT-1 adds the
    LM loss on the same inputs as an auxiliary objective (weight 0.5).
    """

    def __init__(self, gpt: GPT, n_classes: int, extract_id: int) -> None:
        super().__init__()
        self.gpt, self.extract_id = gpt, extract_id
        self.head = nn.Linear(gpt.config.d_model, n_classes)

    def forward(self, input_ids: Tensor) -> tuple[Tensor, Tensor]:
        """Class logits ``(B, n_classes)`` read at each row's [EXTRACT] token, and the LM logits
        ``(B, T, V)`` of ``input_ids (B, T)``."""
        at = input_ids == self.extract_id  # (B, T)
        if not torch.all(at.sum(dim=1) == 1):
            raise ValueError("each input must hold exactly one [EXTRACT] token (padding goes after it)")
        hidden = self.gpt.hidden_states(input_ids)  # (B, T, d_model)
        extract = hidden[at]  # (B, d_model): one row per input, in order
        return self.head(extract), self.gpt.lm_head(hidden)


def pair_input(premise: list[int], hypothesis: list[int], start: int, delim: int, extract: int) -> list[int]:
    """``[START] premise [DELIM] hypothesis [EXTRACT]`` as token ids."""
    return [start, *premise, delim, *hypothesis, extract]


def lm_loss(logits: Tensor, idx: Tensor) -> Tensor:
    """Next-token cross-entropy of ``logits (B, T, V)`` computed from ``idx (B, T)``: position ``t``
    predicts ``idx[:, t + 1]``, so the last position has no target and is dropped.

    The shift happens here, on one sequence. :func:`course_lib.train.lm_loss_fn` takes the other
    convention, inputs and targets already shifted (as :func:`course_lib.data.lm_batch` makes them).
    """
    if logits.ndim != 3 or idx.shape != logits.shape[:2]:
        raise ValueError(f"logits must be (B, T, V) and idx (B, T), got {tuple(logits.shape)} and {tuple(idx.shape)}")
    if idx.shape[1] < 2:
        raise ValueError(f"a sequence of {idx.shape[1]} token(s) has no next token to predict: T must be at least 2")
    return F.cross_entropy(logits[:, :-1].flatten(0, 1), idx[:, 1:].flatten())


# ------------------------------------------------------------------------ Hugging Face weights


def _hf_names(n_layers: int) -> HFNames:
    """Our names against ``GPT2LMHeadModel``'s: its ``Conv1D`` weights are stored (in, out), and
    ``c_attn`` holds q | k | v side by side; the LM head is the token embedding."""
    renames = [Rename("wte.weight", "transformer.wte.weight"), Rename("wpe.embedding.weight", "transformer.wpe.weight")]
    for i in range(n_layers):
        ours, theirs = f"blocks.{i}.", f"transformer.h.{i}."
        for part in ("weight", "bias"):
            renames += [
                Rename(f"{ours}norm1.{part}", f"{theirs}ln_1.{part}"),
                Rename(f"{ours}norm2.{part}", f"{theirs}ln_2.{part}"),
                *(
                    Rename(f"{ours}self_attn.{x}_proj.{part}", f"{theirs}attn.c_attn.{part}", ("qkv".index(x), 3), True)
                    for x in "qkv"
                ),
                Rename(f"{ours}self_attn.out_proj.{part}", f"{theirs}attn.c_proj.{part}", transpose=True),
                Rename(f"{ours}ff.linear1.{part}", f"{theirs}mlp.c_fc.{part}", transpose=True),
                Rename(f"{ours}ff.linear2.{part}", f"{theirs}mlp.c_proj.{part}", transpose=True),
            ]
    renames += [Rename("ln_f.weight", "transformer.ln_f.weight"), Rename("ln_f.bias", "transformer.ln_f.bias")]
    return HFNames(
        renames,
        copies={"lm_head.weight": ("transformer.wte.weight", "this GPT ties its LM head to the token embedding")},
        tied={"lm_head.weight": "wte.weight"},
        # the causal-mask buffers older checkpoints save
        ignorable=lambda name: name.endswith((".attn.bias", ".attn.masked_bias")),
    )


def from_hf_state_dict(
    hf: Mapping[str, Tensor],
    n_layers: int,
    expected: Mapping[str, torch.Size] | None = None,
    shapes_what: str | None = None,
) -> dict[str, Tensor]:
    """Our state dict from a ``GPT2LMHeadModel`` (or ``GPT2Model``, names without ``transformer.``) one.

    Refuses, by name, a state dict with names missing or left over (another depth, another model),
    an LM head that is not the token embedding (GPT-2 ties them) and, given the ``expected`` shapes
    (ours, by our names), a tensor of another shape."""
    if not any(k.startswith("transformer.") for k in hf):  # a GPT2Model's names: add its prefix
        hf = {(k if k.startswith("lm_head.") else f"transformer.{k}"): v for k, v in hf.items()}
    return _hf_names(n_layers).load(hf, expected or {}, what=f"a GPT-2 with {n_layers} layers", shapes_what=shapes_what)


def _load_into(hf: Mapping[str, Tensor], model: GPT) -> dict[str, Tensor]:
    """:func:`from_hf_state_dict` for ``model``: its depth, and its shapes to check."""
    config = model.config
    check_gpt2_compatible(config)
    shapes_what = f"a GPT of width {config.d_model}, vocabulary {config.vocab_size} and context {config.block_size}"
    shapes = {name: tensor.shape for name, tensor in model.state_dict().items()}
    return from_hf_state_dict(hf, config.n_layers, shapes, shapes_what)


def check_gpt2_compatible(config: GPTConfig) -> None:
    """Refuse a configuration that a ``GPT2LMHeadModel`` would compute differently: GPT-2 is pre-LN
    with the tanh GELU."""
    if config.arrangement != "pre_ln" or config.activation != "gelu_tanh":
        raise CheckpointMismatch(
            "only GPT-2's arrangement and activation (pre_ln, gelu_tanh) match a GPT2LMHeadModel, "
            f"got arrangement={config.arrangement}, activation={config.activation}"
        )


def to_hf_state_dict(model: GPT) -> dict[str, Tensor]:
    """The ``GPT2LMHeadModel`` state dict of ``model`` (pre-LN with a final norm, as GPT-2)."""
    check_gpt2_compatible(model.config)
    return _hf_names(model.config.n_layers).save(model.state_dict())


def hf_config_kwargs(config: GPTConfig) -> dict[str, Any]:
    """The arguments of ``transformers.GPT2Config`` for the same model."""
    check_gpt2_compatible(config)
    return dict(
        vocab_size=config.vocab_size, n_positions=config.block_size, n_embd=config.d_model, n_layer=config.n_layers,
        n_head=config.n_heads, n_inner=config.ff_width, activation_function="gelu_new", resid_pdrop=config.dropout,
        embd_pdrop=config.dropout, attn_pdrop=config.dropout, layer_norm_epsilon=1e-5, tie_word_embeddings=True,
    )  # fmt: skip


def config_from_hf(hf: Mapping[str, Any]) -> GPTConfig:
    """A :class:`GPTConfig` from a Hugging Face GPT-2 ``config.json``'s fields, refusing
    (:class:`~course_lib.convert.CheckpointMismatch`, naming the field) what this GPT does not compute."""
    refused = {
        "activation_function": hf.get("activation_function", "gelu_new") not in ("gelu_new", "gelu_pytorch_tanh"),
        "layer_norm_epsilon": float(hf.get("layer_norm_epsilon", 1e-5)) != 1e-5,
        "tie_word_embeddings": not hf.get("tie_word_embeddings", True),
        "scale_attn_weights": not hf.get("scale_attn_weights", True),
        "scale_attn_by_inverse_layer_idx": bool(hf.get("scale_attn_by_inverse_layer_idx", False)),
        "reorder_and_upcast_attn": bool(hf.get("reorder_and_upcast_attn", False)),
        "add_cross_attention": bool(hf.get("add_cross_attention", False)),
    }
    for field, refuse in refused.items():
        if refuse:
            raise CheckpointMismatch(
                f"config.json's {field}={hf.get(field)!r} is not GPT-2's: this GPT does not compute it"
            )
    try:
        return GPTConfig(
            vocab_size=int(hf["vocab_size"]), block_size=int(hf["n_positions"]), n_layers=int(hf["n_layer"]),
            n_heads=int(hf["n_head"]), d_model=int(hf["n_embd"]), d_ff=int(hf.get("n_inner") or 0),
            dropout=float(hf.get("resid_pdrop", 0.1)),
        )  # fmt: skip
    except KeyError as missing:
        raise CheckpointMismatch(f"config.json lacks {missing}: is it a GPT-2 configuration?") from None
