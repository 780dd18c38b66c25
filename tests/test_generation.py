"""course_lib.generation against Hugging Face's ``generate``, token for token, on random tiny odd
configurations of every family (GPT-2 with 3 heads and a vocabulary of 97, Llama with grouped-query
attention, T5, BART with padded sources), and the sampling rule and filters it shares.

The models are float64 (both sides score in float32, as Hugging Face casts the logits, so float64
weights leave no near-ties to flip). EOS's output embedding is scaled up so that hypotheses finish at
different lengths. Sampling is compared with a shared seeded rule: both sides draw with
``torch.multinomial`` from torch's global generator, seeded alike before each call, from the same
probabilities, so equal tokens mean the same temperature, filters and order of operations.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import torch
import transformers
from torch import nn
from transformers.generation.logits_process import TopKLogitsWarper, TopPLogitsWarper

from course_lib import bart, gpt, llama, t5
from course_lib.attention import KVCache
from course_lib.generation import GenerationConfig, beam_search, generate, next_token, top_k_filter, top_p_filter
from course_lib.seq2seq import collate

EOS = {"gpt2": 5, "llama": 7, "t5": 1, "bart": 2}
PAD = {"gpt2": 1, "llama": 2, "t5": 0, "bart": 1}
START = {"t5": 0, "bart": 2}  # the decoder's start token
SEQ2SEQ = ("t5", "bart")
# EOS's output embedding scaled: hypotheses end at several lengths
BOOST = {"gpt2": 5.0, "llama": 3.0, "t5": 3.0, "bart": 1.0}


def _randomise(hf: nn.Module, eos: int, boost: float) -> None:
    """Every tensor random (not Hugging Face's constant norms and biases), EOS made likely."""
    with torch.no_grad():
        for p in hf.parameters():
            p.add_(0.1 * torch.randn_like(p))
        hf.get_output_embeddings().weight[eos] *= boost  # type: ignore[operator]


@cache
def twins(family: str) -> tuple[nn.Module, Any]:
    """(ours, Hugging Face's) with the same random weights, in float64."""
    torch.manual_seed(sum(map(ord, family)))
    ours: nn.Module
    if family == "gpt2":
        hf = transformers.GPT2LMHeadModel(
            transformers.GPT2Config(
                vocab_size=97,
                n_positions=40,
                n_embd=24,
                n_layer=2,
                n_head=3,
                bos_token_id=EOS[family],
                eos_token_id=EOS[family],
                resid_pdrop=0.0,
                embd_pdrop=0.0,
                attn_pdrop=0.0,
            )
        )
        _randomise(hf, EOS[family], BOOST[family])
        ours = gpt.GPT(gpt.GPTConfig(vocab_size=97, block_size=40, n_layers=2, n_heads=3, d_model=24))
        ours.load_state_dict(gpt.from_hf_state_dict(hf.state_dict(), 2))
    elif family == "llama":
        config = llama.LlamaConfig(
            vocab_size=97, block_size=40, n_layers=2, n_heads=3, n_kv_heads=1, d_model=24, d_ff=40, rope_base=500.0
        )
        hf = transformers.LlamaForCausalLM(
            transformers.LlamaConfig(**llama.hf_config_kwargs(config), attn_implementation="eager")
        )
        _randomise(hf, EOS[family], BOOST[family])
        ours = llama.Llama(config)
        ours.load_state_dict(llama.from_hf_state_dict(hf.state_dict(), ours))
    elif family == "t5":
        config5 = t5.T5Config(vocab_size=41, d_model=16, d_kv=6, d_ff=24, n_layers=2, n_heads=3, dropout=0.0)
        hf = transformers.T5ForConditionalGeneration(transformers.T5Config(**t5.hf_config_kwargs(config5)))
        _randomise(hf, EOS[family], BOOST[family])
        ours = t5.T5(config5)
        ours.load_state_dict(t5.from_hf_state_dict(hf.state_dict(), ours))
    else:
        hf = transformers.BartForConditionalGeneration(transformers.BartConfig(
            vocab_size=97, d_model=30, encoder_layers=2, decoder_layers=3, encoder_attention_heads=3,
            decoder_attention_heads=3, encoder_ffn_dim=44, decoder_ffn_dim=44, max_position_embeddings=40,
            pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2,
            forced_eos_token_id=None))  # fmt: skip
        _randomise(hf, EOS[family], BOOST[family])
        with torch.no_grad():
            hf.final_logits_bias.add_(0.1 * torch.randn_like(hf.final_logits_bias))
            # (its tied embedding is also the start token: scaling it makes EOS come first or never)
            hf.final_logits_bias[0, EOS[family]] += 1.5
        ours = bart.Bart(bart.config_from_hf(hf.config.to_dict()))
        ours.load_state_dict(bart.from_hf_state_dict(hf.state_dict(), ours))
    # generation settings only from the call: none of the model's defaults (BART's forced EOS, GPT-2's EOS 50256)
    hf.generation_config = transformers.GenerationConfig(
        eos_token_id=EOS[family], pad_token_id=PAD[family], decoder_start_token_id=START.get(family)
    )
    return ours.double().eval(), hf.double().eval()


def inputs(family: str, B: int = 3) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Decoder-only: prompts of 4 tokens; encoder-decoder: sources of 3 to 8 tokens, padded."""
    g = torch.Generator().manual_seed(B)
    if family not in SEQ2SEQ:
        return torch.randint(8, 97, (B, 4), generator=g), None
    vocab = 41 if family == "t5" else 97
    sources = [
        torch.randint(3, vocab - 1, (int(n),), generator=g).tolist() for n in torch.randint(3, 9, (B,), generator=g)
    ]
    (ids, mask), _ = collate([(s, [1]) for s in sources], PAD[family])
    assert not mask.all()  # padding present
    return ids, mask


def theirs(family: str, ids: torch.Tensor, mask: torch.Tensor | None, **kwargs: Any) -> torch.Tensor:
    """Hugging Face's tokens, as ours come: an encoder-decoder's without the start token."""
    _, hf = twins(family)
    out = hf.generate(input_ids=ids, attention_mask=torch.ones_like(ids) if mask is None else mask, **kwargs)
    return out[:, 1:] if family in SEQ2SEQ else out


def ours(family: str, ids: torch.Tensor, mask: torch.Tensor | None, **kwargs: Any) -> torch.Tensor:
    """Our tokens, checked to be the same with and without the caches (a decoder-only model is given Hugging Face's
    EOS and pad)."""
    model, _ = twins(family)
    if family not in SEQ2SEQ:
        kwargs = {"eos_token_id": EOS[family], "pad_token_id": PAD[family], **kwargs}
    cached = generate(model, ids, attention_mask=mask, use_cache=True, **kwargs)  # type: ignore[arg-type]
    assert torch.equal(cached, generate(model, ids, attention_mask=mask, use_cache=False, **kwargs)), (
        "the cache changed the tokens"
    )  # type: ignore[arg-type]
    return cached


FAMILIES = ["gpt2", "llama", "t5", "bart"]
CASES = {
    "greedy": {},
    "greedy, min_new_tokens, no repeated 2-grams": {"min_new_tokens": 6, "no_repeat_ngram_size": 2},
    "greedy, forced BOS and EOS, min_length": {"forced_bos_token_id": 11, "forced_eos_token_id": 4, "min_length": 7},
    "beam 3, length_penalty 0.6, early stopping": {"num_beams": 3, "length_penalty": 0.6, "early_stopping": True},
    "beam 4, length_penalty 1.7, no early stopping, 3 returned": {
        "num_beams": 4, "length_penalty": 1.7, "early_stopping": False, "num_return_sequences": 3,
    },
    "beam 2, length_penalty -0.5, no early stopping": {"num_beams": 2, "length_penalty": -0.5},
    "beam 3, min_new_tokens, 3-grams, forced BOS and EOS, 2 returned": {
        "num_beams": 3, "min_new_tokens": 4, "no_repeat_ngram_size": 3, "forced_bos_token_id": 9,
        "forced_eos_token_id": 3, "num_return_sequences": 2,
    },
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("family", FAMILIES)
def test_equals_hugging_faces_generate(family: str, case: str) -> None:
    ids, mask = inputs(family)
    kwargs: dict[str, Any] = {"max_new_tokens": 12, **CASES[case]}
    expected = theirs(family, ids, mask, do_sample=False, **kwargs)
    got = ours(family, ids, mask, **kwargs)
    assert torch.equal(got, expected), (got, expected)
    # an encoder-decoder's first token is forced after its start token; EOS ends hypotheses at several lengths
    if family in SEQ2SEQ:
        assert ("forced_bos_token_id" not in kwargs) or bool((got[:, 0] == kwargs["forced_bos_token_id"]).all())
    assert "forced_eos_token_id" in kwargs or bool((got == EOS[family]).any(-1).any())


def left_padded(B: int = 4) -> tuple[torch.Tensor, torch.Tensor]:
    """Decoder-only prompts of 1 to 6 tokens (one of each length at least: 1 and 6), left-padded as a batch."""
    g = torch.Generator().manual_seed(7)
    lengths = [1, 6, *torch.randint(1, 7, (B - 2,), generator=g).tolist()]
    ids = torch.full((B, 6), 3)  # padding, an ordinary id: only the mask says it is padding
    mask = torch.zeros(B, 6, dtype=torch.long)
    for row, n in enumerate(lengths):
        ids[row, 6 - n :] = torch.randint(8, 97, (n,), generator=g)
        mask[row, 6 - n :] = 1
    return ids, mask


@pytest.mark.parametrize(
    "case", ["greedy", "beam 3, length_penalty 0.6, early stopping", "beam 2, length_penalty -0.5, no early stopping"]
)
@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_left_padded_prompts_decode_as_hugging_faces_and_as_alone(family: str, case: str) -> None:
    """A decoder-only batch of prompts of different lengths, left-padded, gives Hugging Face's tokens, with
    and without the caches, and each row's new tokens are those of its prompt decoded alone."""
    ids, mask = left_padded()
    kwargs: dict[str, Any] = {"max_new_tokens": 10, **CASES[case]}
    got = ours(family, ids, mask, **kwargs)
    hf = twins(family)[1]
    # Their eager attention in float64 turns a query with every key masked (a padding position) into NaN, which
    # reaches the real tokens (transformers 5.24); their default, sdpa, does not.
    hf.set_attn_implementation("sdpa")
    try:
        expected = theirs(family, ids, mask, do_sample=False, **kwargs)
    finally:
        hf.set_attn_implementation("eager")
    assert torch.equal(got, expected), (got, expected)
    for row in range(ids.shape[0]):
        alone = ours(family, ids[row : row + 1, mask[row].argmax() :], None, **kwargs)  # the prompt without padding
        new = got[row, ids.shape[1] :]
        assert torch.equal(new[: alone.shape[1] - int(mask[row].sum())], alone[0, int(mask[row].sum()) :])


class Preferences(nn.Module):
    """A decoder-only "model" that always prefers token 0, then 1, then 2, ...: what the rules change shows plainly."""

    def __init__(self, vocab_size: int = 12, block_size: int = 32) -> None:
        super().__init__()
        self.config = gpt.GPTConfig(vocab_size=vocab_size, block_size=block_size, n_layers=1, n_heads=1, d_model=4)

    def forward(self, input_ids: torch.Tensor, caches: list[KVCache] | None = None) -> torch.Tensor:
        return -torch.arange(self.config.vocab_size, dtype=torch.float)[None, None].expand(*input_ids.shape, -1)

    def new_caches(self) -> list[KVCache]:
        return [KVCache()]


def test_the_rules_by_hand() -> None:
    model = Preferences()
    start = torch.zeros(1, 1, dtype=torch.long)
    for use_cache in (True, False):
        # no repeated 2-gram: after "0 0", 0 may not follow 0 again, so the next best token takes its turn
        assert generate(model, start, max_new_tokens=8, no_repeat_ngram_size=2, use_cache=use_cache).tolist() == [
            [0, 0, 1, 0, 2, 0, 3, 0, 4]
        ]
        # EOS (0) held back for 3 new tokens, then chosen: the rest is padding
        assert generate(
            model, start, max_new_tokens=6, min_new_tokens=3, eos_token_id=0, pad_token_id=9, use_cache=use_cache
        ).tolist() == [[0, 1, 1, 1, 0]]
        # 3 in all, the prompt counted
        assert generate(model, start, max_new_tokens=4, min_length=3, eos_token_id=0, use_cache=use_cache).tolist() == [
            [0, 1, 1, 0]
        ]
        # forced tokens: the first after a one-token prompt, the last one allowed
        assert generate(
            model, start, max_new_tokens=4, forced_bos_token_id=5, forced_eos_token_id=7, use_cache=use_cache
        ).tolist() == [[0, 5, 0, 0, 7]]


def test_a_one_token_prompt_gets_the_forced_bos_as_hugging_face_does() -> None:
    ids = torch.tensor([[20], [31]])
    for kwargs in ({}, {"num_beams": 3}):
        got = ours("gpt2", ids, None, max_new_tokens=6, forced_bos_token_id=13, **kwargs)  # type: ignore[arg-type]
        assert torch.equal(got, theirs("gpt2", ids, None, max_new_tokens=6, forced_bos_token_id=13, **kwargs)) and bool(
            (got[:, 1] == 13).all()
        )


@pytest.mark.parametrize("family", ["gpt2", "t5"])
def test_beam_scores_are_hugging_faces_and_sums_of_log_probabilities(family: str) -> None:
    ids, mask = inputs(family)
    model, hf = twins(family)
    tokens = {} if family in SEQ2SEQ else {"eos_token_id": EOS[family], "pad_token_id": PAD[family]}
    beams = beam_search(model, ids, attention_mask=mask, num_beams=3, max_new_tokens=10, length_penalty=1.3, **tokens)  # type: ignore[arg-type]
    out = hf.generate(input_ids=ids, attention_mask=torch.ones_like(ids) if mask is None else mask, num_beams=3,
                      num_return_sequences=3, max_new_tokens=10, length_penalty=1.3, do_sample=False,
                      output_scores=True, return_dict_in_generate=True)  # fmt: skip
    torch.testing.assert_close(
        beams.scores.flatten(), out.sequences_scores.to(beams.scores.dtype), atol=1e-5, rtol=1e-5
    )
    assert bool((beams.scores[:, :-1] >= beams.scores[:, 1:]).all())  # best first
    # the best hypothesis of the first input: its score is its sum of log-probabilities / length ** 1.3
    n, answer = int(beams.lengths[0, 0]), beams.tokens[0, 0, : int(beams.lengths[0, 0])]
    with torch.no_grad():
        if family in SEQ2SEQ:
            decoder_ids = torch.cat([torch.tensor([START[family]]), answer])[None]
            logits = model(ids[:1], decoder_ids, mask[:1] if mask is not None else None)[0, :-1]
        else:
            logits = model(torch.cat([ids[0], answer])[None])[0, ids.shape[1] - 1 : -1]
    total = logits.float().log_softmax(-1).gather(-1, answer[:, None]).sum()
    assert abs(float(total) / n**1.3 - float(beams.scores[0, 0])) < 1e-4


def test_one_beam_is_greedy_and_beams_are_sorted_and_end_once() -> None:
    model, _ = twins("t5")
    ids, mask = inputs("t5")
    one = beam_search(model, ids, attention_mask=mask, num_beams=1, max_new_tokens=9, length_penalty=0.0)  # type: ignore[arg-type]
    greedy = generate(model, ids, attention_mask=mask, max_new_tokens=9)  # type: ignore[arg-type]
    assert torch.equal(one.tokens[:, 0], greedy[:, : one.tokens.shape[-1]])
    beams = beam_search(model, ids, attention_mask=mask, num_beams=4, max_new_tokens=8)  # type: ignore[arg-type]
    for tokens, length in zip(beams.tokens.flatten(0, 1), beams.lengths.flatten()):
        body = tokens[: int(length)].tolist()
        # a finished hypothesis is never extended
        assert EOS["t5"] not in body[:-1] and (body[-1] == EOS["t5"] or len(body) == 8)
        assert all(t == PAD["t5"] for t in tokens[int(length) :].tolist())


@pytest.mark.parametrize("family", FAMILIES)
def test_sampling_follows_hugging_faces_rule_under_a_shared_seed(family: str) -> None:
    """Temperature, then top-k, then top-p, then one torch.multinomial draw per row from the global generator."""
    ids, mask = inputs(family, B=2)
    for kwargs in (
        {"temperature": 0.7, "top_k": 12},
        {"temperature": 1.4, "top_p": 0.85, "num_return_sequences": 2},
        {"top_k": 20, "top_p": 0.7, "no_repeat_ngram_size": 2, "min_new_tokens": 3},
    ):
        model, _ = twins(family)  # built before seeding: building seeds the generator
        torch.manual_seed(11)
        # top_k=0: Hugging Face's sampling otherwise keeps the top 50
        expected = theirs(family, ids, mask, do_sample=True, max_new_tokens=10, **{"top_k": 0, **kwargs})
        torch.manual_seed(11)
        if family not in SEQ2SEQ:
            kwargs = {"eos_token_id": EOS[family], "pad_token_id": PAD[family], **kwargs}
        got = generate(model, ids, attention_mask=mask, do_sample=True, max_new_tokens=10, **kwargs)  # type: ignore[arg-type]
        assert torch.equal(got, expected), kwargs


def test_seeded_sampling_is_reproducible_and_the_cache_changes_nothing() -> None:
    ids, mask = inputs("bart")
    model, _ = twins("bart")

    def sample(seed: int, use_cache: bool) -> torch.Tensor:
        return generate(
            model,
            ids,
            attention_mask=mask,
            do_sample=True,
            top_k=5,
            max_new_tokens=10,
            generator=torch.Generator().manual_seed(seed),
            use_cache=use_cache,
        )  # type: ignore[arg-type]

    assert torch.equal(sample(7, True), sample(7, False))
    assert not torch.equal(sample(7, True), sample(8, True))


def test_sliding_generation_conditions_on_the_last_block_size_tokens() -> None:
    torch.manual_seed(0)
    model = gpt.GPT(gpt.GPTConfig(vocab_size=30, block_size=8, n_layers=2, n_heads=2, d_model=16)).eval()
    prompt = torch.randint(0, 30, (2, 5))
    expected = prompt
    with torch.no_grad():
        for _ in range(20):  # by hand: the last 8 tokens in, the most likely token out
            expected = torch.cat([expected, model(expected[:, -8:])[:, -1].argmax(-1, keepdim=True)], dim=1)
    for use_cache in (True, False):
        assert torch.equal(generate(model, prompt, max_new_tokens=20, sliding=True, use_cache=use_cache), expected)
        torch.manual_seed(3)
        sampled = generate(model, prompt, max_new_tokens=20, do_sample=True, sliding=True, use_cache=use_cache)
        assert sampled.shape == (2, 25) and torch.equal(sampled[:, :5], prompt)
    beams = beam_search(model, prompt, num_beams=2, max_new_tokens=20, sliding=True)
    assert torch.equal(
        beams.tokens, beam_search(model, prompt, num_beams=2, max_new_tokens=20, sliding=True, use_cache=False).tokens
    )


def test_generation_runs_without_dropout_and_restores_the_mode() -> None:
    torch.manual_seed(0)
    model = gpt.GPT(gpt.GPTConfig(vocab_size=30, block_size=32, n_layers=2, n_heads=2, d_model=16, dropout=0.5))
    prompt = torch.randint(0, 30, (2, 4))
    model.train()
    cached = generate(model, prompt, max_new_tokens=12, use_cache=True)
    assert model.training
    uncached = generate(model.eval(), prompt, max_new_tokens=12, use_cache=False)
    assert not model.training
    assert torch.equal(cached, uncached)  # with dropout on, the two paths would draw different masks
    encoder_decoder = t5.T5(
        t5.T5Config(vocab_size=41, d_model=16, d_kv=6, d_ff=24, n_layers=2, n_heads=3, dropout=0.5)
    ).train()
    ids = torch.randint(2, 41, (2, 5))
    assert (
        torch.equal(generate(encoder_decoder, ids, max_new_tokens=6), generate(encoder_decoder, ids, max_new_tokens=6))
        and encoder_decoder.training
    )


def test_bad_requests_get_errors_that_name_the_argument() -> None:
    model = gpt.GPT(gpt.GPTConfig(vocab_size=20, block_size=8, n_layers=1, n_heads=2, d_model=8))
    prompt = torch.zeros(1, 2, dtype=torch.long)
    bad: list[tuple[dict[str, Any], str]] = [
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"num_beams": 0}, "num_beams"),
        ({"num_beams": 2, "num_return_sequences": 3}, "num_return_sequences"),
        ({"num_return_sequences": 2}, "num_return_sequences"),  # greedy gives one answer per input
        ({"num_beams": 2, "do_sample": True}, "do_sample"),
        ({"temperature": 0.5}, "do_sample=True"),  # a sampling setting without sampling would be silently ignored
        ({"num_beams": 2, "top_k": 5}, "do_sample=True"),
        ({"do_sample": True, "temperature": 0.0}, "temperature must be > 0"),
        ({"do_sample": True, "temperature": float("nan")}, "temperature"),
        ({"do_sample": True, "top_k": 2.5}, "top_k must be an integer, got 2.5"),
        ({"do_sample": True, "top_p": 1.5}, "top_p"),
        ({"no_repeat_ngram_size": -1}, "no_repeat_ngram_size"),
        ({"min_new_tokens": 2}, "need an eos_token_id"),
        ({"forced_eos_token_id": 20}, "forced_eos_token_id"),
        ({"eos_token_id": -1}, "eos_token_id"),
        ({"num_beams": 2, "early_stopping": "never"}, "early_stopping"),
        ({"max_new_tokens": 7}, r"2 prompt tokens \+ 7 new ones exceed the context of 8"),
        ({"attention_mask": torch.ones(1, 3)}, r"attention_mask must have input_ids' shape \(1, 2\)"),
        ({"attention_mask": torch.tensor([[0, 0]])}, "every row must hold at least one token"),
        ({"attention_mask": torch.tensor([[2, 1]])}, "1 \\(a token\\) and 0 \\(padding\\) only"),
    ]
    for kwargs, message in bad:
        with pytest.raises(ValueError, match=message):
            generate(model, prompt, **{"max_new_tokens": 2, **kwargs})
    with pytest.raises(ValueError, match=r"shape \(B, T\) with T >= 1, got \(3,\)"):
        generate(model, torch.tensor([1, 2, 3]))
    with pytest.raises(ValueError, match=r"got \(1, 0\)"):
        generate(model, torch.zeros(1, 0, dtype=torch.long))
    with pytest.raises(ValueError, match="model"):
        generate(nn.Linear(2, 2), prompt)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sliding"):
        generate(twins("t5")[0], prompt, sliding=True)  # type: ignore[arg-type]


def test_a_generation_config_and_keywords_are_one_way_to_say_the_same() -> None:
    """The settings are GenerationConfig's fields: passed as one config, as keywords, or both (the
    keywords win), they decode the same; a name that is no field is refused, named."""
    model = gpt.GPT(gpt.GPTConfig(vocab_size=20, block_size=16, n_layers=1, n_heads=2, d_model=8)).eval()
    prompt = torch.randint(0, 20, (2, 3), generator=torch.Generator().manual_seed(0))
    config = GenerationConfig(max_new_tokens=6, do_sample=True, top_k=5, num_return_sequences=2)
    draws = [
        generate(model, prompt, config=config, generator=torch.Generator().manual_seed(1)),
        generate(
            model,
            prompt,
            max_new_tokens=6,
            do_sample=True,
            top_k=5,
            num_return_sequences=2,
            generator=torch.Generator().manual_seed(1),
        ),
        generate(
            model,
            prompt,
            config=GenerationConfig(max_new_tokens=2),
            max_new_tokens=6,
            do_sample=True,
            top_k=5,
            num_return_sequences=2,
            generator=torch.Generator().manual_seed(1),
        ),
    ]
    assert draws[0].shape == (4, 9)
    assert all(torch.equal(draws[0], other) for other in draws[1:])
    beams = beam_search(model, prompt, config=GenerationConfig(num_beams=3, max_new_tokens=4))
    assert torch.equal(beams.tokens, beam_search(model, prompt, num_beams=3, max_new_tokens=4).tokens)
    with pytest.raises(TypeError, match="unknown generation setting.*max_tokens"):
        generate(model, prompt, max_tokens=5)
    with pytest.raises(ValueError, match="temperature"):
        GenerationConfig(temperature=0.7)  # a config is checked when made, not when used


# ------------------------------------------------------------------------ the sampling rule


def test_top_k_matches_hf_and_keeps_ties() -> None:
    torch.manual_seed(0)
    logits = torch.randn(5, 50)
    for k in (1, 3, 10, 50):
        expected = TopKLogitsWarper(top_k=k)(None, logits.clone())
        assert torch.equal(top_k_filter(logits, k), expected)
    tied = torch.tensor([[3.0, 1.0, 3.0, 2.0, 3.0]])
    assert torch.isfinite(top_k_filter(tied, 2)).tolist() == [[True, False, True, False, True]]


def test_top_p_matches_hf_and_keeps_exactly_the_nucleus() -> None:
    torch.manual_seed(0)
    logits = torch.randn(6, 40) * 2
    for p in (0.1, 0.5, 0.9, 0.99):
        expected = TopPLogitsWarper(top_p=p)(None, logits.clone())
        assert torch.equal(torch.isfinite(top_p_filter(logits, p)), torch.isfinite(expected)), p
    probs = torch.tensor([[0.5, 0.3, 0.15, 0.05]]).log()
    assert torch.isfinite(top_p_filter(probs, 0.8)).tolist() == [[True, True, False, False]]  # 0.5 + 0.3 reaches 0.8
    assert torch.isfinite(top_p_filter(probs, 0.81)).tolist() == [[True, True, True, False]]
    assert torch.isfinite(top_p_filter(probs, 0.4)).tolist() == [[True, False, False, False]]  # never empty
    exactly = probs.softmax(-1).cumsum(-1)[0, 1].item()  # the top two reach p exactly: the third is not needed
    assert torch.isfinite(top_p_filter(probs, exactly)).tolist() == [[True, True, False, False]]


def test_top_p_of_one_keeps_the_whole_vocabulary() -> None:
    """p = 1: every token, though a float32 cumulative sum over 50,000 tokens rounds to 1 long before
    the last one (3,113 and 2,793 of these two rows were dropped before the rule)."""
    logits = torch.randn(2, 50_000, generator=torch.Generator().manual_seed(0)) * 3
    before = logits.sort(-1, descending=True).values.softmax(-1).cumsum(-1)[..., :-1]
    assert bool((before >= 1).any()), "the case must round to 1 before the end, or it tests nothing"
    assert torch.equal(top_p_filter(logits, 1.0), logits)


def test_temperature_divides_the_logits_before_the_softmax() -> None:
    torch.manual_seed(0)
    logits = torch.randn(4, 30)
    for temperature in (0.5, 2.0):
        got = next_token(logits, temperature, generator=torch.Generator().manual_seed(3))
        expected = torch.multinomial((logits / temperature).softmax(-1), 1, generator=torch.Generator().manual_seed(3))
        assert torch.equal(got, expected)
    assert torch.equal(next_token(logits, 0.0), logits.argmax(-1, keepdim=True))
    with pytest.raises(ValueError, match="top_p"):
        top_p_filter(logits, 0.0)
    with pytest.raises(ValueError, match="top_k"):
        top_k_filter(logits, 0)
