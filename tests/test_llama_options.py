"""course_lib.llama's GPT choices (``norm="layer"``, ``positions="learned"``, ``feed_forward="gelu"``), which
chapter 7's ladder from GPT to Llama climbs: each builds GPT's piece, bad values are refused, and only the
default choices convert to Hugging Face's LlamaForCausalLM."""

from __future__ import annotations

import dataclasses

import pytest
import torch
import torch.nn.functional as F

from course_lib.blocks import LayerNorm, LearnedPositions, RMSNorm
from course_lib.llama import Llama, LlamaConfig, hf_config_kwargs, to_hf_state_dict

LLAMA = LlamaConfig(vocab_size=37, block_size=16, n_layers=2, n_heads=4, n_kv_heads=2, d_model=16, d_ff=24)
GPT_CHOICES = dataclasses.replace(LLAMA, norm="layer", positions="learned", feed_forward="gelu")


def test_gpt_choices_build_gpts_pieces_without_biases() -> None:
    model = Llama(GPT_CHOICES)
    assert isinstance(model.norm, LayerNorm) and model.norm.bias is None and model.norm.fused
    assert (
        isinstance(model.positions, LearnedPositions)
        and model.positions.embedding.num_embeddings == GPT_CHOICES.block_size
    )
    ff = model.layers[0].ff
    assert ff.linear_v is None and ff.linear1.bias is None
    x = torch.randn(3, GPT_CHOICES.d_model)
    torch.testing.assert_close(ff(x), ff.linear2(F.gelu(ff.linear1(x), approximate="tanh")))
    assert model.layers[0].self_attn.rotary is None
    default = Llama(LLAMA)
    assert isinstance(default.norm, RMSNorm) and default.positions is None and default.layers[0].ff.linear_v is not None
    # the two choices differ by the table (block_size x d_model) and one d_model x d_ff matrix per block
    extra = GPT_CHOICES.block_size * GPT_CHOICES.d_model - GPT_CHOICES.n_layers * GPT_CHOICES.d_model * GPT_CHOICES.d_ff
    assert model.num_parameters() - default.num_parameters() == extra


def test_learned_positions_count_from_the_cached_positions() -> None:
    """Token by token with caches gives the logits of one pass: each step adds the table's row of its own position."""
    torch.manual_seed(0)
    model = Llama(GPT_CHOICES).eval()
    ids = torch.randint(0, GPT_CHOICES.vocab_size, (2, 7))
    caches = model.new_caches()
    with torch.no_grad():
        whole = model(ids)
        steps = torch.cat([model(ids[:, t : t + 1], caches=caches) for t in range(ids.shape[1])], dim=1)
        shifted = model(ids[:, 1:])  # the same tokens one position earlier: other position vectors, other logits
    torch.testing.assert_close(steps, whole, atol=1e-5, rtol=1e-5)
    assert (shifted[:, -1] - whole[:, -1]).abs().max() > 1e-3


@pytest.mark.parametrize("field, value", [("norm", "batch"), ("positions", "sinusoidal"), ("feed_forward", "relu")])
def test_an_unknown_choice_is_refused_by_name(field: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"{field} must be one of .*{value}"):
        dataclasses.replace(LLAMA, **{field: value})


@pytest.mark.parametrize("field, value", [("norm", "layer"), ("positions", "learned"), ("feed_forward", "gelu")])
def test_only_llamas_own_choices_convert_to_hugging_face(field: str, value: str) -> None:
    config = dataclasses.replace(LLAMA, **{field: value})
    with pytest.raises(ValueError, match=f"{field}={value!r}"):
        to_hf_state_dict(Llama(config))
    with pytest.raises(ValueError, match="LlamaForCausalLM has only"):
        hf_config_kwargs(config)
