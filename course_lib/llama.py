"""Llama: the decoder-only model of today's open LLMs, built from the same blocks as GPT.

What changed from GPT-2 (Touvron et al. 2023), each a small change to chapter 3's model:

* no position table: **rotary embeddings** (:class:`~course_lib.attention.RotaryEmbedding`) turn each
  head's queries and keys by their positions, so scores depend on the distance between tokens;
* **RMSNorm** (:class:`~course_lib.blocks.RMSNorm`) in place of LayerNorm, before each branch (pre-LN)
  and at the end;
* a **SwiGLU** feed-forward (:class:`~course_lib.blocks.FeedForward` with ``gated=True`` and ``silu``):
  ``down(silu(gate(x)) * up(x))``;
* **grouped-query attention**: ``n_kv_heads`` key/value heads, each shared by ``n_heads / n_kv_heads``
  query heads, so the KV cache shrinks by that factor;
* no biases anywhere, and an LM head of its own (not tied to the embedding).

Chapter 7 climbs from GPT to Llama one change at a time, so :class:`LlamaConfig` can also take GPT's
choice for each of the first three: ``norm="layer"`` (LayerNorm, without bias), ``positions="learned"``
(a table of ``block_size`` position vectors added to the embeddings) and ``feed_forward="gelu"`` (two
matrices and GELU). Only the default choices have a ``LlamaForCausalLM`` counterpart.

:func:`stretched` reads a rotary model at a longer length than it trained on: as it is, with every
position divided (position interpolation) or with a larger base (NTK-aware scaling).

Shapes: ``B`` batch, ``T`` tokens, ``V`` vocabulary, ``d_model`` width, ``h`` query heads, ``h_kv``
key/value heads, ``d_head = d_model / h``. Hugging Face's ``LlamaForCausalLM`` keeps the same tensors
under other names (:func:`from_hf_state_dict`, :func:`to_hf_state_dict`); a checkpoint that does not fit
(another depth, width, head count, vocabulary or tying) is refused, naming the keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from torch import Tensor, nn

from .attention import KVCache, decoder_padding
from .blocks import BlockConfig, DecoderBlock, LearnedPositions, Norm, fuse_norms, make_norm
from .convert import CheckpointMismatch, HFConverters, HFModel, HFNames

__all__ = [
    "FeedForwardKind",
    "Llama",
    "LlamaConfig",
    "Positions",
    "block_config",
    "config_from_hf",
    "from_hf_state_dict",
    "hf_config_kwargs",
    "stretched",
    "to_hf_state_dict",
]

Stretch = Literal["extrapolate", "interpolate", "base"]  # how stretched() reads past the trained length
Positions = Literal["rotary", "learned"]  # rotary: Llama's; learned: GPT's table of position vectors
FeedForwardKind = Literal["swiglu", "gelu"]  # swiglu: Llama's gated feed-forward; gelu: GPT's (tanh approximation)


@dataclass(frozen=True)
class LlamaConfig:
    """The shape of a :class:`Llama` (default: a small model for a laptop)."""

    vocab_size: int = 32000
    block_size: int = 2048  # the longest context the model is used with (rotary positions have no table)
    n_layers: int = 4
    n_heads: int = 8
    n_kv_heads: int = 8  # fewer than n_heads: grouped-query attention
    d_model: int = 512
    d_ff: int = 1376  # SwiGLU's hidden width (about 8/3 d_model, as Llama's)
    rope_base: float = 10000.0
    rope_interpolation: float = 1.0  # positions divided by it (position interpolation; see stretched)
    norm_eps: float = 1e-6
    tie_embeddings: bool = False
    norm: Norm = "rms"  # "layer": GPT's LayerNorm (no bias here either)
    positions: Positions = "rotary"
    feed_forward: FeedForwardKind = "swiglu"

    def __post_init__(self) -> None:
        choices = {"norm": ("rms", "layer"), "positions": ("rotary", "learned"), "feed_forward": ("swiglu", "gelu")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("vocab_size", "block_size", "n_layers", "n_heads", "n_kv_heads", "d_model", "d_ff"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise ValueError(
                f"d_model={self.d_model} must split into n_heads={self.n_heads} "
                "heads of even width (rotary turns pairs)"
            )
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"n_kv_heads={self.n_kv_heads} must divide n_heads={self.n_heads}")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads


def block_config(config: LlamaConfig) -> BlockConfig:
    """The :class:`~course_lib.blocks.BlockConfig` of a Llama block: pre-norm, no biases, ``n_kv_heads``
    key/value heads, the rotary hook (or GPT's learned table, outside the block), SwiGLU (or GELU)."""
    c, gated = config, config.feed_forward == "swiglu"
    return BlockConfig(
        c.d_model, c.n_heads, c.d_ff, activation="silu" if gated else "gelu_tanh", gated=gated, norm=c.norm,
        norm_eps=c.norm_eps, bias=False, n_kv_heads=c.n_kv_heads,
        rotary_base=c.rope_base if c.positions == "rotary" else None, rotary_interpolation=c.rope_interpolation,
    )  # fmt: skip


class Llama(HFModel[LlamaConfig]):
    """``forward(input_ids (B, T), attention_mask (B, P + T) | None, caches) -> logits (B, T, V)``."""

    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.d_model)
        self.positions = LearnedPositions(config.block_size, config.d_model) if config.positions == "learned" else None
        # the blocks are GPT's and T5's decoder blocks, set as Llama's, without cross-attention
        block = block_config(config)
        self.layers: list[DecoderBlock] = nn.ModuleList(
            DecoderBlock(block, cross_attention=False) for _ in range(config.n_layers)
        )  # type: ignore[assignment]
        self.norm = make_norm(config.norm, config.d_model, eps=config.norm_eps, bias=False)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        for module in self.modules():  # Llama's initialisation: N(0, 0.02) for every matrix
            if isinstance(module, nn.Linear | nn.Embedding):
                nn.init.normal_(module.weight, std=0.02)
        if config.tie_embeddings:
            self.lm_head.weight = self.embed.weight
        fuse_norms(self)  # a LayerNorm (norm="layer") runs as torch's one kernel, as GPT's does

    def num_parameters(self) -> int:
        """Parameters counted once each (a tied head is the embedding)."""
        return sum(p.numel() for p in self.parameters())

    def new_caches(self) -> list[KVCache]:
        """One empty :class:`KVCache` per block, for generating token by token."""
        return [KVCache() for _ in self.layers]

    @classmethod
    def hf_converters(cls) -> HFConverters:
        """Conversion to and from ``LlamaForCausalLM``'s state dict and config."""
        return HFConverters("llama", from_hf_state_dict, to_hf_state_dict, config_from_hf)

    def forward(
        self, input_ids: Tensor, attention_mask: Tensor | None = None, caches: list[KVCache] | None = None
    ) -> Tensor:
        """Logits ``(B, T, V)``; see :meth:`hidden_states` for the arguments."""
        return self.lm_head(self.hidden_states(input_ids, attention_mask, caches))

    def hidden_states(
        self, input_ids: Tensor, attention_mask: Tensor | None = None, caches: list[KVCache] | None = None
    ) -> Tensor:
        """The final norm's output ``(B, T, d_model)`` for ``input_ids (B, T)``.

        ``attention_mask (B, P + T)`` marks real tokens 1 and padding 0 over the ``P`` positions the
        ``caches`` hold and the ``T`` new ones (Hugging Face's convention): no token attends to padding.
        Learned positions count each row's real tokens (:func:`~course_lib.attention.mask_positions`, as
        GPT's); rotary positions count from ``P`` in every row, which changes nothing but rounding: a
        rotary score depends only on the distance between two tokens, and padding shifts both alike.
        """
        if input_ids.ndim != 2:
            raise ValueError(f"input_ids must have shape (B, T), got {tuple(input_ids.shape)}")
        if input_ids.numel() and not 0 <= int(input_ids.min()) <= int(input_ids.max()) < self.config.vocab_size:
            raise ValueError(
                f"token ids must be in 0 .. {self.config.vocab_size - 1} (vocab_size), "
                f"got ids from {int(input_ids.min())} to {int(input_ids.max())}"
            )
        if caches is not None and len(caches) != len(self.layers):
            raise ValueError(f"expected one cache per block ({len(self.layers)}), got {len(caches)}")
        B, T = input_ids.shape
        past = caches[0].length if caches else 0
        if past + T > self.config.block_size:
            raise ValueError(f"{past + T} positions do not fit in the context of {self.config.block_size} (block_size)")
        padding, positions = decoder_padding(attention_mask, B, past, T)  # (B, 1, P + T), (B, T)
        x = self.embed(input_ids)  # (B, T, d_model)
        if self.positions is not None:
            x = self.positions(x, offset=past, positions=positions)
        for i, layer in enumerate(self.layers):
            x = layer(x, self_mask=padding, cache=None if caches is None else caches[i])
        return self.norm(x)


def stretched(model: Llama, factor: float, rule: Stretch) -> Llama:
    """A copy of the rotary ``model`` (same weights) that reads ``factor`` times its ``block_size``.

    ``rule`` says how positions past the trained length are turned:

    * ``"extrapolate"``: as they are; pairs rotate through angles the training never reached;
    * ``"interpolate"``: every position divided by ``factor`` (Chen et al. 2023), so the longer window
      spans the trained angles, but neighbours are ``1 / factor`` apart, which training never showed;
    * ``"base"``: the base multiplied by ``factor^(d_head / (d_head - 2))`` ("NTK-aware" scaling): the
      slowest pair turns ``factor`` times slower, the fastest as before, pair ``i`` of ``d_head / 2``
      ``factor^(2i / (d_head - 2))`` times slower.

    The copy has ``model``'s dtype and device.
    """
    c = model.config
    if c.positions != "rotary":
        raise ValueError("a learned position table has no vector past block_size: only rotary positions stretch")
    if factor < 1:
        raise ValueError(f"factor must be at least 1 (a longer context), got {factor}")
    if rule == "extrapolate":
        longer_config = replace(c, block_size=round(c.block_size * factor))
    elif rule == "interpolate":
        longer_config = replace(
            c, block_size=round(c.block_size * factor), rope_interpolation=c.rope_interpolation * factor
        )
    elif rule == "base":
        base = c.rope_base * factor ** (c.d_head / (c.d_head - 2))
        longer_config = replace(c, block_size=round(c.block_size * factor), rope_base=base)
    else:
        raise ValueError(f"rule must be 'extrapolate', 'interpolate' or 'base', got {rule!r}")
    weight = model.embed.weight
    longer = Llama(longer_config).to(device=weight.device, dtype=weight.dtype)
    longer.load_state_dict(model.state_dict())
    return longer


# ------------------------------------------------------------------------------ Hugging Face


def _check_hf_compatible(config: LlamaConfig) -> None:
    if (config.norm, config.positions, config.feed_forward) != ("rms", "rotary", "swiglu"):
        raise CheckpointMismatch(
            f"norm={config.norm!r}, positions={config.positions!r}, feed_forward={config.feed_forward!r}: "
            "LlamaForCausalLM has only RMSNorm, rotary positions and SwiGLU (norm='rms', positions='rotary', "
            "feed_forward='swiglu')"
        )
    if config.rope_interpolation != 1.0:
        raise CheckpointMismatch(
            f"rope_interpolation={config.rope_interpolation}: only plain rotary positions are carried to "
            "LlamaForCausalLM (interpolation is for reading a trained model at a longer length)"
        )


def _hf_names(config: LlamaConfig) -> HFNames:
    """Our names against a ``LlamaForCausalLM`` of ``config``'s shape; a tied head is the token embedding."""
    _check_hf_compatible(config)
    names = [("embed.weight", "model.embed_tokens.weight"), ("norm.weight", "model.norm.weight")]
    projections = {"q_proj": "q_proj", "k_proj": "k_proj", "v_proj": "v_proj", "out_proj": "o_proj"}
    mlp = {"linear1": "gate_proj", "linear_v": "up_proj", "linear2": "down_proj"}
    for i in range(config.n_layers):
        ours, theirs = f"layers.{i}", f"model.layers.{i}"
        names += [(f"{ours}.self_attn.{a}.weight", f"{theirs}.self_attn.{b}.weight") for a, b in projections.items()]
        names += [(f"{ours}.ff.{a}.weight", f"{theirs}.mlp.{b}.weight") for a, b in mlp.items()]
        names += [
            (f"{ours}.norm1.weight", f"{theirs}.input_layernorm.weight"),
            (f"{ours}.norm2.weight", f"{theirs}.post_attention_layernorm.weight"),
        ]
    if not config.tie_embeddings:
        return HFNames([*names, ("lm_head.weight", "lm_head.weight")])
    why = "the checkpoint's head is untied, but this Llama ties it (LlamaConfig(tie_embeddings=False) loads it)"
    return HFNames(
        names, copies={"lm_head.weight": ("model.embed_tokens.weight", why)}, tied={"lm_head.weight": "embed.weight"}
    )


def from_hf_state_dict(hf: Mapping[str, Tensor], model: Llama) -> dict[str, Tensor]:
    """A ``LlamaForCausalLM`` state dict -> ``model``'s, refusing one that does not fit it."""
    c = model.config
    return _hf_names(c).load(
        hf, {name: t.shape for name, t in model.state_dict().items()},
        what=f"this Llama ({c.n_layers} blocks, {'tied' if c.tie_embeddings else 'untied'} head)",
        shapes_what=(
            f"this Llama (width {c.d_model}, {c.n_heads} heads, {c.n_kv_heads} "
            f"key/value heads, vocabulary {c.vocab_size}, d_ff {c.d_ff})"
        ),
    )  # fmt: skip


def to_hf_state_dict(model: Llama) -> dict[str, Tensor]:
    """``model``'s tensors under ``LlamaForCausalLM``'s names (a tied head included, as HF saves it)."""
    return _hf_names(model.config).save(model.state_dict())


def hf_config_kwargs(config: LlamaConfig) -> dict[str, Any]:
    """The arguments of ``transformers.LlamaConfig`` for the same model."""
    _check_hf_compatible(config)
    return dict(
        vocab_size=config.vocab_size, hidden_size=config.d_model, intermediate_size=config.d_ff,
        num_hidden_layers=config.n_layers, num_attention_heads=config.n_heads, num_key_value_heads=config.n_kv_heads,
        max_position_embeddings=config.block_size, rms_norm_eps=config.norm_eps, rope_theta=config.rope_base,
        tie_word_embeddings=config.tie_embeddings, attention_bias=False, mlp_bias=False, hidden_act="silu",
    )  # fmt: skip


def config_from_hf(hf: Mapping[str, Any]) -> LlamaConfig:
    """A :class:`LlamaConfig` from a Hugging Face ``config.json``'s fields, refusing what this
    family does not compute."""
    if hf.get("hidden_act", "silu") != "silu":
        raise CheckpointMismatch(f"hidden_act {hf.get('hidden_act')!r}: this Llama's feed-forward is SwiGLU (silu)")
    if hf.get("attention_bias") or hf.get("mlp_bias"):
        raise CheckpointMismatch("attention_bias or mlp_bias is set: this Llama has no biases")
    rope = dict(hf.get("rope_parameters") or {})  # transformers 5; older configs: rope_theta and rope_scaling
    if hf.get("rope_scaling") or rope.get("rope_type", "default") != "default":
        raise CheckpointMismatch(
            f"rope scaling {hf.get('rope_scaling') or rope!r} is not supported: plain rotary positions only"
        )
    theta = float(rope.get("rope_theta", hf.get("rope_theta", 10000.0)))
    head_dim = hf.get("head_dim")
    if head_dim is not None and head_dim != hf["hidden_size"] // hf["num_attention_heads"]:
        raise CheckpointMismatch(f"head_dim {head_dim} differs from hidden_size / num_attention_heads: not supported")
    return LlamaConfig(
        vocab_size=int(hf["vocab_size"]), block_size=int(hf.get("max_position_embeddings", 2048)),
        n_layers=int(hf["num_hidden_layers"]), n_heads=int(hf["num_attention_heads"]),
        n_kv_heads=int(hf.get("num_key_value_heads") or hf["num_attention_heads"]), d_model=int(hf["hidden_size"]),
        d_ff=int(hf["intermediate_size"]), rope_base=theta, norm_eps=float(hf.get("rms_norm_eps", 1e-6)),
        tie_embeddings=bool(hf.get("tie_word_embeddings", False)),
    )  # fmt: skip
