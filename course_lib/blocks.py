"""Transformer blocks: the pieces GPT, BERT and T5 are assembled from.

Shapes: ``B`` batch, ``T`` sequence length (``T_q`` queries, ``T_k`` keys), ``S`` the source length
in an encoder-decoder model (its target has ``T``), ``d_model`` the width of the residual stream,
``h = n_heads`` heads, ``d_ff`` the feed-forward width, ``L = n_layers`` blocks. Masks follow
:mod:`course_lib.attention`: boolean, True = may attend.

Block arrangements (``Arrangement``):

* ``"post_ln"`` (Vaswani et al. 2017): ``x = LN(x + Attn(x))``, then ``x = LN(x + FFN(x))``;
* ``"pre_ln"`` (GPT-2): ``x = x + Attn(LN(x))``, then ``x = x + FFN(LN(x))``;
* ``"parallel"`` (GPT-J, ViT-22B): ``x = x + Attn(LN(x)) + FFN(LN(x))`` with one shared LN.

The norm is the model's choice (``Norm``): LayerNorm (GPT, BERT) or RMSNorm (T5), with its ``eps``;
stacks end with a final norm unless ``final_norm=False`` (post-LN BERT has none).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from functools import partial
from typing import Literal

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import KVCache, MultiHeadAttention, RotaryEmbedding, causal_mask

__all__ = [
    "ACTIVATIONS",
    "ARRANGEMENTS",
    "Activation",
    "Arrangement",
    "BlockConfig",
    "Decoder",
    "DecoderBlock",
    "DecoderCaches",
    "Encoder",
    "EncoderBlock",
    "EncoderDecoder",
    "FeedForward",
    "LayerNorm",
    "LearnedPositions",
    "NORMS",
    "Norm",
    "RMSNorm",
    "RelativePositionBias",
    "SinusoidalPositions",
    "fuse_norms",
    "init_normal",
    "make_norm",
    "relative_position_bucket",
    "sinusoidal_encoding",
]

Arrangement = Literal["post_ln", "pre_ln", "parallel"]
ARRANGEMENTS: tuple[Arrangement, ...] = ("post_ln", "pre_ln", "parallel")
# gelu_tanh: the tanh approximation GPT-2 uses; silu: Llama's gate (SwiGLU)
Activation = Literal["relu", "gelu", "gelu_tanh", "silu"]
ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {
    "relu": F.relu,
    "gelu": F.gelu,
    "gelu_tanh": partial(F.gelu, approximate="tanh"),
    "silu": F.silu,
}


# ------------------------------------------------------------------------------------ norms


class LayerNorm(nn.Module):
    """LayerNorm from its definition (Ba et al. 2016), over the last axis of ``x (..., d)``.

    ``y = gain * (x - mean) / sqrt(var + eps) + bias``, with the *biased* variance (divide by ``d``,
    not ``d - 1``) and ``eps`` inside the square root, as ``nn.LayerNorm`` computes it. Models
    that train for real set ``fused`` (see :func:`fuse_norms`); the tests check both paths against
    ``nn.LayerNorm``.
    """

    def __init__(self, d: int, eps: float = 1e-5, fused: bool = False, bias: bool = True) -> None:
        super().__init__()
        self.eps = eps
        self.fused = fused  # compute it with torch's one fused kernel: the same maths, faster, less memory
        self.weight = nn.Parameter(torch.ones(d))  # the gain
        self.bias = nn.Parameter(torch.zeros(d)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        _check_last_dim(x, self.weight.shape[0], "LayerNorm")
        if self.fused:
            return F.layer_norm(x, self.weight.shape, self.weight, self.bias, self.eps)
        mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
        var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), biased
        normed = self.weight * (x - mean) / torch.sqrt(var + self.eps)
        return normed + self.bias if self.bias is not None else normed


def fuse_norms(module: nn.Module) -> None:
    """Compute every :class:`LayerNorm` in ``module`` with torch's fused kernel."""
    for m in module.modules():
        if isinstance(m, LayerNorm):
            m.fused = True


class RMSNorm(nn.Module):
    """RMSNorm (Zhang and Sennrich 2019; used by T5): ``y = gain * x / sqrt(mean(x^2) + eps)``.

    No centring and no bias: cheaper than LayerNorm and, in practice, as good.
    """

    def __init__(self, d: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x: Tensor) -> Tensor:
        _check_last_dim(x, self.weight.shape[0], "RMSNorm")
        return self.weight * x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)


def _check_last_dim(x: Tensor, d: int, what: str) -> None:
    if x.shape[-1] != d:
        raise ValueError(f"{what} expects inputs whose last dimension is {d}, got shape {tuple(x.shape)}")


Norm = Literal["layer", "rms"]
NORMS: tuple[Norm, ...] = ("layer", "rms")


def make_norm(kind: Norm, d: int, eps: float | None = None, bias: bool = True) -> LayerNorm | RMSNorm:
    """The norm a model chooses: ``"layer"`` (:class:`LayerNorm`, GPT and BERT) or ``"rms"``
    (:class:`RMSNorm`, T5, which never has a bias), over ``d`` features; ``eps`` defaults to each
    norm's own (BERT uses 1e-12); ``bias=False`` drops LayerNorm's bias."""
    if kind == "layer":
        return LayerNorm(d, bias=bias) if eps is None else LayerNorm(d, eps, bias=bias)
    if kind == "rms":
        return RMSNorm(d) if eps is None else RMSNorm(d, eps)
    raise ValueError(f"norm must be one of {NORMS}, got {kind!r}")


# ---------------------------------------------------------------------------- initialisation


def init_normal(module: nn.Module, std: float = 0.02) -> None:
    """GPT's and BERT's initialisation, for ``model.apply``: weights of linear maps and embeddings
    drawn from N(0, ``std``), biases zero (norms keep their gain 1 and bias 0)."""
    if isinstance(module, nn.Linear | nn.Embedding):
        nn.init.normal_(module.weight, std=std)
    if isinstance(module, nn.Linear) and module.bias is not None:
        nn.init.zeros_(module.bias)


# ---------------------------------------------------------------------------- feed-forward


class FeedForward(nn.Module):
    """The position-wise network ``linear2(dropout(act(linear1(x))))``: ``(..., d_model) -> (..., d_model)``.

    ``gated=True`` is the gated linear unit of Shazeer (2020), used by T5 v1.1 ("gated-GELU") and, with
    ``activation="silu"``, by Llama (SwiGLU): ``linear2(dropout(act(linear1(x)) * linear_v(x)))``, one more
    ``d_model x d_ff`` matrix.
    """

    def __init__(
        self,
        d_model: int,
        d_ff: int,
        activation: Activation = "relu",
        dropout: float = 0.0,
        bias: bool = True,
        gated: bool = False,
    ) -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {tuple(ACTIVATIONS)}, got {activation!r}")
        self.linear1 = nn.Linear(d_model, d_ff, bias=bias)
        self.linear_v = nn.Linear(d_model, d_ff, bias=bias) if gated else None  # the gate's linear half
        self.linear2 = nn.Linear(d_ff, d_model, bias=bias)
        self.activation = ACTIVATIONS[activation]
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        hidden = self.activation(self.linear1(x))  # (..., d_ff)
        if self.linear_v is not None:
            hidden = hidden * self.linear_v(x)
        return self.linear2(self.dropout(hidden))


# ------------------------------------------------------------------------------- positions


def sinusoidal_encoding(T: int, d_model: int) -> Tensor:
    """``(T, d_model)``: ``PE[t, 2i] = sin(t / 10000^(2i/d_model))``, ``PE[t, 2i+1] = cos(...)``."""
    if d_model % 2:
        raise ValueError(f"sinusoidal encodings need an even d_model, got {d_model}")
    position = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    # (d_model/2,)
    inv_freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(position * inv_freq)
    pe[:, 1::2] = torch.cos(position * inv_freq)
    return pe


class SinusoidalPositions(nn.Module):
    """Fixed encodings added to ``x (B, T, d_model)``, for ``T <= max_len``; no parameters."""

    pe: Tensor

    def __init__(self, max_len: int, d_model: int) -> None:
        super().__init__()
        self.register_buffer("pe", sinusoidal_encoding(max_len, d_model), persistent=False)

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        """``x`` holds positions ``offset .. offset + T - 1`` (offset: tokens already seen, as with a KV cache)."""
        T = _check_length(x, self.pe.shape[0], offset)
        return x + self.pe[offset : offset + T].to(x.dtype)


class LearnedPositions(nn.Module):
    """A learned embedding per position (GPT, BERT), added to ``x (B, T, d_model)``."""

    def __init__(self, max_len: int, d_model: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(max_len, d_model)

    def forward(self, x: Tensor, offset: int = 0, positions: Tensor | None = None) -> Tensor:
        """``x`` holds positions ``offset .. offset + T - 1`` (offset: tokens already seen, as with a KV cache),
        or each row its own ``positions (B, T)`` (a padded batch: :func:`~course_lib.attention.mask_positions`)."""
        T = _check_length(x, self.embedding.num_embeddings, offset)
        if positions is None:
            return x + self.embedding(torch.arange(offset, offset + T, device=x.device))
        if positions.shape != x.shape[:2]:
            raise ValueError(f"positions must have shape (B, T) = {tuple(x.shape[:2])}, got {tuple(positions.shape)}")
        return x + self.embedding(positions)


def _check_length(x: Tensor, max_len: int, offset: int = 0) -> int:
    if x.ndim != 3:
        raise ValueError(f"expected x of shape (B, T, d_model), got {tuple(x.shape)}")
    if offset + x.shape[1] > max_len:
        seen = f" after {offset} earlier positions" if offset else ""
        raise ValueError(f"sequence length {x.shape[1]}{seen} is longer than the {max_len} positions this model has")
    return x.shape[1]


def relative_position_bucket(
    relative_position: Tensor, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> Tensor:
    """T5's bucket for each relative position ``key - query`` (a LongTensor of any shape; same shape out).

    Bidirectional (the encoder): half of the buckets are for keys before the query, half for keys
    after it. Causal (the decoder): keys after the query all share bucket 0 (they are masked anyway)
    and every bucket is for distances into the past. Within a direction, the first half of the
    buckets holds the distances ``0 .. n/2 - 1`` exactly, the second half spreads the distances from
    ``n/2`` up to ``max_distance`` logarithmically, and every larger distance shares the last bucket.
    """
    if relative_position.is_floating_point():
        raise ValueError(f"relative positions must be integers, got {relative_position.dtype}")
    if relative_position.dtype.is_signed:  # the dtype's least value has no negation in it; that far, one bucket
        relative_position = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    n = num_buckets
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        n //= 2
        buckets = buckets + (relative_position > 0).long() * n  # keys after the query: the upper half
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)  # how far back; keys ahead count as 0
    exact = n // 2
    if exact < 1 or max_distance <= exact:
        raise ValueError(
            "need at least 2 buckets per direction and max_distance above "
            f"{exact}, got num_buckets={num_buckets}, max_distance={max_distance}"
        )
    # log(distance / exact) / log(max_distance / exact) runs from 0 to 1 over exact .. max_distance
    log_ratio = torch.log(distance.float().clamp(min=1) / exact) / math.log(max_distance / exact)
    far = (exact + (log_ratio * (n - exact)).long()).clamp(max=n - 1)  # truncated, as T5 does
    return buckets + torch.where(distance < exact, distance, far)


class RelativePositionBias(nn.Module):
    """T5's relative position bias: one learned scalar per (bucket, head), added to the attention scores.

    Returns ``(1, h, T_q, T_k)`` for queries at positions ``offset .. offset + T_q - 1`` and keys at
    ``0 .. T_k - 1`` (``offset``: positions already decoded, as with a KV cache). T5 computes it once
    per stack, in the first block, and every block of the stack adds the same bias.
    """

    def __init__(
        self, n_heads: int, num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = True
    ) -> None:
        super().__init__()
        self.num_buckets, self.max_distance, self.bidirectional = num_buckets, max_distance, bidirectional
        self.embedding = nn.Embedding(num_buckets, n_heads)  # (buckets, h)

    def forward(self, T_q: int, T_k: int, offset: int = 0) -> Tensor:
        device = self.embedding.weight.device
        query = torch.arange(offset, offset + T_q, device=device)[:, None]  # (T_q, 1)
        key = torch.arange(T_k, device=device)[None, :]  # (1, T_k)
        # (T_q, T_k)
        buckets = relative_position_bucket(key - query, self.bidirectional, self.num_buckets, self.max_distance)
        return self.embedding(buckets).permute(2, 0, 1).unsqueeze(0)  # (1, h, T_q, T_k)


# ---------------------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class BlockConfig:
    """Everything a block (and a stack of blocks) is built from; each family builds one from its config.

    ``d_model``, ``n_heads`` and ``d_ff`` may be given by position, every other field by name:

    * ``arrangement``: ``"post_ln"``, ``"pre_ln"`` or ``"parallel"`` (see the module docstring);
    * ``activation``, ``gated``: :class:`FeedForward`'s (``gated`` with ``"silu"`` is Llama's SwiGLU);
    * ``dropout`` applies to the attention weights and to each branch's output; ``ff_dropout`` (default:
      ``dropout``) to the feed-forward's hidden activation, where ``nn.TransformerEncoderLayer`` drops and
      BERT does not (BERT passes 0);
    * ``norm`` (``"layer"`` or ``"rms"``) with ``norm_eps`` (default: the norm's own); ``bias=False``
      drops the biases of every linear map and LayerNorm;
    * ``d_head`` and ``attn_scale`` go to :class:`~course_lib.attention.MultiHeadAttention` (T5: ``d_kv``
      and 1), and so does ``n_kv_heads`` (grouped-query attention);
    * ``rotary_base``: the position hook. Set, every self-attention rotates its queries and keys by their
      positions (:class:`~course_lib.attention.RotaryEmbedding` with this base and ``rotary_interpolation``);
      cross-attention never does;
    * ``final_norm``: whether a stack (:class:`Encoder`, :class:`Decoder`) ends with a norm (post-LN BERT
      and BART have none).
    """

    d_model: int
    n_heads: int
    d_ff: int
    _: KW_ONLY
    arrangement: Arrangement = "pre_ln"
    activation: Activation = "relu"
    gated: bool = False
    dropout: float = 0.0
    ff_dropout: float | None = None
    norm: Norm = "layer"
    norm_eps: float | None = None
    bias: bool = True
    d_head: int | None = None
    attn_scale: float | None = None
    n_kv_heads: int | None = None
    rotary_base: float | None = None
    rotary_interpolation: float = 1.0
    final_norm: bool = True

    def __post_init__(self) -> None:
        if self.arrangement not in ARRANGEMENTS:
            raise ValueError(f"arrangement must be one of {ARRANGEMENTS}, got {self.arrangement!r}")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {NORMS}, got {self.norm!r}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {tuple(ACTIVATIONS)}, got {self.activation!r}")

    def attention(self, *, self_attention: bool = True) -> MultiHeadAttention:
        """A new attention layer of this shape; the position hook (rotary) on self-attention only."""
        rotary = None
        if self_attention and self.rotary_base is not None:
            rotary = RotaryEmbedding(
                self.d_head or self.d_model // self.n_heads, self.rotary_base, self.rotary_interpolation
            )
        return MultiHeadAttention(
            self.d_model,
            self.n_heads,
            d_head=self.d_head,
            scale=self.attn_scale,
            bias=self.bias,
            dropout=self.dropout,
            n_kv_heads=self.n_kv_heads,
            rotary=rotary,
        )

    def feed_forward(self) -> FeedForward:
        """A new feed-forward network of this shape."""
        return FeedForward(
            self.d_model,
            self.d_ff,
            self.activation,
            self.dropout if self.ff_dropout is None else self.ff_dropout,
            self.bias,
            self.gated,
        )

    def new_norm(self) -> LayerNorm | RMSNorm:
        """A new norm of this kind over ``d_model`` features."""
        return make_norm(self.norm, self.d_model, self.norm_eps, self.bias)


class EncoderBlock(nn.Module):
    """Bidirectional self-attention and a feed-forward network, in one of three arrangements, shaped by
    a :class:`BlockConfig`.

    Submodules (named as ``nn.TransformerEncoderLayer``'s, so weights copy across one to one):
    ``self_attn``, ``ff`` (``linear1``, ``linear2``), ``norm1``, ``norm2`` (``parallel`` uses
    ``norm1`` for both branches and has no ``norm2``).
    """

    def __init__(self, config: BlockConfig) -> None:
        super().__init__()
        self.arrangement = config.arrangement
        self.self_attn = config.attention()
        self.ff = config.feed_forward()
        self.norm1 = config.new_norm()
        self.norm2 = config.new_norm() if config.arrangement != "parallel" else None
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: Tensor, mask: Tensor | None = None, score_bias: Tensor | None = None) -> Tensor:
        """``x (B, T, d_model)``, ``mask`` (e.g. padding ``(B, 1, T)``) -> ``(B, T, d_model)``;
        ``score_bias`` (e.g. T5's relative position bias ``(1, h, T, T)``) is added to the scores."""

        def attn(h: Tensor) -> Tensor:
            return self.dropout(self.self_attn(h, mask=mask, score_bias=score_bias)[0])

        def ff(h: Tensor) -> Tensor:
            return self.dropout(self.ff(h))

        if self.arrangement == "parallel":
            h = self.norm1(x)
            return x + attn(h) + ff(h)
        assert self.norm2 is not None
        if self.arrangement == "post_ln":
            x = self.norm1(x + attn(x))
            return self.norm2(x + ff(x))
        x = x + attn(self.norm1(x))
        return x + ff(self.norm2(x))


class DecoderBlock(nn.Module):
    """Causal self-attention, optional cross-attention to an encoder's output, feed-forward, shaped by
    a :class:`BlockConfig`.

    Submodules (named as ``nn.TransformerDecoderLayer``'s): ``self_attn``, ``cross_attn`` (if
    ``cross_attention``), ``ff``, ``norm1``, ``norm2``, ``norm3`` (one norm per sub-layer; ``parallel``
    is for decoder-only models and has ``norm1`` only). ``attn_scale`` applies to both attentions (T5
    scales neither); the rotary hook to the self-attention only.
    """

    def __init__(self, config: BlockConfig, *, cross_attention: bool = True) -> None:
        super().__init__()
        if config.arrangement == "parallel" and cross_attention:
            raise ValueError("the parallel arrangement is for decoder-only blocks: use cross_attention=False")
        self.arrangement = config.arrangement
        self.self_attn = config.attention()
        self.cross_attn = config.attention(self_attention=False) if cross_attention else None
        self.ff = config.feed_forward()
        self.norm1 = config.new_norm()
        self.norm2 = config.new_norm() if config.arrangement != "parallel" else None
        self.norm3 = config.new_norm() if cross_attention else None
        self.dropout = nn.Dropout(config.dropout)

    def forward(
        self,
        x: Tensor,
        memory: Tensor | None = None,
        memory_mask: Tensor | None = None,
        self_mask: Tensor | None = None,
        cache: KVCache | None = None,
        *,
        cross_cache: KVCache | None = None,
        score_bias: Tensor | None = None,
    ) -> Tensor:
        """``x (B, T, d_model)`` attends causally to itself and, if this block has cross-attention,
        to ``memory (B, S, d_model)`` under ``memory_mask`` (e.g. the encoder's padding, ``(B, 1, S)``).
        ``self_mask`` is combined (and) with the causal mask, e.g. the decoder's own padding.
        ``score_bias`` (``(1, h, T, P + T)``, T5's relative position bias) is added to the
        self-attention's scores only.

        With a ``cache`` holding the keys and values of ``P`` earlier positions, ``x`` is positions
        ``P .. P + T - 1``: they attend to all earlier positions and to themselves causally, and
        their keys and values are appended to the cache. A ``cross_cache`` (a fixed
        :class:`~course_lib.attention.KVCache`) keeps the source's keys and values from the first
        step: later steps do not project ``memory`` again."""
        if (memory is None) != (self.cross_attn is None):
            raise ValueError("memory must be given exactly when the block has cross-attention")
        T = x.shape[1]
        past = cache.length if cache is not None else 0
        if past == 0:  # the causal mask, left to the fused kernel where it can
            mask, is_causal = self_mask, True
        else:
            causal = causal_mask(T, past + T, device=x.device)  # (T, P + T)
            mask, is_causal = (causal if self_mask is None else causal & self_mask), False

        def attn(h: Tensor) -> Tensor:
            return self.dropout(
                self.self_attn(h, mask=mask, cache=cache, is_causal=is_causal, score_bias=score_bias)[0]
            )

        def ff(h: Tensor) -> Tensor:
            return self.dropout(self.ff(h))

        def cross(h: Tensor) -> Tensor:
            assert self.cross_attn is not None
            return self.dropout(self.cross_attn(h, memory, memory_mask, cache=cross_cache)[0])

        if self.arrangement == "parallel":
            h = self.norm1(x)
            return x + attn(h) + ff(h)
        assert self.norm2 is not None
        # The sub-layers in order, each with its norm: self-attention, cross-attention, feed-forward.
        layers = [(attn, self.norm1)]
        if self.cross_attn is not None:
            assert self.norm3 is not None
            layers += [(cross, self.norm2), (ff, self.norm3)]
        else:
            layers += [(ff, self.norm2)]
        for sublayer, norm in layers:
            x = norm(x + sublayer(x)) if self.arrangement == "post_ln" else x + sublayer(norm(x))
        return x


# ---------------------------------------------------------------------------------- stacks


class Encoder(nn.Module):
    """``n_layers`` :class:`EncoderBlock` of one :class:`BlockConfig` and, with its ``final_norm``, a
    final norm (as ``nn.TransformerEncoder`` with a norm; post-LN BERT has none)."""

    def __init__(self, n_layers: int, config: BlockConfig) -> None:
        super().__init__()
        self.layers = nn.ModuleList(EncoderBlock(config) for _ in range(n_layers))
        self.norm = config.new_norm() if config.final_norm else None

    def forward(self, x: Tensor, mask: Tensor | None = None, score_bias: Tensor | None = None) -> Tensor:
        """``x (B, T, d_model)`` -> ``(B, T, d_model)``; every block adds the same ``score_bias``."""
        for layer in self.layers:
            x = layer(x, mask, score_bias)
        return self.norm(x) if self.norm is not None else x


# per block: its self-attention cache and its (fixed) cross-attention cache
DecoderCaches = list[tuple[KVCache, KVCache]]


class Decoder(nn.Module):
    """``n_layers`` :class:`DecoderBlock` with cross-attention, of one :class:`BlockConfig`, and, with its
    ``final_norm``, a final norm."""

    def __init__(self, n_layers: int, config: BlockConfig) -> None:
        super().__init__()
        self.layers = nn.ModuleList(DecoderBlock(config) for _ in range(n_layers))
        self.norm = config.new_norm() if config.final_norm else None

    def new_caches(self) -> DecoderCaches:
        """Empty caches for generation: per block, a growing self-attention cache and a fixed one for
        the source. Pass them to every step; ``caches[0][0].length`` is the number of positions decoded."""
        return [(KVCache(), KVCache(fixed=True)) for _ in self.layers]

    def forward(
        self,
        x: Tensor,
        memory: Tensor,
        memory_mask: Tensor | None = None,
        self_mask: Tensor | None = None,
        *,
        caches: DecoderCaches | None = None,
        score_bias: Tensor | None = None,
    ) -> Tensor:
        """``x (B, T, d_model)`` attending to ``memory (B, S, d_model)`` -> ``(B, T, d_model)``. With
        ``caches`` (from :meth:`new_caches`), ``x`` continues the positions held there."""
        if caches is not None and len(caches) != len(self.layers):
            raise ValueError(f"got caches for {len(caches)} blocks, the decoder has {len(self.layers)}")
        for i, layer in enumerate(self.layers):
            cache, cross_cache = caches[i] if caches is not None else (None, None)
            x = layer(x, memory, memory_mask, self_mask, cache, cross_cache=cross_cache, score_bias=score_bias)
        return self.norm(x) if self.norm is not None else x


class EncoderDecoder(nn.Module):
    """The original transformer's body: ``Encoder`` over the source, ``Decoder`` over the target.

    Inputs are already embedded: ``src (B, S, d_model)``, ``tgt (B, T, d_model)``;
    ``src_mask`` is the source's padding ``(B, 1, S)``, used by the encoder's self-attention and by
    the decoder's cross-attention. Returns the decoder's output ``(B, T, d_model)``.
    """

    def __init__(self, n_layers: int, config: BlockConfig, *, n_decoder_layers: int | None = None) -> None:
        super().__init__()
        if config.arrangement == "parallel":
            raise ValueError("EncoderDecoder supports 'post_ln' and 'pre_ln'")
        # the two stacks may differ in depth
        n_decoder_layers = n_layers if n_decoder_layers is None else n_decoder_layers
        self.encoder = Encoder(n_layers, config)
        self.decoder = Decoder(n_decoder_layers, config)

    def forward(
        self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None, tgt_mask: Tensor | None = None
    ) -> Tensor:
        memory = self.encoder(src, src_mask)  # (B, S, d_model)
        return self.decoder(tgt, memory, src_mask, tgt_mask)  # (B, T, d_model)
