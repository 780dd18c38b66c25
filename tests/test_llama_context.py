"""course_lib.llama.stretched, which chapter 7 uses to read a rotary model past its training length:
extrapolation keeps the model's function, position interpolation equals Hugging Face's "linear" rope
scaling, the NTK-aware base slows the slowest pair by the factor and leaves the fastest, and what cannot
stretch (a learned table, a shorter context, an unknown rule) is refused by name."""

from __future__ import annotations

import dataclasses

import pytest
import torch
from transformers import LlamaConfig as HFLlamaConfig
from transformers import LlamaForCausalLM

from course_lib.attention import RotaryEmbedding
from course_lib.convert import CheckpointMismatch
from course_lib.llama import Llama, LlamaConfig, hf_config_kwargs, stretched, to_hf_state_dict

SHORT = LlamaConfig(vocab_size=41, block_size=12, n_layers=2, n_heads=4, n_kv_heads=2, d_model=32, d_ff=40)


def trained_like(config: LlamaConfig = SHORT, seed: int = 0) -> Llama:
    """A model whose every tensor is random, so that no weight hides a wrong position."""
    torch.manual_seed(seed)
    model = Llama(config).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * torch.randn_like(p))
    return model


def test_extrapolation_keeps_the_function_and_only_lengthens_the_context() -> None:
    model = trained_like()
    longer = stretched(model, 3, "extrapolate").eval()
    assert longer.config.block_size == 36 and longer.config.rope_base == SHORT.rope_base
    ids = torch.randint(0, SHORT.vocab_size, (2, 30))
    with torch.no_grad():
        torch.testing.assert_close(longer(ids[:, :12]), model(ids[:, :12]), atol=1e-6, rtol=0)
        longer(ids)  # 30 positions fit now
    with pytest.raises(ValueError, match="do not fit"):
        model(ids)


def test_interpolation_turns_position_t_as_the_trained_model_turned_t_over_the_factor() -> None:
    torch.manual_seed(1)
    plain, interpolated = RotaryEmbedding(8, base=100.0), RotaryEmbedding(8, base=100.0, interpolation=2.0)
    x = torch.randn(1, 1, 1, 8).expand(1, 1, 10, 8)  # the same vector at positions 0 .. 9
    turned = interpolated(x, x)[0]
    torch.testing.assert_close(turned[:, :, ::2], plain(x[:, :, :5], x[:, :, :5])[0], atol=1e-6, rtol=0)
    assert not torch.allclose(turned[:, :, 1], plain(x, x)[0][:, :, 1])  # odd positions fall between
    with pytest.raises(ValueError, match="at least 1"):
        RotaryEmbedding(8, interpolation=0.5)


def test_interpolation_equals_hugging_faces_linear_rope_scaling() -> None:
    """An independent oracle: LlamaForCausalLM with ``rope_type="linear"`` and the same weights."""
    model = trained_like(dataclasses.replace(SHORT, rope_base=500.0))
    longer = stretched(model, 2.5, "interpolate").eval()
    plain = stretched(model, 2.5, "extrapolate").eval()  # the same tensors, under names HF reads
    kwargs = hf_config_kwargs(plain.config)
    del kwargs["rope_theta"]
    kwargs["rope_parameters"] = {"rope_type": "linear", "factor": 2.5, "rope_theta": 500.0}
    theirs = LlamaForCausalLM(HFLlamaConfig(**kwargs, attn_implementation="eager")).eval()
    theirs.load_state_dict(to_hf_state_dict(plain))
    ids = torch.randint(0, SHORT.vocab_size, (2, 30))
    with torch.no_grad():
        torch.testing.assert_close(longer(ids), theirs(ids).logits, atol=2e-5, rtol=1e-4)
        assert (plain(ids) - theirs(ids).logits).abs().max() > 1e-3  # the oracle does see the interpolation
    with pytest.raises(CheckpointMismatch, match="rope_interpolation"):
        to_hf_state_dict(longer)


def test_the_ntk_base_slows_the_slowest_pair_by_the_factor_and_keeps_the_fastest() -> None:
    model = trained_like()
    d_head = SHORT.d_head
    longer = stretched(model, 4, "base")
    assert longer.config.rope_base == pytest.approx(SHORT.rope_base * 4 ** (d_head / (d_head - 2)))
    before = model.layers[0].self_attn.rotary.inv_freq
    after = longer.layers[0].self_attn.rotary.inv_freq
    assert after[0] == before[0] == 1.0
    torch.testing.assert_close(after[-1], before[-1] / 4, atol=0, rtol=1e-5)
    ratios = before / after  # pair i: 4^(2i / (d_head - 2)), growing from 1 to 4
    torch.testing.assert_close(ratios, 4 ** (torch.arange(d_head // 2) * 2 / (d_head - 2)), atol=0, rtol=1e-5)


def test_the_copy_keeps_dtype_weights_and_refuses_what_cannot_stretch() -> None:
    model = trained_like().double()
    longer = stretched(model, 2, "interpolate")
    assert longer.embed.weight.dtype == torch.float64 and torch.equal(longer.lm_head.weight, model.lm_head.weight)
    assert model.config.rope_interpolation == 1.0 and longer.config.rope_interpolation == 2.0  # the model unchanged
    assert stretched(longer, 2, "interpolate").config.rope_interpolation == 4.0
    with pytest.raises(ValueError, match="learned position table"):
        stretched(Llama(dataclasses.replace(SHORT, positions="learned")), 2, "extrapolate")
    with pytest.raises(ValueError, match="at least 1"):
        stretched(model, 0.5, "base")
    with pytest.raises(ValueError, match="rule must be"):
        stretched(model, 2, "yarn")  # type: ignore[arg-type]
