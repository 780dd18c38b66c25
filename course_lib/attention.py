"""Attention: scores, masks, scaled dot-product attention and multi-head attention.

Notation (the same as the book's notation page):

* ``B`` batch size, ``T_q`` query length, ``T_k`` key/value length, ``T`` when they are equal;
* ``d_model`` model width, ``h = n_heads`` heads, ``d_head = d_model // n_heads``;
* ``d_k`` width of queries and keys, ``d_v`` width of values; inside multi-head attention each
  head's queries, keys and values have ``d_k = d_v = d_head``;
* ``P`` positions held in a :class:`KVCache`.

Masks are boolean and follow torch's convention: **True means "may attend"**, False means "masked
out". Masks broadcast against the scores, whose shape is ``(..., T_q, T_k)``. A query row whose keys
are all masked out gets all-zero attention weights and a zero output, on every code path
(``nn.MultiheadAttention`` gives NaN there); this is what a padded query position needs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .projections import fused_projections

__all__ = [
    "AdditiveAttention",
    "KVCache",
    "MultiHeadAttention",
    "RotaryEmbedding",
    "additive_attention_scores",
    "causal_mask",
    "check_padding_mask",
    "check_right_padded",
    "combine_masks",
    "decoder_padding",
    "mask_positions",
    "merge_heads",
    "padding_mask",
    "recorded_attention",
    "scaled_dot_product_attention",
    "split_heads",
]


# --------------------------------------------------------------------------------------- masks


def causal_mask(T_q: int, T_k: int | None = None, *, device: torch.device | str | None = None) -> Tensor:
    """Boolean causal mask of shape ``(T_q, T_k)``: True where the query may see the key.

    The queries are taken to be the *last* ``T_q`` positions of a sequence of length ``T_k``
    (``T_k`` defaults to ``T_q``), so query ``i`` may attend key ``j`` iff ``j <= i + T_k - T_q``.
    With ``T_q == T_k`` this is the lower triangle including the diagonal.
    """
    T_k = T_q if T_k is None else T_k
    if T_q < 1 or T_k < T_q:
        raise ValueError(f"causal_mask needs 1 <= T_q <= T_k, got T_q={T_q}, T_k={T_k}")
    ones = torch.ones(T_q, T_k, dtype=torch.bool, device=device)
    return torch.tril(ones, diagonal=T_k - T_q)


def padding_mask(lengths: Tensor, T: int) -> Tensor:
    """Boolean key-padding mask of shape ``(B, 1, T)`` from the true lengths ``(B,)``.

    Entry ``[b, 0, j]`` is True iff key position ``j < lengths[b]``. The singleton axis lets the
    mask broadcast against scores of shape ``(B, T_q, T_k)``; add one more axis,
    ``mask.unsqueeze(1)``, for per-head scores ``(B, h, T_q, T_k)``.
    """
    if lengths.ndim != 1:
        raise ValueError(f"lengths must have shape (B,), got {tuple(lengths.shape)}")
    if bool((lengths < 0).any()) or bool((lengths > T).any()):
        raise ValueError(f"lengths must lie in [0, {T}], got {lengths.tolist()}")
    positions = torch.arange(T, device=lengths.device)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)


def check_right_padded(attention_mask: Tensor) -> None:
    """Refuse an ``attention_mask (B, T)`` (1 = token, 0 = padding) that is not right padding, each row
    ``1...1 0...0`` with at least one token: a causal model never lets a real token see right padding,
    so it may ignore such a mask, and it may read each row's last real token."""
    mask = attention_mask.bool()
    if mask.ndim != 2 or not bool(mask[:, 0].all()) or bool((~mask[:, :-1] & mask[:, 1:]).any()):
        raise ValueError(
            "attention_mask must be right padding (each row 1...1 0...0, at "
            "least one token): a causal model's last real token must be read"
        )


def decoder_padding(attention_mask: Tensor | None, B: int, past: int, T: int) -> tuple[Tensor | None, Tensor | None]:
    """What a decoder reads from ``attention_mask (B, P + T)``, 1 = token and 0 = padding over the ``P``
    positions its caches hold and the ``T`` new ones (Hugging Face's convention): the mask ``(B, 1, P + T)``
    each block ands with the causal mask, and the new tokens' positions ``(B, T)`` (:func:`mask_positions`);
    ``(None, None)`` without a mask."""
    if attention_mask is None:
        return None, None
    if attention_mask.shape != (B, past + T):
        raise ValueError(
            f"attention_mask must have shape (B, P + T) = {(B, past + T)}, got {tuple(attention_mask.shape)}"
        )
    return attention_mask.bool()[:, None, :], mask_positions(attention_mask)[:, past:]


def mask_positions(attention_mask: Tensor) -> Tensor:
    """The position of each token of a padded batch, ``attention_mask (B, T)`` (1 = token, 0 = padding)
    -> ``(B, T)`` long: each real token's position counts the real tokens before it in its row, so a
    left-padded prompt starts at 0 as it would alone (Hugging Face's ``cumsum - 1``); padding gets the
    position of the token before it (0 before the first), which nothing reads."""
    check_padding_mask(attention_mask)
    return (attention_mask.long().cumsum(-1) - 1).clamp(min=0)


def check_padding_mask(attention_mask: Tensor) -> None:
    """Refuse an ``attention_mask (B, T)`` that is not 0s and 1s (or booleans) with a token in every row:
    a row of padding alone has no token to attend to."""
    if attention_mask.ndim != 2:
        raise ValueError(f"attention_mask must have shape (B, T), got {tuple(attention_mask.shape)}")
    if attention_mask.dtype != torch.bool and not bool(((attention_mask == 0) | (attention_mask == 1)).all()):
        raise ValueError("attention_mask must hold 1 (a token) and 0 (padding) only")
    if attention_mask.shape[1] and not bool(attention_mask.bool().any(-1).all()):
        raise ValueError("attention_mask: every row must hold at least one token (a 1)")


def combine_masks(*masks: Tensor | None) -> Tensor | None:
    """Logical AND of boolean masks with broadcasting; ``None`` entries are skipped.

    A position may be attended only if every mask allows it, e.g.
    ``combine_masks(causal_mask(T), padding_mask(lengths, T))`` has shape ``(B, T, T)``.
    Returns None when every mask is None.
    """
    result: Tensor | None = None
    for mask in masks:
        if mask is None:
            continue
        if mask.dtype != torch.bool:
            raise ValueError(f"masks must be boolean (True = may attend), got {mask.dtype}")
        result = mask if result is None else result & mask
    return result


def _check_mask(mask: Tensor, scores_shape: torch.Size) -> None:
    """Raise ValueError unless ``mask`` is boolean and broadcasts to ``scores_shape``."""
    if mask.dtype != torch.bool:
        raise ValueError(f"mask must be boolean (True = may attend), got dtype {mask.dtype}")
    _check_broadcasts("mask", mask, scores_shape)


def _check_broadcasts(name: str, tensor: Tensor, scores_shape: torch.Size) -> None:
    """Raise ValueError unless ``tensor`` (the argument ``name``) broadcasts to ``scores_shape``
    ``(..., T_q, T_k)`` as it is, without being broadcast itself."""
    if tensor.ndim > len(scores_shape):
        raise ValueError(
            f"{name} of shape {tuple(tensor.shape)} has more dimensions than the scores "
            f"{tuple(scores_shape)} (..., T_q, T_k)"
        )
    try:
        shape = torch.broadcast_shapes(tensor.shape, scores_shape)
    except RuntimeError:
        shape = None
    if shape != scores_shape:
        raise ValueError(
            f"{name} of shape {tuple(tensor.shape)} does not broadcast to the scores' shape "
            f"{tuple(scores_shape)} (..., T_q, T_k)"
        )


# ---------------------------------------------------------------------- additive attention


def additive_attention_scores(query: Tensor, keys: Tensor, W_q: Tensor, W_k: Tensor, w: Tensor) -> Tensor:
    """Additive (Bahdanau) scores ``a(q_i, k_j) = w^T tanh(W_q q_i + W_k k_j)``, query ``i``, key ``j``.

    Shapes: query ``(..., T_q, d_q)``, keys ``(..., T_k, d_k)``, ``W_q (d_q, d_a)``,
    ``W_k (d_k, d_a)``, ``w (d_a,)``; returns scores ``(..., T_q, T_k)``. The vectors are rows, so
    ``W_q q_i`` is written ``q_i @ W_q`` and the matrices are stored transposed (the book's
    ``W_q`` is ``d_a x d_q``).
    """
    if query.shape[-1] != W_q.shape[0] or keys.shape[-1] != W_k.shape[0]:
        raise ValueError(
            f"W_q {tuple(W_q.shape)} / W_k {tuple(W_k.shape)} do not match query width "
            f"{query.shape[-1]} / key width {keys.shape[-1]}"
        )
    if W_q.shape[1] != W_k.shape[1] or w.shape != (W_q.shape[1],):
        raise ValueError(f"W_q, W_k and w must share the hidden width d_a; got {W_q.shape}, {W_k.shape}, {w.shape}")
    hidden = (query @ W_q).unsqueeze(-2) + (keys @ W_k).unsqueeze(-3)  # (..., T_q, T_k, d_a)
    return torch.tanh(hidden) @ w  # (..., T_q, T_k)


class AdditiveAttention(nn.Module):
    """Additive attention (Bahdanau et al., 2015) with learned ``W_q``, ``W_k`` and ``w``.

    ``d_attn`` is the hidden width ``d_a``. ``forward(query (B, T_q, d_q), keys (B, T_k, d_k),
    values (B, T_k, d_v), mask)`` returns the context ``(B, T_q, d_v)`` and the weights
    ``(B, T_q, T_k)``.
    """

    def __init__(self, d_q: int, d_k: int, d_attn: int) -> None:
        super().__init__()
        self.W_q = nn.Parameter(torch.randn(d_q, d_attn) / math.sqrt(d_q))
        self.W_k = nn.Parameter(torch.randn(d_k, d_attn) / math.sqrt(d_k))
        self.w = nn.Parameter(torch.randn(d_attn) / math.sqrt(d_attn))

    def forward(self, query: Tensor, keys: Tensor, values: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
        if keys.shape[-2] != values.shape[-2]:
            raise ValueError(f"keys and values must have the same length, got {keys.shape[-2]} and {values.shape[-2]}")
        scores = additive_attention_scores(query, keys, self.W_q, self.W_k, self.w)  # (B, T_q, T_k)
        if mask is not None:
            _check_mask(mask, scores.shape)
        weights = _masked_softmax(scores, mask)
        return weights @ values, weights


# ----------------------------------------------------------------- scaled dot-product attention


def _masked_softmax(scores: Tensor, mask: Tensor | None) -> Tensor:
    """Softmax over the last axis (the keys), giving masked keys weight 0 and fully masked rows all 0."""
    if mask is None:
        return torch.softmax(scores, dim=-1)
    row_has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1)
    # Fully masked rows are softmaxed unmasked (no NaN, finite gradients), then zeroed.
    scores = scores.masked_fill(~mask & row_has_key, float("-inf"))
    return torch.softmax(scores, dim=-1).masked_fill(~row_has_key, 0.0)


def _check_qkv(q: Tensor, k: Tensor, v: Tensor) -> None:
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2:
        raise ValueError(f"q, k, v need at least 2 dimensions (..., T, d); got {q.ndim}, {k.ndim}, {v.ndim}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"queries and keys must have the same width d_k, got {q.shape[-1]} and {k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"keys and values must have the same length T_k, got {k.shape[-2]} and {v.shape[-2]}")


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None = None,
    *,
    dropout_p: float = 0.0,
    need_weights: bool = True,
    is_causal: bool = False,
    scale: float | None = None,
    score_bias: Tensor | None = None,
) -> tuple[Tensor, Tensor | None]:
    """``softmax(q k^T / sqrt(d_k)) v``, returning the output and the attention weights.

    Shapes: q ``(..., T_q, d_k)``, k ``(..., T_k, d_k)``, v ``(..., T_k, d_v)``, mask boolean and
    broadcastable to ``(..., T_q, T_k)`` (True = may attend). Returns the output ``(..., T_q, d_v)``
    and the weights ``(..., T_q, T_k)`` (after dropout, as used), each row summing to 1, or to 0 for a
    fully masked query.

    With ``need_weights=False`` the weights are not formed: the computation goes through torch's
    fused ``F.scaled_dot_product_attention`` (same result, less memory) and None is returned in
    their place. ``dropout_p`` drops attention weights; pass 0 at evaluation time.

    ``is_causal`` adds :func:`causal_mask` to ``mask`` without forming it where it can: with no
    other mask and no weights asked for, the fused kernel applies it internally (faster).

    ``scale`` replaces ``1 / sqrt(d_k)`` (T5 uses 1: no scaling). ``score_bias``, a float tensor
    broadcastable to ``(..., T_q, T_k)`` such as T5's relative position bias ``(1, h, T_q, T_k)``, is
    added to the scaled scores before the mask and the softmax, on both paths.
    """
    _check_qkv(q, k, v)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    if is_causal:
        T_q, T_k = q.shape[-2], k.shape[-2]
        if mask is None and score_bias is None and not need_weights and T_q == T_k:
            return F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p, is_causal=True, scale=scale), None
        causal = causal_mask(T_q, T_k, device=q.device)
        mask = causal if mask is None else mask & causal
    scores_shape = torch.Size(torch.broadcast_shapes(q.shape[:-1], k.shape[:-2] + (1,)) + (k.shape[-2],))
    if mask is not None:
        _check_mask(mask, scores_shape)
    if score_bias is not None:
        _check_score_bias(score_bias, scores_shape)
    if not need_weights:
        return _fused_attention(q, k, v, mask, dropout_p, scale, score_bias), None
    scores = q @ k.transpose(-2, -1) * scale  # (..., T_q, T_k)
    if score_bias is not None:
        scores = scores + score_bias
    weights = _masked_softmax(scores, mask)
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    return weights @ v, weights  # (..., T_q, d_v), (..., T_q, T_k)


def _fused_attention(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, dropout_p: float, scale: float, score_bias: Tensor | None
) -> Tensor:
    """The fast path: torch's fused kernel, with fully masked query rows set to zero, not NaN. A score
    bias goes in as torch's float mask, with the masked keys at -inf."""
    if mask is None:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=score_bias, dropout_p=dropout_p, scale=scale)
    row_has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1)
    allowed = mask | ~row_has_key
    attn_mask = allowed if score_bias is None else torch.where(allowed, score_bias, float("-inf"))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, scale=scale)
    return out.masked_fill(~row_has_key, 0.0)


def _check_score_bias(score_bias: Tensor, scores_shape: torch.Size) -> None:
    if not score_bias.is_floating_point():
        raise ValueError(
            "score_bias must be a float tensor (added to the scores), "
            f"got {score_bias.dtype}; a boolean tensor is a mask"
        )
    _check_broadcasts("score_bias", score_bias, scores_shape)


# ----------------------------------------------------------------------- multi-head attention


class KVCache:
    """The keys and values one attention layer has computed so far, each ``(B, h, P, d_head)``.

    With ``P`` positions held (``0 .. P - 1``), the next step needs their keys and values and those of
    the new positions. Held keys and values do not change once computed (the mask is causal), so
    they are kept and only the new positions' are computed and appended.

    ``fixed=True`` is the cache of a cross-attention: the keys and values of the source (the encoder's
    output) are computed on the first step and reused unchanged at every later one.
    """

    def __init__(self, fixed: bool = False) -> None:
        self.fixed = fixed
        self.k: Tensor | None = None
        self.v: Tensor | None = None

    @property
    def length(self) -> int:
        """``P``, the number of positions held."""
        return 0 if self.k is None else self.k.shape[-2]

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Add ``k, v (B, h, T, d_head)`` for ``T`` new positions after the ``P`` held ones; return all
        ``(B, h, P + T, d_head)``."""
        if self.k is None or self.v is None:
            self.k, self.v = k, v
        elif self.fixed:
            raise ValueError("a fixed cache holds the source's keys and values once: nothing is appended to it")
        else:
            if k.shape[:2] != self.k.shape[:2] or k.shape[-1] != self.k.shape[-1]:
                raise ValueError(
                    f"cannot append keys of shape {tuple(k.shape)} to a cache of shape {tuple(self.k.shape)}"
                )
            self.k, self.v = torch.cat([self.k, k], dim=-2), torch.cat([self.v, v], dim=-2)  # along time
        return self.k, self.v


class RotaryEmbedding(nn.Module):
    """Rotary position embedding (RoPE; Su et al. 2021), applied to queries and keys, not to the stream.

    Each head's ``d_head`` features are read as ``d_head / 2`` pairs ``(x_i, x_{i + d_head/2})`` (the
    "rotate half" layout of Llama's Hugging Face weights); at position ``t`` pair ``i`` is rotated by the
    angle ``t / base^(2i / d_head)``. A query at ``t`` and a key at ``s`` then score ``q . k`` as a
    function of their contents and ``t - s`` only. No parameters. ``interpolation`` > 1 divides every
    position by it (Chen et al.'s position interpolation: ``interpolation`` times the trained length
    spans the angles the training length did).
    """

    def __init__(self, d_head: int, base: float = 10000.0, interpolation: float = 1.0) -> None:
        super().__init__()
        if d_head % 2:
            raise ValueError(f"rotary embeddings rotate pairs of features: d_head must be even, got {d_head}")
        if base <= 1.0:
            raise ValueError(f"the rotary base must be greater than 1, got {base}")
        if interpolation < 1.0:
            raise ValueError(f"the interpolation factor divides positions and must be at least 1, got {interpolation}")
        self.d_head, self.base, self.interpolation = d_head, base, interpolation
        self.inv_freq: Tensor
        # 1 / base^(2i / d_head), in that order of operations: base^(-2i / d_head) differs by a float32 step, which
        # grows with the position (5.7e-4 in the logits at 4,096 tokens, base 500,000) against checkpoints' own code
        exponents = torch.arange(0, d_head, 2, dtype=torch.float32) / d_head  # (d_head / 2,)
        inv_freq = 1.0 / base**exponents  # (d_head / 2,)
        if interpolation != 1.0:  # position interpolation: position t turns as t / interpolation did
            inv_freq = inv_freq / interpolation
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, q: Tensor, k: Tensor, offset: int = 0) -> tuple[Tensor, Tensor]:
        """Rotate ``q (B, h, T, d_head)`` and ``k (B, h_kv, T, d_head)`` as positions ``offset .. offset + T - 1``."""
        T = q.shape[-2]
        if q.shape[-1] != self.d_head or k.shape[-1] != self.d_head or k.shape[-2] != T:
            raise ValueError(f"rotary embedding of d_head={self.d_head} got q {tuple(q.shape)} and k {tuple(k.shape)}")
        positions = torch.arange(offset, offset + T, device=q.device, dtype=torch.float32)
        angles = torch.outer(positions, self.inv_freq.to(q.device))  # (T, d_head / 2)
        angles = torch.cat([angles, angles], dim=-1)  # (T, d_head): pair i's angle at i and i + d_head/2
        cos, sin = angles.cos().to(q.dtype), angles.sin().to(q.dtype)
        return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def _rotate_half(x: Tensor) -> Tensor:
    """``(x1, x2) -> (-x2, x1)`` on the two halves of the last dimension: a 90-degree turn of every pair."""
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def split_heads(x: Tensor, n_heads: int) -> Tensor:
    """``(B, T, d_model) -> (B, h, T, d_head)``: head ``i`` gets features ``i*d_head:(i+1)*d_head``."""
    B, T, d_model = x.shape
    if d_model % n_heads != 0:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    return x.view(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x: Tensor) -> Tensor:
    """``(B, h, T, d_head) -> (B, T, h * d_head)``, the inverse of :func:`split_heads`."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)


class MultiHeadAttention(nn.Module):
    """Multi-head attention for self-attention (``context=None``) and cross-attention.

    Queries come from ``x``; keys and values from ``context`` (cross-attention) or from ``x``
    (self-attention). Each of the ``n_heads`` heads attends in its own ``d_head``-wide subspace; the
    heads' outputs are concatenated and mixed by ``out_proj``. The projections are ``nn.Linear``
    layers named ``q_proj``, ``k_proj``, ``v_proj`` and ``out_proj``.

    ``d_head`` defaults to ``d_model // n_heads``; set it to give the heads another width (T5's
    ``d_kv``): the projections then map ``d_model`` to ``n_heads * d_head`` and back. ``scale``
    replaces ``1 / sqrt(d_head)`` (T5: 1).

    ``n_kv_heads`` (grouped-query attention, Ainslie et al. 2023) gives keys and values fewer heads than
    queries: ``k_proj`` and ``v_proj`` map to ``n_kv_heads * d_head``, and each key/value head serves
    ``n_heads / n_kv_heads`` consecutive query heads; a cache holds the ``n_kv_heads`` heads only.
    ``rotary`` rotates queries and keys by their positions (:class:`RotaryEmbedding`) after the heads
    are split and before keys enter a cache, counting positions from the cache's length.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        *,
        d_head: int | None = None,
        scale: float | None = None,
        bias: bool = True,
        dropout: float = 0.0,
        n_kv_heads: int | None = None,
        rotary: RotaryEmbedding | None = None,
    ) -> None:
        super().__init__()
        if d_head is None:
            if d_model % n_heads != 0:
                raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads} (or pass d_head)")
            d_head = d_model // n_heads
        if d_head < 1:
            raise ValueError(f"d_head must be positive, got {d_head}")
        n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
        if n_kv_heads < 1 or n_heads % n_kv_heads:
            raise ValueError(f"n_kv_heads must divide n_heads={n_heads}, got {n_kv_heads}")
        if rotary is not None and rotary.d_head != d_head:
            raise ValueError(f"the rotary embedding is for d_head={rotary.d_head}, the heads are {d_head} wide")
        self.d_model, self.n_heads, self.d_head, self.scale, self.dropout = d_model, n_heads, d_head, scale, dropout
        self.n_kv_heads, self.rotary = n_kv_heads, rotary
        inner, kv_inner = n_heads * d_head, n_kv_heads * d_head  # the width of all query heads, of all key/value heads
        self.q_proj = nn.Linear(d_model, inner, bias=bias)
        self.k_proj = nn.Linear(d_model, kv_inner, bias=bias)
        self.v_proj = nn.Linear(d_model, kv_inner, bias=bias)
        self.out_proj = nn.Linear(inner, d_model, bias=bias)

    def forward(
        self,
        x: Tensor,
        context: Tensor | None = None,
        mask: Tensor | None = None,
        *,
        need_weights: bool = False,
        cache: KVCache | None = None,
        is_causal: bool = False,
        score_bias: Tensor | None = None,
    ) -> tuple[Tensor, Tensor | None]:
        """Attend from ``x (B, T_q, d_model)`` to ``context (B, T_k, d_model)`` (default ``x``).

        ``mask`` is boolean, True = may attend, of shape ``(T_q, T_k)``, ``(B, T_q, T_k)``,
        ``(B, 1, T_k)`` or ``(B, h, T_q, T_k)``. Returns the output ``(B, T_q, d_model)`` and, if
        ``need_weights``, the per-head weights ``(B, h, T_q, T_k)`` (else None).

        With a ``cache`` (self-attention while generating), the keys and values of ``context`` are
        appended to those of the ``P`` positions before it, and the queries attend to all
        ``T_k = P + T`` of them: the mask must then be ``(T_q, P + T)``. With a fixed cache
        (cross-attention while generating), the source's keys and values are computed from
        ``context`` on the first call and reused, without projecting ``context`` again, afterwards. ``is_causal`` adds
        the causal mask (see :func:`scaled_dot_product_attention`). ``score_bias`` (float, broadcastable to
        ``(B, h, T_q, T_k)``, e.g. T5's relative position bias) is added to every head's scores.
        """
        context = x if context is None else context
        for name, t in (("x", x), ("context", context)):
            if t.ndim != 3 or t.shape[-1] != self.d_model:
                raise ValueError(f"{name} must have shape (B, T, d_model={self.d_model}), got {tuple(t.shape)}")
        if context.shape[0] != x.shape[0]:
            raise ValueError(f"x and context have different batch sizes: {x.shape[0]} and {context.shape[0]}")
        if mask is not None and mask.ndim == 3:
            mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k): the same mask for every head
        if self.rotary is not None and context is not x:
            raise ValueError(
                "rotary positions are for self-attention: a cross-attention's "
                "keys have no positions in the queries' text"
            )
        if cache is not None and cache.fixed and cache.k is not None and cache.v is not None:
            if cache.k.shape[0] != x.shape[0] or cache.k.shape[-2] != context.shape[1]:
                raise ValueError(
                    f"the fixed cache holds a source of {cache.k.shape[-2]} positions for "
                    f"a batch of {cache.k.shape[0]}, got context {tuple(context.shape)}"
                )
            q = split_heads(self.q_proj(x), self.n_heads)  # (B, h, T_q, d_head)
            k, v = cache.k, cache.v  # (B, h_kv, S, d_head): computed on the first step
            cache = None
        elif context is x:  # self-attention: one matrix product for the three projections
            # (B, T, h d_head or h_kv d_head)
            q_, k_, v_ = fused_projections((self.q_proj, self.k_proj, self.v_proj), x)
            q, k, v = (
                split_heads(q_, self.n_heads),
                split_heads(k_, self.n_kv_heads),
                split_heads(v_, self.n_kv_heads),
            )  # (B, h or h_kv, T, d_head)
        else:
            q = split_heads(self.q_proj(x), self.n_heads)  # (B, h, T_q, d_head)
            k = split_heads(self.k_proj(context), self.n_kv_heads)  # (B, h_kv, T_k, d_head)
            v = split_heads(self.v_proj(context), self.n_kv_heads)  # (B, h_kv, T_k, d_head)
        if self.rotary is not None:
            q, k = self.rotary(q, k, offset=0 if cache is None else cache.length)
        if cache is not None:
            k, v = cache.append(k, v)  # (B, h_kv, P + T_k, d_head)
        if self.n_kv_heads != self.n_heads:  # each key/value head serves n_heads / n_kv_heads query heads in a row
            k, v = (t.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1) for t in (k, v))  # (B, h, T_k, d_head)
        dropout_p = self.dropout if self.training else 0.0
        out, weights = scaled_dot_product_attention(
            q,
            k,
            v,
            mask,
            dropout_p=dropout_p,
            need_weights=need_weights,
            is_causal=is_causal,
            scale=self.scale,
            score_bias=score_bias,
        )
        return self.out_proj(merge_heads(out)), weights  # (B, T_q, d_model)


# ------------------------------------------------------------------ looking inside a model


@contextmanager
def recorded_attention(model: nn.Module) -> Iterator[dict[str, Tensor]]:
    """Record the weights of every :class:`MultiHeadAttention` inside ``model`` while active.

    Yields a dict that each forward pass fills: the module's name (as in ``model.named_modules()``,
    e.g. ``"blocks.0.self_attn"``) -> its weights ``(B, h, T_q, T_k)`` from its latest call, detached.
    While recording, the modules compute their weights explicitly (``need_weights=True``) instead of
    through the fused kernel; their outputs are the same up to rounding.
    """
    weights: dict[str, Tensor] = {}
    handles = []
    for name, module in model.named_modules():
        if isinstance(module, MultiHeadAttention):
            handles.append(module.register_forward_pre_hook(_ask_for_weights, with_kwargs=True))
            handles.append(module.register_forward_hook(partial(_keep_weights, weights, name)))
    try:
        yield weights
    finally:
        for handle in handles:
            handle.remove()


def _ask_for_weights(module: nn.Module, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    return args, kwargs | {"need_weights": True}


def _keep_weights(
    weights: dict[str, Tensor], name: str, module: nn.Module, args: tuple, output: tuple[Tensor, Tensor]
) -> None:
    weights[name] = output[1].detach()
