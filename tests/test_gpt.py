"""course_lib.gpt against Hugging Face's GPT-2 (weights copied both ways), its sampling warpers and
its generation, and the properties a GPT must have (tied head, GPT-2 init, KV cache, context)."""

from __future__ import annotations

import math

import pytest
import torch
from transformers import GPT2Config, GPT2LMHeadModel, OpenAIGPTConfig, OpenAIGPTLMHeadModel

from course_lib.gpt import (
    GPT,
    PRESETS,
    PUBLISHED_PARAMETERS,
    GPTClassifier,
    GPTConfig,
    from_hf_state_dict,
    lm_loss,
    pair_input,
    to_hf_state_dict,
)

SMALL = [  # (n_layers, n_heads, d_model, vocab, context)
    (1, 2, 16, 50, 16),
    (2, 4, 32, 100, 32),
    (3, 3, 48, 77, 24),
]


def hf_model(n_layers: int, n_heads: int, d_model: int, vocab: int, context: int) -> GPT2LMHeadModel:
    torch.manual_seed(n_layers * 100 + d_model)
    config = GPT2Config(
        vocab_size=vocab,
        n_positions=context,
        n_embd=d_model,
        n_layer=n_layers,
        n_head=n_heads,
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        bos_token_id=0,
        eos_token_id=0,
    )
    model = GPT2LMHeadModel(config).eval()
    with torch.no_grad():  # HF initialises biases and LayerNorms to constants: make every tensor count
        for p in model.parameters():
            p.add_(0.05 * torch.randn_like(p))
    return model


def ours_for(shape: tuple[int, int, int, int, int]) -> GPTConfig:
    n_layers, n_heads, d_model, vocab, context = shape
    return GPTConfig(vocab_size=vocab, block_size=context, n_layers=n_layers, n_heads=n_heads, d_model=d_model)


@pytest.mark.parametrize("shape", SMALL)
def test_hf_gpt2_weights_load_and_give_its_logits(shape: tuple[int, int, int, int, int]) -> None:
    theirs = hf_model(*shape)
    ours = GPT.from_hf(theirs.state_dict(), ours_for(shape)).eval()
    idx = torch.randint(0, shape[3], (3, shape[4]))
    with torch.no_grad():
        expected = theirs(idx).logits
        got = ours(idx)
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("shape", SMALL)
def test_our_weights_save_as_an_hf_state_dict(shape: tuple[int, int, int, int, int]) -> None:
    torch.manual_seed(1)
    ours = GPT(ours_for(shape)).eval()
    theirs = hf_model(*shape)
    exported = to_hf_state_dict(ours)
    assert set(exported) == set(theirs.state_dict())
    theirs.load_state_dict(exported, strict=True)
    idx = torch.randint(0, shape[3], (2, shape[4]))
    with torch.no_grad():
        torch.testing.assert_close(theirs(idx).logits, ours(idx), atol=1e-5, rtol=1e-5)
    again = from_hf_state_dict(exported, shape[0])  # and back: the same tensors
    for name, tensor in ours.state_dict().items():
        torch.testing.assert_close(again[name], tensor, atol=0, rtol=0)


def test_a_state_dict_of_the_wrong_depth_is_refused_by_name() -> None:
    shallow = hf_model(1, 2, 16, 50, 16).state_dict()
    with pytest.raises(
        ValueError,
        match=(
            r"missing: transformer\.h\.1\.attn\.c_attn\.bias.*GPT-2 with 2 layers|GPT-2 with 2 layers needs "
            r"are missing: transformer\.h\.1\."
        ),
    ):
        GPT.from_hf(shallow, GPTConfig(vocab_size=50, block_size=16, n_layers=2, n_heads=2, d_model=16))
    deep = hf_model(3, 2, 16, 50, 16).state_dict()  # a deeper checkpoint must not load its first layers silently
    with pytest.raises(ValueError, match=r"no place for: transformer\.h\.2\.attn\.c_attn\.bias"):
        GPT.from_hf(deep, GPTConfig(vocab_size=50, block_size=16, n_layers=2, n_heads=2, d_model=16))


def test_a_state_dict_of_another_width_or_vocabulary_is_refused_with_the_libraries_own_error() -> None:
    config = GPTConfig(vocab_size=50, block_size=16, n_layers=2, n_heads=2, d_model=16)
    wider = hf_model(2, 2, 24, 50, 16).state_dict()
    with pytest.raises(
        ValueError, match=r"does not fit a GPT of width 16.*wte\.weight \(50, 24\) \(expected \(50, 16\)\)"
    ):
        GPT.from_hf(wider, config)
    more_words = hf_model(2, 2, 16, 60, 16).state_dict()
    with pytest.raises(ValueError, match=r"wte\.weight \(60, 16\) \(expected \(50, 16\)\)"):
        GPT.from_hf(more_words, config)


def test_extra_names_are_refused_but_buffers_and_the_tied_head_are_not() -> None:
    config = GPTConfig(vocab_size=50, block_size=16, n_layers=2, n_heads=2, d_model=16)
    state = hf_model(2, 2, 16, 50, 16).state_dict()
    causal = torch.tril(torch.ones(16, 16, dtype=torch.bool)).view(1, 1, 16, 16)
    with_buffers = (
        state
        | {f"transformer.h.{i}.attn.bias": causal for i in range(2)}
        | {"transformer.h.0.attn.masked_bias": torch.tensor(-1e4)}
    )
    GPT.from_hf(with_buffers, config)  # older checkpoints save the causal mask: no weights, accepted
    bare = {k.removeprefix("transformer."): v for k, v in state.items() if k != "lm_head.weight"}
    GPT.from_hf(bare, config)  # a GPT2Model's names
    with pytest.raises(ValueError, match=r"no place for: classifier\.weight"):
        GPT.from_hf(state | {"classifier.weight": torch.zeros(3, 16)}, config)
    untied = state | {"lm_head.weight": state["lm_head.weight"] + 1}
    with pytest.raises(ValueError, match="ties its LM head"):
        GPT.from_hf(untied, config)


def test_the_names_check_lists_what_does_not_fit() -> None:
    from course_lib.convert import check_names

    check_names(["a", "b", "buffer"], {"a", "b"}, ignorable=lambda n: n == "buffer")
    with pytest.raises(
        ValueError, match=r"1 names that the model needs are missing: c; 2 names that the model has no place for: x, y"
    ):
        check_names(["a", "x", "y"], {"a", "c"})
    with pytest.raises(ValueError, match=r"n00, n01, n02, n03, n04, n05, n06, n07 and 2 more"):
        check_names([f"n{i:02}" for i in range(10)], set())


def test_loss_is_hf_next_token_loss() -> None:
    shape = SMALL[1]
    theirs = hf_model(*shape)
    ours = GPT.from_hf(theirs.state_dict(), ours_for(shape)).eval()
    idx = torch.randint(0, shape[3], (4, shape[4]))
    with torch.no_grad():
        expected = theirs(idx, labels=idx).loss  # HF shifts the labels inside
        torch.testing.assert_close(lm_loss(ours(idx), idx), expected, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_have_the_published_sizes(name: str) -> None:
    """Exactly HF's count for the same architecture, and within 7% of the paper's figure (GPT-2
    small is 124M counted, 117M published: the papers counted differently)."""
    config = PRESETS[name]
    with torch.device("meta"):
        ours = GPT(config).num_parameters()
        if name == "gpt1":
            reference = OpenAIGPTLMHeadModel(OpenAIGPTConfig())
        else:
            reference = GPT2LMHeadModel(
                GPT2Config(n_layer=config.n_layers, n_head=config.n_heads, n_embd=config.d_model)
            )
    assert ours == sum(p.numel() for p in reference.parameters())
    assert abs(ours - PUBLISHED_PARAMETERS[name]) / PUBLISHED_PARAMETERS[name] < 0.07


def test_head_is_tied_to_the_embedding_and_learns_with_it() -> None:
    model = GPT(GPTConfig(vocab_size=40, block_size=8, n_layers=1, n_heads=2, d_model=16))
    assert model.lm_head.weight.data_ptr() == model.wte.weight.data_ptr()
    idx = torch.randint(0, 40, (2, 8))
    before = model.wte.weight.detach().clone()
    lm_loss(model(idx), idx).backward()
    torch.optim.SGD(model.parameters(), lr=1.0).step()
    assert torch.equal(model.lm_head.weight, model.wte.weight) and not torch.equal(model.wte.weight, before)


def test_gpt2_initialisation_scales_residual_projections() -> None:
    torch.manual_seed(0)
    n_layers = 8
    model = GPT(GPTConfig(vocab_size=1000, block_size=64, n_layers=n_layers, n_heads=4, d_model=256))
    block = model.blocks[3]
    assert block.self_attn.out_proj.weight.std().item() == pytest.approx(0.02 / math.sqrt(2 * n_layers), rel=0.05)
    assert block.ff.linear2.weight.std().item() == pytest.approx(0.02 / math.sqrt(2 * n_layers), rel=0.05)
    assert block.self_attn.q_proj.weight.std().item() == pytest.approx(0.02, rel=0.05)
    assert model.wte.weight.std().item() == pytest.approx(0.02, rel=0.05)
    assert torch.all(block.ff.linear1.bias == 0)


def test_gpt1_initialisation_does_not_scale() -> None:
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=1000, block_size=64, n_layers=8, n_heads=4, d_model=256, arrangement="post_ln"))
    assert model.blocks[3].self_attn.out_proj.weight.std().item() == pytest.approx(0.02, rel=0.05)
    assert model.blocks[3].ff.linear2.weight.std().item() == pytest.approx(0.02, rel=0.05)


@pytest.mark.parametrize("arrangement", ["pre_ln", "post_ln", "parallel"])
def test_kv_cache_gives_the_uncached_logits(arrangement: str) -> None:
    torch.manual_seed(0)
    model = GPT(
        GPTConfig(vocab_size=60, block_size=40, n_layers=2, n_heads=4, d_model=32, arrangement=arrangement)
    ).eval()  # type: ignore[arg-type]
    idx = torch.randint(0, 60, (3, 30))
    with torch.no_grad():
        full = model(idx)
        caches = model.new_caches()
        stepped = torch.cat(
            [model(idx[:, :10], caches)] + [model(idx[:, t : t + 1], caches) for t in range(10, 30)], dim=1
        )
    torch.testing.assert_close(stepped, full, atol=1e-5, rtol=1e-5)
    assert caches[0].k is not None and caches[0].k.shape == (3, 4, 30, 8)  # (B, h, T, d_head): time on axis 2


def test_context_is_enforced_with_a_clear_error() -> None:
    model = GPT(GPTConfig(vocab_size=20, block_size=8, n_layers=1, n_heads=2, d_model=8))
    with pytest.raises(ValueError, match=r"9 positions .* context of 8"):
        model(torch.zeros(1, 9, dtype=torch.long))
    caches = model.new_caches()
    model(torch.zeros(1, 6, dtype=torch.long), caches)
    with pytest.raises(ValueError, match="context of 8"):
        model(torch.zeros(1, 3, dtype=torch.long), caches)
    with pytest.raises(ValueError, match="not divisible"):
        GPT(GPTConfig(d_model=10, n_heads=3))


def test_bad_inputs_get_errors_that_name_them() -> None:
    model = GPT(GPTConfig(vocab_size=20, block_size=8, n_layers=1, n_heads=2, d_model=8))
    with pytest.raises(ValueError, match=r"token ids must be in 0 \.\. 19 .* from 0 to 20"):
        model(torch.tensor([[0, 20]]))
    with pytest.raises(ValueError, match="from -1 to 3"):
        model(torch.tensor([[-1, 3]]))
    with pytest.raises(ValueError, match="T must be at least 2"):
        lm_loss(torch.zeros(2, 1, 20), torch.zeros(2, 1, dtype=torch.long))
    with pytest.raises(ValueError, match=r"logits must be \(B, T, V\)"):
        lm_loss(torch.zeros(6, 20), torch.zeros(2, 3, dtype=torch.long))
    for bad, field in [
        ({"n_heads": 0}, "n_heads"),
        ({"vocab_size": 0}, "vocab_size"),
        ({"dropout": 1.0}, "dropout"),
        ({"block_size": -1}, "block_size"),
    ]:
        with pytest.raises(ValueError, match=field):
            GPTConfig(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "change", [{"arrangement": "parallel"}, {"arrangement": "post_ln"}, {"activation": "gelu"}, {"activation": "relu"}]
)
def test_hf_conversion_refuses_what_gpt2_would_compute_differently(change: dict) -> None:
    config = GPTConfig(vocab_size=30, block_size=8, n_layers=2, n_heads=2, d_model=8, **change)
    with pytest.raises(ValueError, match="only GPT-2's arrangement and activation"):
        to_hf_state_dict(GPT(config))
    gpt2_like = to_hf_state_dict(GPT(GPTConfig(vocab_size=30, block_size=8, n_layers=2, n_heads=2, d_model=8)))
    with pytest.raises(ValueError, match="only GPT-2's arrangement and activation"):
        GPT.from_hf(gpt2_like, config)


def test_added_tokens_leave_the_old_vocabulary_alone() -> None:
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=30, block_size=16, n_layers=1, n_heads=2, d_model=16)).eval()
    idx = torch.randint(0, 30, (2, 10))
    with torch.no_grad():
        before = model(idx)
        ids = model.add_tokens(3)
        after = model(idx)
    assert ids == [30, 31, 32] and model.config.vocab_size == 33 and after.shape == (2, 10, 33)
    torch.testing.assert_close(after[..., :30], before, atol=0, rtol=0)
    assert model.lm_head.weight.data_ptr() == model.wte.weight.data_ptr()


def test_classifier_reads_the_extract_position_and_learns() -> None:
    torch.manual_seed(0)
    gpt = GPT(GPTConfig(vocab_size=10, block_size=12, n_layers=2, n_heads=2, d_model=32))
    start, delim, extract = gpt.add_tokens(3)
    classifier = GPTClassifier(gpt, n_classes=2, extract_id=extract)

    def pairs(n: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Does the hypothesis repeat the premise? Inputs padded with 0 after [EXTRACT]."""
        premise = torch.randint(0, 10, (n, 3))
        labels = torch.randint(0, 2, (n,))
        hypothesis = torch.where(labels[:, None] == 1, premise, torch.randint(0, 10, (n, 3)))
        labels = (hypothesis == premise).all(-1).long()
        rows = [
            pair_input(p.tolist(), h.tolist(), start, delim, extract) + [0, 0, 0] for p, h in zip(premise, hypothesis)
        ]
        return torch.tensor(rows), labels

    idx, _ = pairs(4)
    with torch.no_grad():
        logits, lm_logits = classifier(idx)
        position = (idx == extract).nonzero()[:, 1]
        expected = classifier.head(gpt.hidden_states(idx)[torch.arange(4), position])
        torch.testing.assert_close(logits, expected)
        assert lm_logits.shape == (4, 12, 13)
        idx[:, -1] = 7  # what comes after [EXTRACT] cannot matter: the model is causal
        torch.testing.assert_close(classifier(idx)[0], logits)

    def trained_accuracy(seed: int) -> float:
        """A fresh classifier trained on the task (with GPT-1's auxiliary language-model loss)."""
        torch.manual_seed(seed)
        fresh = GPT(GPTConfig(vocab_size=10, block_size=12, n_layers=2, n_heads=2, d_model=32))
        assert list(fresh.add_tokens(3)) == [start, delim, extract]
        model = GPTClassifier(fresh, n_classes=2, extract_id=extract)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for _ in range(1500):
            idx, labels = pairs(64)
            logits, lm_logits = model(idx)
            loss = torch.nn.functional.cross_entropy(logits, labels) + 0.5 * lm_loss(lm_logits, idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        idx, labels = pairs(512)
        with torch.no_grad():
            return (model(idx)[0].argmax(-1) == labels).float().mean().item()

    # A model this small sometimes stalls (about 1 seed in 10 at lr 1e-3 stayed near 0.6 in 20 seeds over
    # two CPU kernel sets, where the others reached 0.91-0.99): the best of three seeds learns the task
    # (chance: 0.5), failing a correct classifier with a probability of about 1e-3; the first seed that does ends it.
    assert any(trained_accuracy(seed) > 0.9 for seed in range(3))
    with pytest.raises(ValueError, match="exactly one \\[EXTRACT\\]"):
        classifier(torch.zeros(1, 5, dtype=torch.long))


def test_training_flops_per_token_is_what_torch_counts_in_a_forward_and_backward() -> None:
    from torch.utils.flop_counter import FlopCounterMode

    B, T = 2, 64
    model = GPT(GPTConfig(vocab_size=512, block_size=T, n_layers=2, n_heads=4, d_model=128))
    idx = torch.randint(0, 512, (B, T))
    with FlopCounterMode(display=False) as counter, torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
        model(idx).sum().backward()  # attention as plain products, which torch counts
    # torch counts every product's multiply-adds as 2 FLOPs, attention's full T x T
    counted = counter.get_total_flops() / (B * T)
    # ours also counts biases and norm gains as if multiplied (1% of the weights here): slightly above
    assert counted <= model.training_flops_per_token() <= 1.02 * counted
    n = model.num_parameters() - T * 128
    assert model.training_flops_per_token(context=16) == 6 * n + 12 * 2 * 128 * 16
