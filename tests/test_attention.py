"""course_lib.attention against independent oracles: torch's fused attention and nn.MultiheadAttention."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from course_lib.attention import (
    AdditiveAttention,
    KVCache,
    MultiHeadAttention,
    additive_attention_scores,
    causal_mask,
    combine_masks,
    merge_heads,
    padding_mask,
    recorded_attention,
    scaled_dot_product_attention,
    split_heads,
)

ATOL = 1e-5


@pytest.fixture(autouse=True)
def seed() -> None:
    torch.manual_seed(1234)


def random_mask(*shape: int) -> torch.Tensor:
    """A random boolean mask in which every query row keeps at least one key."""
    mask = torch.rand(*shape) < 0.5
    mask[..., 0] = True
    return mask[..., torch.randperm(shape[-1])]


def torch_weights(q: torch.Tensor, k: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Attention weights from torch's own kernel: attend over the identity matrix as values."""
    batch = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    eye = torch.eye(k.shape[-2]).expand(*batch, k.shape[-2], k.shape[-2])
    return F.scaled_dot_product_attention(q, k, eye, attn_mask=mask)


# ------------------------------------------------------------------- scaled dot-product attention

SDPA_CASES = [
    # q shape, T_k, d_v, mask shape (None: no mask)
    ((2, 4, 8), 6, 5, None),
    ((1, 1, 3), 1, 2, None),  # batch of 1, one query, one key
    ((2, 3, 5, 8), 7, 4, (2, 3, 5, 7)),  # per-head mask
    ((2, 3, 6, 4), 6, 4, (6, 6)),  # one mask for every batch element and head
    ((3, 5, 7), 9, 3, (3, 1, 9)),  # key padding, broadcast over queries
    ((5, 11), 13, 6, (5, 13)),  # no batch axis at all, odd sizes
]


@pytest.mark.parametrize("q_shape, T_k, d_v, mask_shape", SDPA_CASES)
@pytest.mark.parametrize("need_weights", [True, False])
def test_sdpa_matches_torch(
    q_shape: tuple[int, ...], T_k: int, d_v: int, mask_shape: tuple[int, ...] | None, need_weights: bool
) -> None:
    q = torch.randn(q_shape)
    k = torch.randn(*q_shape[:-2], T_k, q_shape[-1])
    v = torch.randn(*q_shape[:-2], T_k, d_v)
    mask = random_mask(*mask_shape) if mask_shape else None
    out, weights = scaled_dot_product_attention(q, k, v, mask, need_weights=need_weights)
    torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask), atol=ATOL, rtol=1e-4)
    if need_weights:
        torch.testing.assert_close(weights, torch_weights(q, k, mask), atol=ATOL, rtol=1e-4)
        assert bool((weights[mask.expand_as(weights).logical_not()] == 0).all()) if mask is not None else True
    else:
        assert weights is None


@pytest.mark.parametrize("need_weights", [True, False])
def test_fully_masked_query_gives_zeros_and_finite_gradients(need_weights: bool) -> None:
    q = torch.randn(2, 4, 8, requires_grad=True)
    k, v = torch.randn(2, 5, 8), torch.randn(2, 5, 3)
    mask = random_mask(2, 4, 5)
    mask[:, 1] = False  # query 1 may attend nothing
    out, weights = scaled_dot_product_attention(q, k, v, mask, need_weights=need_weights)
    assert bool((out[:, 1] == 0).all())
    if need_weights:
        assert bool((weights[:, 1] == 0).all())
        torch.testing.assert_close(weights[:, [0, 2, 3]].sum(-1), torch.ones(2, 3))
    keep = [0, 2, 3]
    torch.testing.assert_close(out[:, keep], F.scaled_dot_product_attention(q[:, keep], k, v, attn_mask=mask[:, keep]))
    out.sum().backward()
    assert bool(torch.isfinite(q.grad).all())


def test_scores_are_scaled_by_sqrt_d() -> None:
    q, k = torch.randn(1, 3, 16), torch.randn(1, 4, 16)
    _, weights = scaled_dot_product_attention(q, k, torch.randn(1, 4, 2))
    torch.testing.assert_close(weights, torch.softmax(q @ k.transpose(1, 2) / 4.0, dim=-1))


def test_dropout_drops_weights_and_rescales_the_rest() -> None:
    q, k, v = torch.randn(2, 6, 8), torch.randn(2, 6, 8), torch.randn(2, 6, 4)
    _, plain = scaled_dot_product_attention(q, k, v)
    out, dropped = scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    kept = dropped != 0
    assert 0 < kept.float().mean() < 1
    torch.testing.assert_close(dropped[kept], 2 * plain[kept])
    torch.testing.assert_close(out, dropped @ v)


# ----------------------------------------------------------------------------------------- masks


@pytest.mark.parametrize("T", [1, 2, 7])
def test_causal_mask_is_lower_triangle(T: int) -> None:
    mask = causal_mask(T)
    assert mask.dtype == torch.bool
    assert torch.equal(mask, torch.ones(T, T).tril().bool())


def test_causal_mask_for_the_last_queries() -> None:
    assert torch.equal(causal_mask(2, 5), causal_mask(5)[-2:])


def test_padding_mask() -> None:
    mask = padding_mask(torch.tensor([3, 0, 5]), 5)
    assert mask.shape == (3, 1, 5) and mask.dtype == torch.bool
    assert mask.sum().item() == 8
    assert torch.equal(mask[:, 0], torch.tensor([[1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]]).bool())


def test_padding_mask_matches_torch_key_padding() -> None:
    """Padded keys get no weight, exactly as with nn.MultiheadAttention's key_padding_mask."""
    lengths = torch.tensor([4, 2, 6])
    q, k, v = torch.randn(3, 5, 8), torch.randn(3, 6, 8), torch.randn(3, 6, 8)
    out, _ = scaled_dot_product_attention(q, k, v, padding_mask(lengths, 6))
    key_padding = torch.arange(6)[None, :] >= lengths[:, None]  # torch: True = ignore
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=~key_padding[:, None, :])
    torch.testing.assert_close(out, expected)


def test_combine_masks() -> None:
    combined = combine_masks(causal_mask(4), None, padding_mask(torch.tensor([4, 2]), 4))
    assert combined.shape == (2, 4, 4)
    assert torch.equal(combined[0], causal_mask(4))
    assert torch.equal(combined[1], causal_mask(4) & torch.tensor([1, 1, 0, 0]).bool())
    assert combine_masks(None, None) is None


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: padding_mask(torch.tensor([3, 7]), 5), "lengths must lie in"),
        (lambda: padding_mask(torch.tensor([[3]]), 5), "lengths must have shape"),
        (lambda: causal_mask(5, 3), "T_q <= T_k"),
        (lambda: combine_masks(causal_mask(3), torch.ones(3, 3)), "boolean"),
    ],
)
def test_mask_errors(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------------------------------------------------------ split and merge


def test_split_heads_gives_each_head_a_contiguous_slice() -> None:
    x = torch.randn(2, 5, 12)
    heads = split_heads(x, 3)
    assert heads.shape == (2, 3, 5, 4)
    for i in range(3):
        assert torch.equal(heads[:, i], x[:, :, 4 * i : 4 * (i + 1)])
    assert torch.equal(merge_heads(heads), x)


def test_split_heads_rejects_indivisible_width() -> None:
    with pytest.raises(ValueError, match="d_model=10 is not divisible by n_heads=3"):
        split_heads(torch.randn(1, 2, 10), 3)


# ------------------------------------------------------------------------- multi-head attention


def torch_mha_from(ours: MultiHeadAttention) -> nn.MultiheadAttention:
    """nn.MultiheadAttention holding the same weights as ``ours``."""
    bias = ours.q_proj.bias is not None
    theirs = nn.MultiheadAttention(ours.d_model, ours.n_heads, bias=bias, batch_first=True)
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        theirs.out_proj.weight.copy_(ours.out_proj.weight)
        if bias:
            theirs.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
            theirs.out_proj.bias.copy_(ours.out_proj.bias)
    return theirs.eval()


MHA_CASES = [
    # B, T_q, T_k, d_model, n_heads, cross, mask kind, bias
    (2, 5, 5, 16, 4, False, None, True),
    (1, 1, 1, 8, 2, False, None, True),  # batch of 1, a single token
    (2, 6, 6, 12, 3, False, "causal", True),
    (3, 4, 7, 12, 2, True, None, False),  # cross-attention, odd lengths
    (2, 5, 7, 20, 5, True, "padding", True),
    (4, 4, 6, 16, 4, True, "per-example", True),  # batch size equal to the number of heads
    (2, 3, 3, 6, 1, False, "padding", False),  # one head
]


@pytest.mark.parametrize("B, T_q, T_k, d_model, n_heads, cross, mask_kind, bias", MHA_CASES)
def test_mha_matches_torch(
    B: int, T_q: int, T_k: int, d_model: int, n_heads: int, cross: bool, mask_kind: str | None, bias: bool
) -> None:
    ours = MultiHeadAttention(d_model, n_heads, bias=bias).eval()
    theirs = torch_mha_from(ours)
    x = torch.randn(B, T_q, d_model)
    context = torch.randn(B, T_k, d_model) if cross else None
    kv = context if cross else x
    mask, kwargs = None, {}
    if mask_kind == "causal":
        mask = causal_mask(T_q)
        kwargs = {"attn_mask": ~mask}  # torch: True = may NOT attend
    elif mask_kind == "padding":
        mask = random_mask(B, 1, T_k)
        kwargs = {"key_padding_mask": ~mask[:, 0]}
    elif mask_kind == "per-example":
        mask = random_mask(B, T_q, T_k)
        kwargs = {"attn_mask": (~mask).repeat_interleave(n_heads, dim=0)}
    out, weights = ours(x, context, mask, need_weights=True)
    expected, expected_weights = theirs(x, kv, kv, need_weights=True, average_attn_weights=False, **kwargs)
    torch.testing.assert_close(out, expected, atol=ATOL, rtol=1e-4)
    torch.testing.assert_close(weights, expected_weights, atol=ATOL, rtol=1e-4)
    fast, none = ours(x, context, mask)
    assert none is None
    torch.testing.assert_close(fast, expected, atol=ATOL, rtol=1e-4)


def test_mha_fully_padded_sequence() -> None:
    """torch gives NaN for an all-padding sequence; we give the output projection of zero, its bias."""
    ours = MultiHeadAttention(8, 2).eval()
    theirs = torch_mha_from(ours)
    x, memory = torch.randn(3, 4, 8), torch.randn(3, 5, 8)
    mask = padding_mask(torch.tensor([5, 0, 2]), 5)
    out, _ = ours(x, memory, mask)
    expected, _ = theirs(x, memory, memory, key_padding_mask=~mask[:, 0])
    torch.testing.assert_close(out[[0, 2]], expected[[0, 2]])
    torch.testing.assert_close(out[1], ours.out_proj.bias.expand(4, 8))
    assert bool(torch.isfinite(out).all())


def test_mha_dropout_only_in_training() -> None:
    mha = MultiHeadAttention(16, 4, dropout=0.5)
    x = torch.randn(2, 6, 16)
    mha.eval()
    assert torch.equal(mha(x)[0], mha(x)[0])
    mha.train()
    assert not torch.equal(mha(x)[0], mha(x)[0])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: MultiHeadAttention(10, 3), "d_model=10 is not divisible by n_heads=3"),
        (lambda: MultiHeadAttention(8, 2)(torch.randn(2, 3, 6)), r"x must have shape \(B, T, d_model=8\)"),
        (lambda: MultiHeadAttention(8, 2)(torch.randn(2, 3, 8), torch.randn(3, 4, 8)), "different batch sizes"),
        (lambda: MultiHeadAttention(8, 2)(torch.randn(2, 3, 8), mask=causal_mask(4)), "does not broadcast"),
        (lambda: MultiHeadAttention(8, 2)(torch.randn(2, 3, 8), mask=torch.ones(3, 3)), "must be boolean"),
        (
            lambda: scaled_dot_product_attention(torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 6, 4)),
            "same length T_k",
        ),
        (
            lambda: scaled_dot_product_attention(torch.randn(2, 3, 4), torch.randn(2, 5, 6), torch.randn(2, 5, 4)),
            "same width d_k",
        ),
        (
            lambda: scaled_dot_product_attention(
                torch.randn(3, 4), torch.randn(5, 4), torch.randn(5, 2), torch.ones(3, 4).bool()
            ),
            "does not broadcast",
        ),
        (
            lambda: scaled_dot_product_attention(
                torch.randn(3, 4), torch.randn(5, 4), torch.randn(5, 2), torch.ones(1, 1, 3, 5).bool()
            ),
            "more dimensions",
        ),
    ],
)
def test_bad_input_is_named(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# ----------------------------------------------------------------------------- additive attention


def test_additive_scores_follow_the_definition() -> None:
    query, keys = torch.randn(2, 3, 5), torch.randn(2, 4, 6)
    W_q, W_k, w = torch.randn(5, 7), torch.randn(6, 7), torch.randn(7)
    scores = additive_attention_scores(query, keys, W_q, W_k, w)
    assert scores.shape == (2, 3, 4)
    for b in range(2):
        for n in range(3):
            for i in range(4):
                expected = w @ torch.tanh(query[b, n] @ W_q + keys[b, i] @ W_k)
                torch.testing.assert_close(scores[b, n, i], expected)


def test_additive_attention_module() -> None:
    attention = AdditiveAttention(d_q=5, d_k=6, d_attn=7)
    query, keys, values = torch.randn(2, 3, 5), torch.randn(2, 4, 6), torch.randn(2, 4, 2)
    mask = padding_mask(torch.tensor([4, 2]), 4)
    context, weights = attention(query, keys, values, mask)
    expected = torch.softmax(
        additive_attention_scores(query, keys, attention.W_q, attention.W_k, attention.w).masked_fill(~mask, -math.inf),
        -1,
    )
    torch.testing.assert_close(weights, expected)
    torch.testing.assert_close(context, expected @ values)
    with pytest.raises(ValueError, match="same length"):
        attention(query, keys, values[:, :3])
    with pytest.raises(ValueError, match="do not match"):
        additive_attention_scores(query, keys, torch.randn(4, 7), torch.randn(6, 7), torch.randn(7))


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize(("T_q", "T_k"), [(6, 6), (2, 6)])
def test_is_causal_equals_the_explicit_causal_mask(need_weights: bool, T_q: int, T_k: int) -> None:
    torch.manual_seed(0)
    q, k, v = torch.randn(2, 3, T_q, 8), torch.randn(2, 3, T_k, 8), torch.randn(2, 3, T_k, 8)
    padding = padding_mask(torch.tensor([T_k, T_k - 2]), T_k).unsqueeze(1)  # (B, 1, 1, T_k)
    for mask in (None, padding):
        explicit = causal_mask(T_q, T_k) if mask is None else causal_mask(T_q, T_k) & mask
        expected, _ = scaled_dot_product_attention(q, k, v, explicit, need_weights=True)
        got, weights = scaled_dot_product_attention(q, k, v, mask, need_weights=need_weights, is_causal=True)
        torch.testing.assert_close(got, expected, atol=1e-6, rtol=1e-5)
        assert (weights is not None) == need_weights


def test_recorded_attention_records_every_attention_of_a_model_without_changing_its_output() -> None:
    from course_lib.blocks import BlockConfig, Encoder

    encoder = Encoder(2, BlockConfig(16, 4, 32, arrangement="pre_ln")).eval()
    x = torch.randn(3, 5, 16)
    lengths = torch.tensor([5, 3, 1])
    mask = padding_mask(lengths, 5)
    expected = encoder(x, mask)
    with recorded_attention(encoder) as weights:
        out = encoder(x, mask)
    assert torch.allclose(out, expected, atol=ATOL)
    assert sorted(weights) == ["layers.0.self_attn", "layers.1.self_attn"]
    for w in weights.values():
        assert w.shape == (3, 4, 5, 5) and not w.requires_grad
        assert torch.allclose(w.sum(-1), torch.ones(3, 4, 5), atol=ATOL)
        assert (w[1, :, :, 3:] == 0).all() and (w[2, :, :, 1:] == 0).all()  # padding gets no weight
    # the first layer's weights are those of its attention on its (normalised) input
    block = encoder.layers[0]
    _, direct = block.self_attn(block.norm1(x), mask=mask.unsqueeze(1), need_weights=True)
    assert torch.allclose(weights["layers.0.self_attn"], direct, atol=ATOL)
    # the hooks are gone afterwards
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in encoder.modules())


def _reference(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    scale: float,
    score_bias: torch.Tensor | None,
    mask: torch.Tensor | None,
) -> torch.Tensor:
    """softmax(q k^T * scale + bias) v written out, fully masked rows giving 0."""
    scores = q @ k.transpose(-2, -1) * scale + (0 if score_bias is None else score_bias)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    return weights @ v


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("scale", [None, 1.0, 0.3])
def test_scale_and_score_bias_on_both_paths(need_weights: bool, scale: float | None) -> None:
    B, h, T_q, T_k, d = 2, 3, 5, 7, 4
    q, k, v = torch.randn(B, h, T_q, d), torch.randn(B, h, T_k, d), torch.randn(B, h, T_k, 6)
    score_bias = torch.randn(1, h, T_q, T_k)  # T5's relative position bias: one per head, shared by the batch
    # (B, 1, T_q, T_k)
    mask = padding_mask(torch.tensor([7, 3]), T_k).unsqueeze(1) & torch.ones(T_q, T_k, dtype=torch.bool)
    mask[1, :, 2] = False  # a query that may see nothing: zeros, not NaN
    expected_scale = 1 / math.sqrt(d) if scale is None else scale
    for b, m in [(None, None), (score_bias, None), (score_bias, mask), (None, mask)]:
        out, _ = scaled_dot_product_attention(q, k, v, m, need_weights=need_weights, scale=scale, score_bias=b)
        torch.testing.assert_close(out, _reference(q, k, v, expected_scale, b, m), atol=ATOL, rtol=ATOL)
    # with the causal mask too (the fused shortcut must not drop the bias)
    q2, k2, v2 = torch.randn(B, h, 6, d), torch.randn(B, h, 6, d), torch.randn(B, h, 6, d)
    bias2 = torch.randn(1, h, 6, 6)
    out, _ = scaled_dot_product_attention(
        q2, k2, v2, need_weights=need_weights, is_causal=True, scale=scale, score_bias=bias2
    )
    torch.testing.assert_close(out, _reference(q2, k2, v2, expected_scale, bias2, causal_mask(6)), atol=ATOL, rtol=ATOL)


def test_a_score_bias_that_does_not_fit_is_refused() -> None:
    q = k = v = torch.randn(2, 3, 5, 4)
    with pytest.raises(ValueError, match="float tensor"):
        scaled_dot_product_attention(q, k, v, score_bias=torch.ones(1, 3, 5, 5, dtype=torch.bool))
    with pytest.raises(ValueError, match="does not broadcast"):
        scaled_dot_product_attention(q, k, v, score_bias=torch.zeros(1, 4, 5, 5))
    with pytest.raises(ValueError, match="does not broadcast"):  # broadcasting would grow the scores
        scaled_dot_product_attention(q, k, v, score_bias=torch.zeros(3, 3, 5, 5))


def test_heads_of_their_own_width_with_t5_scaling_and_bias() -> None:
    """d_head independent of d_model / n_heads (T5's d_kv), no 1/sqrt(d_head), a per-head bias:
    against the computation written out from the module's own weights."""
    d_model, n_heads, d_head = 10, 3, 4
    mha = MultiHeadAttention(d_model, n_heads, d_head=d_head, scale=1.0, bias=False)
    assert mha.q_proj.weight.shape == (12, 10) and mha.out_proj.weight.shape == (10, 12)
    x, context = torch.randn(2, 5, d_model), torch.randn(2, 7, d_model)
    score_bias = torch.randn(1, n_heads, 5, 5)
    for ctx, b, T_k in [(None, score_bias, 5), (context, None, 7)]:
        source = x if ctx is None else ctx
        q = (x @ mha.q_proj.weight.T).view(2, 5, n_heads, d_head).transpose(1, 2)
        k = (source @ mha.k_proj.weight.T).view(2, T_k, n_heads, d_head).transpose(1, 2)
        v = (source @ mha.v_proj.weight.T).view(2, T_k, n_heads, d_head).transpose(1, 2)
        expected = _reference(q, k, v, 1.0, b, None).transpose(1, 2).reshape(2, 5, 12) @ mha.out_proj.weight.T
        for need_weights in (True, False):
            out, _ = mha(x, ctx, need_weights=need_weights, score_bias=b)
            torch.testing.assert_close(out, expected, atol=ATOL, rtol=ATOL)
    with pytest.raises(ValueError, match="not divisible"):
        MultiHeadAttention(10, 3)
    with pytest.raises(ValueError, match="d_head must be positive"):
        MultiHeadAttention(10, 3, d_head=0)


class _LowRank(nn.Module):
    """A LoRA-style wrapper: the frozen linear layer plus a low-rank update (a stand-in for peft's)."""

    def __init__(self, base: nn.Linear, rank: int = 2) -> None:
        super().__init__()
        self.base = base
        self.down = nn.Parameter(torch.randn(rank, base.in_features))
        self.up = nn.Parameter(torch.randn(base.out_features, rank))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + x @ self.down.T @ self.up.T


def test_wrapped_or_hooked_projections_take_effect_in_self_and_cross_attention() -> None:
    mha = MultiHeadAttention(8, 2).eval()
    x, context = torch.randn(2, 5, 8), torch.randn(2, 6, 8)
    plain_self, plain_cross = mha(x)[0], mha(x, context)[0]
    mha.q_proj = _LowRank(mha.q_proj)  # type: ignore[assignment]
    mha.v_proj = _LowRank(mha.v_proj)  # type: ignore[assignment]
    for ctx in (None, context):
        source = x if ctx is None else context
        q = split_heads(mha.q_proj(x), 2)
        k = split_heads(mha.k_proj(source), 2)
        v = split_heads(mha.v_proj(source), 2)
        expected = mha.out_proj(merge_heads(torch.softmax(q @ k.transpose(-2, -1) / 2.0, -1) @ v))
        torch.testing.assert_close(mha(x, ctx)[0], expected, atol=ATOL, rtol=ATOL)
    assert not torch.allclose(mha(x)[0], plain_self) and not torch.allclose(mha(x, context)[0], plain_cross)
    calls: list[tuple[int, ...]] = []
    mha.k_proj.register_forward_hook(lambda module, args, out: calls.append(tuple(out.shape)))
    mha(x)
    mha(x, context)
    assert calls == [(2, 5, 8), (2, 6, 8)], "a hook on k_proj must fire in self- and cross-attention"


def test_a_fixed_cache_projects_the_source_once_and_gives_the_uncached_outputs() -> None:
    mha = MultiHeadAttention(8, 2).eval()
    memory = torch.randn(2, 6, 8)  # the encoder's output
    steps = [torch.randn(2, 1, 8) for _ in range(4)]  # one decoder position per generation step
    uncached = [mha(x, memory)[0] for x in steps]
    projected: list[int] = []
    mha.k_proj.register_forward_hook(lambda module, args, out: projected.append(out.shape[1]))
    cache = KVCache(fixed=True)
    for x, expected in zip(steps, uncached):
        torch.testing.assert_close(mha(x, memory, cache=cache)[0], expected, atol=ATOL, rtol=ATOL)
    assert projected == [6], "the source is projected on the first step only"
    assert cache.length == 6
    with pytest.raises(ValueError, match="fixed cache holds a source of 6 positions"):
        mha(steps[0], torch.randn(2, 5, 8), cache=cache)
    with pytest.raises(ValueError, match="nothing is appended"):
        cache.append(torch.randn(2, 2, 1, 4), torch.randn(2, 2, 1, 4))
