"""course_lib.t5 (chapter 5): the architecture against Hugging Face's T5ForConditionalGeneration with
the weights copied both ways, T5's bucket function, and span corruption as T5's preprocessor defines
it (counts fixed by the length, alternating spans, sentinels from the top of the vocabulary)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
import torch
from transformers import T5Config as HFConfig
from transformers import T5ForConditionalGeneration
from transformers.models.t5.modeling_t5 import T5Attention

from course_lib.blocks import RelativePositionBias, relative_position_bucket
from course_lib.t5 import (
    PRESETS,
    T5,
    T5Config,
    TextToText,
    from_hf_state_dict,
    hf_config_kwargs,
    noise_span_counts,
    random_spans_noise_mask,
    raw_length_for,
    sentinel_id,
    span_corruption,
    span_corruption_lengths,
    to_hf_state_dict,
)

# Odd sizes: 3 heads of 7 (not d_model / n_heads), a vocabulary of 53; encoder and decoder of different depths.
ODD_SIZES = dict(vocab_size=53, d_model=20, d_kv=7, d_ff=36, n_heads=3, dropout=0.0)
ODD = T5Config(**ODD_SIZES, n_layers=2, n_decoder_layers=3, num_buckets=10, max_distance=20)
ODD_GATED = T5Config(**ODD_SIZES, n_layers=3, n_decoder_layers=1, feed_forward="gated-gelu", tie_embeddings=False)


def twins(config: T5Config, seed: int = 0) -> tuple[T5, T5ForConditionalGeneration]:
    """A random-init Hugging Face T5 and ours with its weights copied in."""
    torch.manual_seed(seed)
    hf = T5ForConditionalGeneration(HFConfig(**hf_config_kwargs(config))).eval()
    ours = T5(config).eval()
    ours.load_state_dict(from_hf_state_dict(hf.state_dict(), ours))
    return ours, hf


def padded_batch(vocab: int, B: int = 3, S: int = 11, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, vocab, (B, S), generator=g)
    mask = torch.ones(B, S, dtype=torch.long)
    mask[1, 7:] = 0  # padding at the end of two sources
    mask[2, 3:] = 0
    return ids.masked_fill(mask == 0, 0), mask


# --------------------------------------------------------------------------- architecture


@pytest.mark.parametrize("config", [ODD, ODD_GATED], ids=["relu-tied", "gated-untied"])
def test_logits_equal_hugging_face_with_copied_weights(config: T5Config) -> None:
    ours, hf = twins(config)
    ids, mask = padded_batch(config.vocab_size)
    decoder_ids = torch.randint(0, config.vocab_size, (3, 6), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        theirs = hf(input_ids=ids, attention_mask=mask, decoder_input_ids=decoder_ids).logits
        mine = ours(ids, decoder_ids, mask)
    assert mine.shape == (3, 6, config.vocab_size)
    assert torch.allclose(mine, theirs, atol=1e-5, rtol=0), (mine - theirs).abs().max()


def test_state_dict_round_trips_to_hugging_face_names() -> None:
    ours, hf = twins(ODD, seed=3)
    back = to_hf_state_dict(ours)
    theirs = hf.state_dict()
    assert back.keys() == theirs.keys()
    assert all(torch.equal(back[k], theirs[k]) for k in theirs)
    # and a model of ours, converted, loads into Hugging Face's and computes the same logits
    torch.manual_seed(4)
    mine = T5(ODD).eval()
    hf.load_state_dict(to_hf_state_dict(mine))
    ids, mask = padded_batch(ODD.vocab_size, seed=5)
    dec = torch.randint(0, ODD.vocab_size, (3, 4))
    with torch.no_grad():
        assert torch.allclose(
            mine(ids, dec, mask),
            hf(input_ids=ids, attention_mask=mask, decoder_input_ids=dec).logits,
            atol=1e-5,
            rtol=0,
        )


def test_tied_head_scales_the_decoder_output_and_shares_the_embedding() -> None:
    model = T5(ODD).eval()
    assert model.lm_head.weight is model.shared.weight
    untied = T5(ODD_GATED)
    assert untied.lm_head.weight is not untied.shared.weight
    # the d_model ** -0.5 rescaling: doubling every final-norm gain doubles the logits of the tied model
    ids, mask = padded_batch(ODD.vocab_size)
    dec = torch.randint(0, ODD.vocab_size, (3, 4))
    with torch.no_grad():
        before = model(ids, dec, mask)
        model.decoder.norm.weight.mul_(2)
        assert torch.allclose(model(ids, dec, mask), 2 * before, atol=1e-5)


def test_no_biases_no_scaling_and_shared_relative_bias() -> None:
    model = T5(ODD)
    names = [n for n, _ in model.named_parameters()]
    assert not [n for n in names if n.endswith(".bias")]
    assert sum("relative_bias" in n for n in names) == 2  # one per stack, not one per block
    assert all(m.scale == 1.0 for m in model.modules() if hasattr(m, "q_proj"))
    assert all(m.d_head == ODD.d_kv for m in model.modules() if hasattr(m, "q_proj"))


def test_presets_have_the_published_sizes() -> None:
    assert T5(PRESETS["t5-small"]).num_parameters() == 60_506_624  # = Hugging Face's t5-small
    assert T5(PRESETS["t5-v1_1-small"]).num_parameters() == 76_961_152  # google/t5-v1_1-small (untied head)
    with torch.device("meta"):
        base = T5(PRESETS["t5-base"]).num_parameters()
        large = T5(PRESETS["t5-large"]).num_parameters()
    assert abs(base - 220e6) / 220e6 < 0.02 and abs(large - 770e6) / 770e6 < 0.05


def test_initialisation_keeps_unit_scale_without_the_attention_factor() -> None:
    torch.manual_seed(0)
    model = T5(PRESETS["t5-small"])
    attn = model.encoder.layers[0].self_attn
    assert abs(attn.q_proj.weight.std().item() - (512 * 64) ** -0.5) < 2e-4
    assert abs(model.shared.weight.std().item() - 1.0) < 0.01
    x = torch.randn(4, 32, 512)
    q, k = attn.q_proj(x).view(4, 32, 8, 64), attn.k_proj(x).view(4, 32, 8, 64)
    scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
    assert 0.7 < scores.std().item() < 1.3  # unscaled q.k stays near unit variance at init


def test_cached_decoding_equals_the_full_forward() -> None:
    ours, _ = twins(ODD_GATED, seed=6)
    ids, mask = padded_batch(ODD_GATED.vocab_size)
    dec = torch.randint(0, ODD_GATED.vocab_size, (3, 7))
    with torch.no_grad():
        full = ours(ids, dec, mask)
        memory = ours.encode(ids, mask)
        caches = ours.new_caches()
        steps = [ours.decode(dec[:, :3], memory, mask, caches)] + [
            ours.decode(dec[:, t : t + 1], memory, mask, caches) for t in range(3, 7)
        ]
    assert torch.allclose(torch.cat(steps, dim=1), full, atol=1e-5)
    assert caches[0][0].length == 7 and caches[0][1].length == ids.shape[1]


def test_refuses_state_dicts_that_do_not_fit() -> None:
    _, hf = twins(ODD)
    deeper = T5(T5Config(**{**ODD.__dict__, "n_layers": 3}))
    with pytest.raises(ValueError, match="encoder.block.2"):
        from_hf_state_dict(hf.state_dict(), deeper)
    wider = T5(T5Config(**{**ODD.__dict__, "d_kv": 8}))
    with pytest.raises(ValueError, match="shape"):
        from_hf_state_dict(hf.state_dict(), wider)
    gated = T5(T5Config(**{**ODD.__dict__, "feed_forward": "gated-gelu"}))
    with pytest.raises(ValueError, match="wi_0"):
        from_hf_state_dict(hf.state_dict(), gated)


def test_a_tied_t5_refuses_a_checkpoint_whose_head_is_not_its_embedding() -> None:
    """An untied checkpoint (T5 v1.1's layout) must not lose its head silently in a tied model."""
    _, hf = twins(ODD)
    state = hf.state_dict()
    untied = state | {"lm_head.weight": state["shared.weight"] + 0.5}
    with pytest.raises(ValueError, match="lm_head.weight differs from shared.weight.*tie_embeddings=False"):
        from_hf_state_dict(untied, T5(ODD))
    loose = T5(T5Config(**{**ODD.__dict__, "tie_embeddings": False}))
    loaded = from_hf_state_dict(untied, loose)  # the untied model takes it, head and all
    assert torch.equal(loaded["lm_head.weight"], untied["lm_head.weight"])
    from_hf_state_dict(state, T5(ODD))  # the tied checkpoint itself still loads


@pytest.mark.parametrize("copy", ["encoder.embed_tokens.weight", "decoder.embed_tokens.weight"])
def test_an_embedding_copy_that_is_not_the_shared_one_is_refused_by_name(copy: str) -> None:
    """Hugging Face's T5 reads each side's embed_tokens; ours reads shared alone: a copy that differs
    would be dropped without a word (logits 1.4 off), as BART refuses too."""
    _, hf = twins(ODD)
    state = hf.state_dict()
    with pytest.raises(ValueError, match=f"{copy} differs from shared.weight"):
        from_hf_state_dict(state | {copy: state["shared.weight"] + 0.5}, T5(ODD))


def test_bad_configs_and_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="feed_forward"):
        T5Config(feed_forward="swiglu")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="eos_id"):
        T5Config(vocab_size=1, eos_id=1)
    model = T5(ODD)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        model(torch.tensor([[3, 53]]), torch.tensor([[0]]))
    with pytest.raises(ValueError, match="LongTensor"):
        model.encode(torch.zeros(2, 3))


# ----------------------------------------------------------------------- relative positions


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), [(32, 128), (8, 10), (11, 40), (6, 4)])
def test_bucket_function_equals_hugging_face_for_every_distance(
    bidirectional: bool, num_buckets: int, max_distance: int
) -> None:
    relative = torch.arange(-400, 401)
    ours = relative_position_bucket(relative, bidirectional, num_buckets, max_distance)
    theirs = T5Attention._relative_position_bucket(relative, bidirectional, num_buckets, max_distance)
    assert torch.equal(ours, theirs)


def test_buckets_exact_near_logarithmic_far_and_causal_folds_the_future() -> None:
    relative = torch.arange(-200, 201)
    causal = relative_position_bucket(relative, bidirectional=False)
    assert (causal[relative >= 0] == 0).all()  # the future shares bucket 0
    # exact
    assert torch.equal(causal[(relative <= 0) & (relative > -16)], -relative[(relative <= 0) & (relative > -16)])
    assert causal.max() == 31 and (causal[relative <= -128] == 31).all()
    both = relative_position_bucket(relative, bidirectional=True)
    assert torch.equal(both[relative > 0].unique(), torch.arange(17, 32))  # keys after the query: upper half
    assert (both[relative == 0] == 0).all()
    with pytest.raises(ValueError, match="integers"):
        relative_position_bucket(torch.tensor([1.5]))


def test_buckets_hold_at_every_int64_value() -> None:
    """The least int64 has no negation in int64 (its absolute value is itself): it is as far back as any."""
    extremes = torch.tensor([-(2**63), -(2**63) + 1, 2**63 - 1])
    assert relative_position_bucket(extremes, bidirectional=True).tolist() == [15, 15, 31]
    assert relative_position_bucket(extremes, bidirectional=False).tolist() == [31, 31, 0]
    narrow = torch.tensor([-(2**31), 2**31 - 1], dtype=torch.int32)
    assert relative_position_bucket(narrow, bidirectional=True).tolist() == [15, 31]


def test_relative_bias_with_an_offset_is_the_slice_of_the_full_bias() -> None:
    bias = RelativePositionBias(3, 8, 12, bidirectional=False)
    full = bias(9, 9)  # (1, h, 9, 9)
    assert torch.equal(bias(2, 9, offset=7), full[:, :, 7:9])


# ------------------------------------------------------------------------- span corruption


@pytest.mark.parametrize(
    ("length", "expected"), [(100, (15, 5)), (10, (2, 1)), (568, (85, 28)), (2, (1, 1)), (3, (1, 1))]
)
def test_noise_counts_are_fixed_by_the_length(length: int, expected: tuple[int, int]) -> None:
    assert noise_span_counts(length) == expected


def runs(mask: torch.Tensor) -> list[tuple[bool, int]]:
    out: list[tuple[bool, int]] = []
    for value in mask.tolist():
        if out and out[-1][0] == value:
            out[-1] = (value, out[-1][1] + 1)
        else:
            out.append((value, 1))
    return out


def test_noise_mask_alternates_kept_and_noise_runs_with_exact_counts() -> None:
    for seed in range(200):
        length = 20 + seed
        mask = random_spans_noise_mask(length, generator=torch.Generator().manual_seed(seed))
        num_noise, num_spans = noise_span_counts(length)
        r = runs(mask)
        assert mask.dtype == torch.bool and mask.shape == (length,)
        assert int(mask.sum()) == num_noise
        assert [v for v, _ in r] == [False, True] * num_spans  # starts kept, ends with noise, alternating


def test_random_roll_rotates_t5s_mask_and_hides_every_position_equally_often() -> None:
    """The rolled mask is the unrolled one (same draws) rotated by an offset drawn after it; over 4,000
    draws of a 48-token text every position is hidden 7/48 of the time, within 5 standard errors (with
    a fixed seed the check is deterministic; a correct roll would fail it for some seed with
    probability about 48 x 6e-7 = 3e-5), where the unrolled mask never hides the first position."""
    for seed in range(20):
        g, twin = torch.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        rolled = random_spans_noise_mask(60, generator=g, random_roll=True)
        plain = random_spans_noise_mask(60, generator=twin)
        offset = int(torch.randint(60, (1,), generator=twin))
        assert torch.equal(rolled, plain.roll(offset))
    g = torch.Generator().manual_seed(0)
    # (48,)
    hidden = (
        torch.stack([random_spans_noise_mask(48, generator=g, random_roll=True) for _ in range(4000)]).float().sum(0)
    )
    p = 7 / 48
    se = math.sqrt(4000 * p * (1 - p))
    assert (hidden - 4000 * p).abs().max() < 5 * se, hidden
    assert hidden.sum() == 7 * 4000


def test_noise_span_lengths_are_a_uniform_random_composition() -> None:
    """Cutting 15 noise tokens into 5 non-empty spans uniformly: the first span has length j with
    probability C(15 - j - 1, 3) / C(14, 4). 4,000 draws; every bin within 5 standard errors (a
    correct rule fails with probability below 1e-5)."""
    n_draws, counts = 4000, Counter()
    g = torch.Generator().manual_seed(0)
    for _ in range(n_draws):
        counts[runs(random_spans_noise_mask(100, generator=g))[1][1]] += 1
    for j in range(1, 12):
        p = math.comb(15 - j - 1, 3) / math.comb(14, 4)
        se = math.sqrt(n_draws * p * (1 - p)) + 1e-9
        assert abs(counts[j] - n_draws * p) < 5 * se + 1, (j, counts[j], n_draws * p)


def test_span_corruption_reproduces_the_papers_example() -> None:
    words = "Thank you for inviting me to your party last week .".split()
    vocab = {w: i + 2 for i, w in enumerate(words)}
    V = 100
    tokens = torch.tensor([vocab[w] for w in words])
    mask = torch.tensor([w in ("for", "inviting", "last") for w in words])
    inputs, targets = span_corruption(tokens, mask, V, num_sentinels=10)
    name = {i: w for w, i in vocab.items()} | {sentinel_id(i, V): f"<X{i}>" for i in range(3)} | {1: "</s>"}
    assert [name[t] for t in inputs.tolist()] == "Thank you <X0> me to your party <X1> week . </s>".split()
    assert [name[t] for t in targets.tolist()] == "<X0> for inviting <X1> last <X2> </s>".split()


def test_span_corruption_of_t5s_own_masks_matches_the_predicted_lengths() -> None:
    g = torch.Generator().manual_seed(1)
    for length in (50, 100, 568):
        tokens = torch.randint(2, 1000, (length,), generator=g)
        inputs, targets = span_corruption(tokens, random_spans_noise_mask(length, generator=g), 1100)
        assert (len(inputs), len(targets)) == span_corruption_lengths(length)
        # the targets start with sentinel 0 (it stands for the first kept run) and end with the last noise span
        assert targets[0] == 1099 and inputs[-2] == 1100 - noise_span_counts(length)[1]
    assert raw_length_for(512) == (568, 114)  # T5's random_spans_helper for inputs of 512
    assert span_corruption_lengths(raw_length_for(512)[0])[0] <= 512 < span_corruption_lengths(569)[0]


def test_span_corruption_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="noise_density"):
        random_spans_noise_mask(10, noise_density=1.5)
    with pytest.raises(ValueError, match="mean_noise_span_length"):
        random_spans_noise_mask(10, mean_noise_span_length=0.5)
    with pytest.raises(ValueError, match="too short"):
        random_spans_noise_mask(1)
    with pytest.raises(ValueError, match="only 3 sentinels"):
        span_corruption(torch.arange(2, 40), torch.arange(38) % 2 == 1, 100, num_sentinels=3)
    with pytest.raises(ValueError, match="sentinel id"):
        span_corruption(torch.tensor([5, 99]), torch.tensor([False, True]), 100, num_sentinels=10)


def test_text_to_text_prefixes_tasks_and_warns_on_an_unknown_one() -> None:
    from course_lib.tokenization import ByteTokenizer

    tok = ByteTokenizer()
    fmt = TextToText(tok, ["phonemes", "sentiment"], max_length=12)
    source, target = fmt.pair("sentiment", "A fine film", "positive")
    assert source == tok.encode("sentiment: ")[:11] + [tok.eos_id] and len(source) == 12
    assert target == tok.encode("positive") + [tok.eos_id]
    assert fmt.source("phonemes", "h") == tok.encode("phonemes: h") + [tok.eos_id]  # 11 bytes: not cut
    with pytest.warns(UserWarning, match="'sentimnet' is not one this model is fine-tuned on"):
        fmt.source("sentimnet", "A fine film")
    with pytest.raises(ValueError, match="without ':'"):
        TextToText(tok, ["a: b"])
