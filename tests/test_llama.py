"""course_lib.llama against Hugging Face's LlamaForCausalLM, both ways, on odd configurations (3 query
heads sharing 1 key/value head, vocabulary 97, padding), and the pieces it adds to the library: rotary
positions and grouped-query attention."""

from __future__ import annotations

import dataclasses

import pytest
import torch
from transformers import LlamaConfig as HFLlamaConfig
from transformers import LlamaForCausalLM

from course_lib.attention import KVCache, MultiHeadAttention, RotaryEmbedding
from course_lib.llama import Llama, LlamaConfig, config_from_hf, from_hf_state_dict, hf_config_kwargs, to_hf_state_dict

ODD = LlamaConfig(
    vocab_size=97, block_size=32, n_layers=2, n_heads=3, n_kv_heads=1, d_model=24, d_ff=40, rope_base=500.0
)
ATOL = 2e-5


def twins(config: LlamaConfig = ODD, seed: int = 0) -> tuple[Llama, LlamaForCausalLM]:
    """Hugging Face's model with every tensor random (not its constant initial norms), and ours loaded from it."""
    torch.manual_seed(seed)
    theirs = LlamaForCausalLM(HFLlamaConfig(**hf_config_kwargs(config), attn_implementation="eager")).eval()
    with torch.no_grad():
        for p in theirs.parameters():
            p.add_(0.1 * torch.randn_like(p))
    ours = Llama(config).eval()
    ours.load_state_dict(from_hf_state_dict(theirs.state_dict(), ours))
    return ours, theirs


def test_logits_equal_hugging_faces_on_an_odd_configuration() -> None:
    ours, theirs = twins()
    ids = torch.randint(0, ODD.vocab_size, (3, 11))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids), theirs(ids).logits, atol=ATOL, rtol=1e-4)


def test_padding_masks_the_padded_keys_as_hugging_face_does() -> None:
    ours, theirs = twins(seed=1)
    ids = torch.randint(0, ODD.vocab_size, (3, 9))
    mask = torch.ones(3, 9, dtype=torch.long)
    mask[1, 6:] = 0  # right padding: the real positions of row 1 must not see its last three
    mask[2, 2:] = 0
    with torch.no_grad():
        ours_logits, their_logits = ours(ids, mask), theirs(ids, attention_mask=mask).logits
        real = mask.bool()
        torch.testing.assert_close(ours_logits[real], their_logits[real], atol=ATOL, rtol=1e-4)
        unpadded = ours(ids[1:2, :6])  # and a padded row's real positions equal the row without padding
        torch.testing.assert_close(ours_logits[1, :6], unpadded[0], atol=ATOL, rtol=1e-4)


def test_our_weights_load_into_hugging_faces_model_strictly() -> None:
    torch.manual_seed(2)
    ours = Llama(ODD).eval()
    theirs = LlamaForCausalLM(HFLlamaConfig(**hf_config_kwargs(ODD), attn_implementation="eager")).eval()
    theirs.load_state_dict(to_hf_state_dict(ours), strict=True)
    ids = torch.randint(0, ODD.vocab_size, (2, 7))
    with torch.no_grad():
        torch.testing.assert_close(theirs(ids).logits, ours(ids), atol=ATOL, rtol=1e-4)


def test_a_tied_llama_round_trips_and_refuses_an_untied_checkpoint() -> None:
    tied = dataclasses.replace(ODD, tie_embeddings=True)
    ours, theirs = twins(tied, seed=3)
    assert ours.lm_head.weight is ours.embed.weight
    ids = torch.randint(0, tied.vocab_size, (2, 5))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids), theirs(ids).logits, atol=ATOL, rtol=1e-4)
    _, untied = twins(ODD, seed=3)
    with pytest.raises(ValueError, match="head is untied"):
        from_hf_state_dict(untied.state_dict(), Llama(tied))


def test_cached_decoding_equals_the_full_forward_and_the_cache_holds_the_kv_heads_only() -> None:
    ours, _ = twins(seed=4)
    ids = torch.randint(0, ODD.vocab_size, (2, 9))
    with torch.no_grad():
        full = ours(ids)
        caches = ours.new_caches()
        steps = [ours(ids[:, :4], caches=caches)] + [ours(ids[:, t : t + 1], caches=caches) for t in range(4, 9)]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=ATOL, rtol=1e-4)
    assert caches[0].k is not None and caches[0].k.shape == (2, ODD.n_kv_heads, 9, ODD.d_head)  # 1 head cached, not 3


@pytest.mark.parametrize(
    "change, words",
    [
        ({"n_layers": 3}, "model.layers.2"),
        ({"d_model": 30, "n_heads": 3}, "other shapes"),
        ({"n_kv_heads": 3}, "k_proj.weight"),
        ({"vocab_size": 98}, "model.embed_tokens.weight"),
    ],
)
def test_a_checkpoint_that_does_not_fit_is_refused_by_name(change: dict, words: str) -> None:
    _, theirs = twins()
    with pytest.raises(ValueError, match=words):
        from_hf_state_dict(theirs.state_dict(), Llama(dataclasses.replace(ODD, **change)))


def test_the_config_reads_back_from_hugging_faces() -> None:
    hf = HFLlamaConfig(**hf_config_kwargs(ODD)).to_dict()
    assert config_from_hf(hf) == ODD
    with pytest.raises(ValueError, match="rope scaling"):
        config_from_hf(hf | {"rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 500.0}})
    with pytest.raises(ValueError, match="biases"):
        config_from_hf(hf | {"attention_bias": True})


def test_rotary_frequencies_and_far_positions_equal_hugging_faces() -> None:
    """The frequencies bit for bit (``1 / base^(2i/d)``, not ``base^(-2i/d)``: a float32 step apart, which
    positions multiply), and the logits at positions past 4,000 with Llama 3's base."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    # d_head 24
    config = dataclasses.replace(ODD, block_size=4200, rope_base=500_000.0, d_model=48, n_heads=2, n_kv_heads=1)
    ours, theirs = twins(config)
    rotary = LlamaRotaryEmbedding(HFLlamaConfig(**hf_config_kwargs(config)))
    assert torch.equal(RotaryEmbedding(24, 500_000.0).inv_freq, rotary.inv_freq)
    ids = torch.randint(0, config.vocab_size, (1, 4100))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids)[:, -50:], theirs(ids).logits[:, -50:], atol=ATOL, rtol=1e-4)


def test_rotary_scores_depend_on_the_distance_only() -> None:
    torch.manual_seed(5)
    rotary = RotaryEmbedding(8, base=100.0)
    q, k = torch.randn(1, 1, 1, 8), torch.randn(1, 1, 1, 8)
    scores = []
    for offset in (0, 3, 17):  # the query at offset + 5 and the key at offset: distance 5 each time
        q_at = rotary(q, q, offset=offset + 5)[0]
        k_at = rotary(k, k, offset=offset)[1]
        scores.append((q_at * k_at).sum().item())
    assert max(scores) - min(scores) < 1e-5
    near, far = rotary(q, k, offset=0), rotary(q, k, offset=1)  # and it does move with position
    assert not torch.allclose(near[0], far[0])
    with pytest.raises(ValueError, match="even"):
        RotaryEmbedding(7)


def test_grouped_query_attention_equals_attention_with_the_key_value_heads_repeated() -> None:
    torch.manual_seed(6)
    gqa = MultiHeadAttention(24, 6, n_kv_heads=2, bias=False)
    full = MultiHeadAttention(24, 6, bias=False)
    with torch.no_grad():
        full.q_proj.weight.copy_(gqa.q_proj.weight)
        full.out_proj.weight.copy_(gqa.out_proj.weight)
        for name in ("k_proj", "v_proj"):  # kv head j serves query heads 3j, 3j + 1, 3j + 2
            w = getattr(gqa, name).weight.view(2, 4, 24).repeat_interleave(3, dim=0).reshape(24, 24)
            getattr(full, name).weight.copy_(w)
    x = torch.randn(2, 5, 24)
    torch.testing.assert_close(gqa(x, is_causal=True)[0], full(x, is_causal=True)[0], atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError, match="n_kv_heads must divide"):
        MultiHeadAttention(24, 6, n_kv_heads=4)
    with pytest.raises(ValueError, match="rotary positions are for self-attention"):
        MultiHeadAttention(24, 6, rotary=RotaryEmbedding(4))(x, torch.randn(2, 3, 24))
    cache = KVCache()
    gqa(x, cache=cache, is_causal=True)
    assert cache.k is not None and cache.k.shape == (2, 2, 5, 4)
