"""course_lib.blocks against torch's own modules with the same weights copied in.

Oracles: ``nn.LayerNorm``, ``nn.RMSNorm``, ``nn.TransformerEncoderLayer`` /
``nn.TransformerDecoderLayer`` (``norm_first=False`` is post-LN, ``True`` pre-LN) and
``nn.Transformer``, all in eval mode with dropout 0 and torch's fast path off (it zeroes padded
positions, which our blocks leave as computed).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import torch
from torch import Tensor, nn

from course_lib.attention import KVCache, MultiHeadAttention, padding_mask
from course_lib.blocks import (
    BlockConfig,
    Decoder,
    DecoderBlock,
    Encoder,
    EncoderBlock,
    EncoderDecoder,
    FeedForward,
    LayerNorm,
    LearnedPositions,
    RMSNorm,
    SinusoidalPositions,
    sinusoidal_encoding,
)

ATOL = 1e-5


@pytest.fixture(autouse=True)
def _no_fast_path():
    torch.backends.mha.set_fastpath_enabled(False)
    yield
    torch.backends.mha.set_fastpath_enabled(True)


def randomize(module: nn.Module, seed: int) -> None:
    """Non-trivial values everywhere (norm gains and biases too), so a swapped weight shows."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in module.named_parameters():
            gain = p.ndim == 1 and name.endswith("weight")  # a norm's gain: around 1
            p.copy_(torch.randn(p.shape, generator=g) * (0.2 if p.ndim == 1 else 0.5) + (1.0 if gain else 0.0))


def copy_mha(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        theirs.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
        theirs.out_proj.weight.copy_(ours.out_proj.weight)
        theirs.out_proj.bias.copy_(ours.out_proj.bias)


def copy_norm(ours: LayerNorm, theirs: nn.LayerNorm) -> None:
    with torch.no_grad():
        theirs.weight.copy_(ours.weight)
        theirs.bias.copy_(ours.bias)


def copy_ff(ours: FeedForward, theirs: nn.Module) -> None:
    with torch.no_grad():
        for name in ("linear1", "linear2"):
            getattr(theirs, name).weight.copy_(getattr(ours, name).weight)
            getattr(theirs, name).bias.copy_(getattr(ours, name).bias)


def copy_encoder_layer(ours: EncoderBlock, theirs: nn.TransformerEncoderLayer) -> None:
    copy_mha(ours.self_attn, theirs.self_attn)
    copy_ff(ours.ff, theirs)
    copy_norm(ours.norm1, theirs.norm1)
    assert ours.norm2 is not None
    copy_norm(ours.norm2, theirs.norm2)


def copy_decoder_layer(ours: DecoderBlock, theirs: nn.TransformerDecoderLayer) -> None:
    assert ours.cross_attn is not None and ours.norm2 is not None and ours.norm3 is not None
    copy_mha(ours.self_attn, theirs.self_attn)
    copy_mha(ours.cross_attn, theirs.multihead_attn)
    copy_ff(ours.ff, theirs)
    for a, b in ((ours.norm1, theirs.norm1), (ours.norm2, theirs.norm2), (ours.norm3, theirs.norm3)):
        copy_norm(a, b)


def torch_causal(T: int) -> Tensor:
    return torch.ones(T, T, dtype=torch.bool).triu(1)  # torch's convention: True = may not attend


# ------------------------------------------------------------------------------------ norms


@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("shape", [(2, 5, 8), (7, 3), (1, 1, 1, 16)])
def test_layernorm_equals_torch(shape: tuple[int, ...], fused: bool) -> None:
    d = shape[-1]
    ours, theirs = LayerNorm(d, fused=fused), nn.LayerNorm(d)
    randomize(ours, 0)
    copy_norm(ours, theirs)
    x = torch.randn(*shape) * 3 + 1
    torch.testing.assert_close(ours(x), theirs(x), atol=ATOL, rtol=1e-5)


def test_layernorm_uses_biased_variance_and_eps_inside_the_root() -> None:
    x = torch.tensor([[1.0, 3.0]])  # mean 2, biased variance 1
    ln = LayerNorm(2, eps=3.0)
    expected = torch.tensor([[-1.0, 1.0]]) / math.sqrt(1.0 + 3.0)
    torch.testing.assert_close(ln(x), expected)


def test_layernorm_gradients_are_right() -> None:
    ln = LayerNorm(6).double()
    randomize(ln, 1)
    x = torch.randn(3, 6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(ln, (x,))


def test_rmsnorm_equals_torch() -> None:
    ours, theirs = RMSNorm(12, eps=1e-6), nn.RMSNorm(12, eps=1e-6)
    randomize(ours, 2)
    with torch.no_grad():
        theirs.weight.copy_(ours.weight)
    x = torch.randn(4, 5, 12)
    torch.testing.assert_close(ours(x), theirs(x), atol=ATOL, rtol=1e-5)


def test_norms_name_a_wrong_width() -> None:
    with pytest.raises(ValueError, match="last dimension is 8"):
        LayerNorm(8)(torch.randn(2, 7))
    with pytest.raises(ValueError, match="last dimension is 8"):
        RMSNorm(8)(torch.randn(2, 7))


# ---------------------------------------------------------------------------- feed-forward


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_feedforward_is_linear_act_linear(activation: str) -> None:
    ff = FeedForward(6, 10, activation)  # type: ignore[arg-type]
    x = torch.randn(2, 3, 6)
    act = torch.relu if activation == "relu" else nn.functional.gelu
    expected = act(x @ ff.linear1.weight.T + ff.linear1.bias) @ ff.linear2.weight.T + ff.linear2.bias
    torch.testing.assert_close(ff(x), expected)
    with pytest.raises(ValueError, match="activation"):
        FeedForward(6, 10, "tanh")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- positions


def test_sinusoidal_encoding_follows_the_formula() -> None:
    T, d = 50, 16
    pe = sinusoidal_encoding(T, d)
    for t in (0, 1, 7, 49):
        for i in range(d // 2):
            angle = t / 10000 ** (2 * i / d)
            assert pe[t, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-5)
            assert pe[t, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-5)
    with pytest.raises(ValueError, match="even d_model"):
        sinusoidal_encoding(4, 5)


@pytest.mark.parametrize("positions", [SinusoidalPositions, LearnedPositions])
def test_positions_add_one_vector_per_position_and_refuse_long_inputs(positions: type) -> None:
    module = positions(10, 8)
    x = torch.zeros(2, 6, 8)
    out = module(x)
    assert out.shape == (2, 6, 8)
    torch.testing.assert_close(out[0], out[1])  # the same for every sequence
    assert not torch.allclose(out[0, 0], out[0, 1])  # different for each position
    with pytest.raises(ValueError, match="longer than the 10 positions"):
        module(torch.zeros(1, 11, 8))


# ---------------------------------------------------------------------------------- blocks


@pytest.mark.parametrize("arrangement", ["post_ln", "pre_ln"])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_block_equals_torch(arrangement: str, activation: str) -> None:
    d_model, h, d_ff = 12, 3, 20
    ours = EncoderBlock(BlockConfig(d_model, h, d_ff, arrangement=arrangement, activation=activation)).eval()  # type: ignore[arg-type]
    theirs = nn.TransformerEncoderLayer(
        d_model, h, d_ff, dropout=0.0, activation=activation, batch_first=True, norm_first=arrangement == "pre_ln"
    ).eval()
    randomize(ours, 3)
    copy_encoder_layer(ours, theirs)
    x = torch.randn(3, 7, d_model)
    lengths = torch.tensor([7, 4, 1])
    torch.testing.assert_close(ours(x), theirs(x), atol=ATOL, rtol=1e-4)
    torch.testing.assert_close(
        ours(x, padding_mask(lengths, 7)),
        theirs(x, src_key_padding_mask=~padding_mask(lengths, 7)[:, 0]),
        atol=ATOL,
        rtol=1e-4,
    )


@pytest.mark.parametrize("arrangement", ["post_ln", "pre_ln"])
def test_decoder_block_equals_torch(arrangement: str) -> None:
    d_model, h, d_ff = 8, 2, 16
    ours = DecoderBlock(BlockConfig(d_model, h, d_ff, arrangement=arrangement)).eval()  # type: ignore[arg-type]
    theirs = nn.TransformerDecoderLayer(
        d_model, h, d_ff, dropout=0.0, batch_first=True, norm_first=arrangement == "pre_ln"
    ).eval()
    randomize(ours, 4)
    copy_decoder_layer(ours, theirs)
    x, memory = torch.randn(2, 5, d_model), torch.randn(2, 6, d_model)
    src = padding_mask(torch.tensor([6, 2]), 6)  # (B, 1, S)
    expected = theirs(x, memory, tgt_mask=torch_causal(5), memory_key_padding_mask=~src[:, 0])
    torch.testing.assert_close(ours(x, memory, src), expected, atol=ATOL, rtol=1e-4)


def test_decoder_block_is_causal_and_reads_memory() -> None:
    block = DecoderBlock(BlockConfig(8, 2, 16)).eval()
    randomize(block, 5)
    x, memory = torch.randn(1, 6, 8), torch.randn(1, 4, 8)
    out = block(x, memory)
    changed_future = x.clone()
    changed_future[:, 4:] += 1.0
    torch.testing.assert_close(block(changed_future, memory)[:, :4], out[:, :4])  # the past ignores the future
    assert not torch.allclose(block(x, memory + 1.0), out)  # cross-attention reads the memory


def test_parallel_block_adds_both_branches_of_one_norm() -> None:
    block = EncoderBlock(BlockConfig(8, 2, 16, arrangement="parallel")).eval()
    randomize(block, 6)
    x = torch.randn(2, 5, 8)
    h = block.norm1(x)
    torch.testing.assert_close(block(x), x + block.self_attn(h)[0] + block.ff(h))
    decoder_only = DecoderBlock(BlockConfig(8, 2, 16, arrangement="parallel"), cross_attention=False).eval()
    randomize(decoder_only, 7)
    h = decoder_only.norm1(x)
    causal = torch.ones(5, 5, dtype=torch.bool).tril()
    torch.testing.assert_close(decoder_only(x), x + decoder_only.self_attn(h, mask=causal)[0] + decoder_only.ff(h))


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize("arrangement", ["post_ln", "pre_ln"])
def test_encoder_decoder_equals_nn_transformer(arrangement: str) -> None:
    n, d_model, h, d_ff = 2, 8, 2, 24
    ours = EncoderDecoder(n, BlockConfig(d_model, h, d_ff, arrangement=arrangement)).eval()  # type: ignore[arg-type]
    theirs = nn.Transformer(
        d_model, h, n, n, d_ff, dropout=0.0, batch_first=True, norm_first=arrangement == "pre_ln"
    ).eval()
    randomize(ours, 8)
    for a, b in zip(ours.encoder.layers, theirs.encoder.layers):
        copy_encoder_layer(a, b)  # type: ignore[arg-type]
    for a, b in zip(ours.decoder.layers, theirs.decoder.layers):
        copy_decoder_layer(a, b)  # type: ignore[arg-type]
    copy_norm(ours.encoder.norm, theirs.encoder.norm)  # type: ignore[arg-type]
    copy_norm(ours.decoder.norm, theirs.decoder.norm)  # type: ignore[arg-type]
    src, tgt = torch.randn(3, 7, d_model), torch.randn(3, 5, d_model)
    src_mask = padding_mask(torch.tensor([7, 3, 5]), 7)
    tgt_mask = padding_mask(torch.tensor([5, 5, 2]), 5)
    expected = theirs(
        src,
        tgt,
        tgt_mask=torch_causal(5),
        src_key_padding_mask=~src_mask[:, 0],
        tgt_key_padding_mask=~tgt_mask[:, 0],
        memory_key_padding_mask=~src_mask[:, 0],
    )
    torch.testing.assert_close(ours(src, tgt, src_mask, tgt_mask), expected, atol=ATOL, rtol=1e-4)


def test_stacks_and_blocks_name_bad_configurations() -> None:
    with pytest.raises(ValueError, match="arrangement"):
        BlockConfig(8, 2, 16, arrangement="sandwich")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not divisible"):
        Encoder(1, BlockConfig(10, 3, 16))
    with pytest.raises(ValueError, match="parallel"):
        DecoderBlock(BlockConfig(8, 2, 16, arrangement="parallel"))
    with pytest.raises(ValueError, match="memory must be given"):
        Decoder(1, BlockConfig(8, 2, 16))(torch.randn(1, 3, 8), None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="last dimension is 8"):
        EncoderBlock(BlockConfig(8, 2, 16))(torch.randn(1, 3, 6))


def _copy_any_norm(ours: nn.Module, theirs: nn.Module) -> None:
    with torch.no_grad():
        theirs.weight.copy_(ours.weight)
        if getattr(theirs, "bias", None) is not None:
            theirs.bias.copy_(ours.bias)


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
@pytest.mark.parametrize(
    ("norm", "arrangement", "final_norm"),
    [("rms", "pre_ln", True), ("layer", "post_ln", False), ("rms", "post_ln", False)],
)
def test_stacks_take_the_norm_a_model_chooses_and_may_end_without_one(
    norm: str, arrangement: str, final_norm: bool
) -> None:
    """T5's RMSNorm, BERT's post-LN stack with no final norm and its eps: against nn.TransformerEncoder
    whose layers get torch's own nn.RMSNorm (or nn.LayerNorm with that eps), weights copied."""
    n, d, h, d_ff, eps = 2, 8, 2, 24, 1e-6
    ours = Encoder(
        n, BlockConfig(d, h, d_ff, arrangement=arrangement, norm=norm, norm_eps=eps, final_norm=final_norm)
    ).eval()  # type: ignore[arg-type]
    randomize(ours, 3)
    kind = nn.RMSNorm if norm == "rms" else nn.LayerNorm
    layer = nn.TransformerEncoderLayer(d, h, d_ff, dropout=0.0, batch_first=True, norm_first=arrangement == "pre_ln")
    theirs = nn.TransformerEncoder(
        layer, n, norm=kind(d, eps=eps) if final_norm else None, enable_nested_tensor=False
    ).eval()
    for a, b in zip(ours.layers, theirs.layers):
        b.norm1, b.norm2 = kind(d, eps=eps), kind(d, eps=eps)
        copy_mha(a.self_attn, b.self_attn)
        copy_ff(a.ff, b)
        _copy_any_norm(a.norm1, b.norm1)
        _copy_any_norm(a.norm2, b.norm2)
        assert isinstance(a.norm1, RMSNorm if norm == "rms" else LayerNorm) and a.norm1.eps == eps
    if final_norm:
        _copy_any_norm(ours.norm, theirs.norm)
    else:
        assert ours.norm is None
    x, mask = torch.randn(3, 7, d), padding_mask(torch.tensor([7, 3, 5]), 7)
    torch.testing.assert_close(ours(x, mask), theirs(x, src_key_padding_mask=~mask[:, 0]), atol=ATOL, rtol=1e-4)


def test_an_encoder_decoder_may_have_stacks_of_two_depths() -> None:
    model = EncoderDecoder(
        2, BlockConfig(8, 2, 16, arrangement="pre_ln", norm="rms", final_norm=False), n_decoder_layers=3
    )
    assert len(model.encoder.layers) == 2 and len(model.decoder.layers) == 3
    assert model.encoder.norm is None and model.decoder.norm is None
    assert all(
        isinstance(m, RMSNorm) for block in model.decoder.layers for m in (block.norm1, block.norm2, block.norm3)
    )
    assert model(torch.randn(2, 5, 8), torch.randn(2, 4, 8)).shape == (2, 4, 8)
    with pytest.raises(ValueError, match="norm must be one of"):
        BlockConfig(8, 2, 16, norm="batch")  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
def test_stacks_without_biases_equal_torchs() -> None:
    """bias=False drops every bias, in the projections, the feed-forward network and the norms (T5
    has none): against nn.TransformerEncoder built with bias=False, weights copied."""
    n, d, h, d_ff = 2, 8, 2, 24
    ours = Encoder(n, BlockConfig(d, h, d_ff, arrangement="pre_ln", bias=False)).eval()
    assert [name for name, _ in ours.named_parameters() if name.endswith("bias")] == []
    randomize(ours, 5)
    layer = nn.TransformerEncoderLayer(d, h, d_ff, dropout=0.0, batch_first=True, norm_first=True, bias=False)
    theirs = nn.TransformerEncoder(layer, n, norm=nn.LayerNorm(d, bias=False), enable_nested_tensor=False).eval()
    with torch.no_grad():
        for a, b in zip(ours.layers, theirs.layers):
            b.self_attn.in_proj_weight.copy_(
                torch.cat([a.self_attn.q_proj.weight, a.self_attn.k_proj.weight, a.self_attn.v_proj.weight])
            )
            b.self_attn.out_proj.weight.copy_(a.self_attn.out_proj.weight)
            b.linear1.weight.copy_(a.ff.linear1.weight)
            b.linear2.weight.copy_(a.ff.linear2.weight)
            b.norm1.weight.copy_(a.norm1.weight)
            b.norm2.weight.copy_(a.norm2.weight)
        theirs.norm.weight.copy_(ours.norm.weight)
    x, mask = torch.randn(3, 7, d), padding_mask(torch.tensor([7, 3, 5]), 7)
    torch.testing.assert_close(ours(x, mask), theirs(x, src_key_padding_mask=~mask[:, 0]), atol=ATOL, rtol=1e-4)
    for fused in (False, True):
        norm = LayerNorm(d, fused=fused, bias=False)
        torch.testing.assert_close(norm(x), nn.functional.layer_norm(x, (d,)), atol=ATOL, rtol=ATOL)


def test_a_block_config_with_the_rotary_hook_builds_llamas_block() -> None:
    """BlockConfig's position hook (rotary), with grouped-query attention, RMSNorm, SwiGLU and no biases,
    gives a pre-LN decoder block that computes Llama's: Llama's blocks are such blocks
    (tests/test_llama.py holds the model to Hugging Face's), the same outputs over a whole sequence
    and token by token through a cache, each position rotated by the hook. Cross-attention takes no rotary."""
    from course_lib.llama import Llama, LlamaConfig, block_config

    llama = LlamaConfig(vocab_size=11, n_layers=1, n_heads=4, n_kv_heads=2, d_model=24, d_ff=40, rope_base=500.0)
    shape = BlockConfig(
        24,
        4,
        40,
        activation="silu",
        gated=True,
        norm="rms",
        norm_eps=llama.norm_eps,
        bias=False,
        n_kv_heads=2,
        rotary_base=500.0,
    )
    assert block_config(llama) == shape
    theirs = Llama(llama).layers[0].eval()
    assert isinstance(theirs, DecoderBlock) and theirs.cross_attn is None
    randomize(theirs, 9)
    ours = DecoderBlock(shape, cross_attention=False).eval()
    ours.load_state_dict(theirs.state_dict())  # strict: the same submodules under the same names
    x = torch.randn(2, 7, 24)
    torch.testing.assert_close(ours(x), theirs(x), atol=ATOL, rtol=1e-4)
    cache = KVCache()
    stepped = torch.cat(
        [ours(x[:, :3], cache=cache)] + [ours(x[:, t : t + 1], cache=cache) for t in range(3, 7)], dim=1
    )
    # one position at a time through the cache sums in another order: float32 differs by a few 1e-6 (1.4e-5 once in CI)
    torch.testing.assert_close(stepped, theirs(x), atol=10 * ATOL, rtol=1e-4)
    without = DecoderBlock(replace(shape, rotary_base=None), cross_attention=False).eval()
    without.load_state_dict(theirs.state_dict())
    assert not torch.allclose(without(x), ours(x), atol=1e-3)  # the hook is what turns positions into scores
    both = DecoderBlock(replace(shape, arrangement="pre_ln"))
    assert both.self_attn.rotary is not None and both.cross_attn is not None and both.cross_attn.rotary is None
