"""course_lib.finetune: pooling and heads on every family, freezing, probes, LoRA against peft's on
Hugging Face's BertModel with the same A and B, adapters, and saving only what was trained."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
import transformers
from peft import LoraConfig, get_peft_model
from torch import nn

from course_lib.bart import Bart, BartConfig
from course_lib.bert import Bert, BertConfig, BertForPreTraining, from_hf_state_dict, hf_config_kwargs
from course_lib.finetune import (
    IGNORE_INDEX,
    LoRALinear,
    SequenceClassifier,
    TokenClassifier,
    TrainingMemory,
    accuracy,
    add_adapters,
    apply_lora,
    classification_loss,
    features,
    freeze,
    hidden_states,
    layer_features,
    load_trained,
    lora_disabled,
    lora_layers,
    merge_lora,
    pool,
    predict,
    save_trained,
    tensor_batches,
    trainable_parameters,
    training_memory,
)
from course_lib.gpt import GPT, GPTConfig
from course_lib.projections import fused_projections
from course_lib.t5 import T5, T5Config
from course_lib.train import TrainConfig, train

transformers.logging.set_verbosity_error()

TINY_BERT = BertConfig(vocab_size=97, block_size=40, n_layers=3, n_heads=3, d_model=30, d_ff=44, dropout=0.0)
HF_BERT = transformers.BertConfig(**hf_config_kwargs(TINY_BERT))  # the same model as Hugging Face builds it


def right_padded(seed: int, B: int = 5, T: int = 11, vocab: int = 97) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(3, vocab, (B, T), generator=g)
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    lengths[0] = T
    mask = (torch.arange(T) < lengths[:, None]).long()
    return idx * mask, mask  # padding id 0


def bert(seed: int = 0) -> Bert:
    torch.manual_seed(seed)
    return Bert(TINY_BERT).eval()


# ------------------------------------------------------------------------------ pooling, heads


def test_pooling_reads_cls_the_mean_of_real_tokens_and_the_last_real_token() -> None:
    hidden = torch.randn(3, 5, 4, dtype=torch.float64)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]])
    torch.testing.assert_close(pool(hidden, mask, "cls"), hidden[:, 0])
    expected_mean = torch.stack([hidden[0].mean(0), hidden[1, :2].mean(0), hidden[2, 0]])
    torch.testing.assert_close(pool(hidden, mask, "mean"), expected_mean)
    torch.testing.assert_close(pool(hidden, mask, "last"), torch.stack([hidden[0, 4], hidden[1, 1], hidden[2, 0]]))
    torch.testing.assert_close(pool(hidden, None, "last"), hidden[:, -1])
    with pytest.raises(ValueError, match="right padding"):
        pool(hidden, torch.tensor([[0, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]]), "last")
    with pytest.raises(ValueError, match="pooling must be one of"):
        pool(hidden, mask, "max")  # type: ignore[arg-type]


@pytest.mark.parametrize("family", ["bert", "bert_pretraining", "gpt", "t5", "bart"])
def test_every_family_gives_hidden_states_that_padding_does_not_change(family: str) -> None:
    torch.manual_seed(1)
    model = {
        "bert": lambda: Bert(TINY_BERT),
        "bert_pretraining": lambda: BertForPreTraining(TINY_BERT),
        "gpt": lambda: GPT(GPTConfig(vocab_size=97, block_size=16, n_layers=2, n_heads=3, d_model=30)),
        "t5": lambda: T5(
            T5Config(vocab_size=97, d_model=30, d_kv=7, d_ff=44, n_layers=2, n_decoder_layers=1, n_heads=3, dropout=0.0)
        ),
        "bart": lambda: Bart(
            BartConfig(
                vocab_size=97,
                block_size=16,
                n_layers=2,
                n_decoder_layers=1,
                n_heads=3,
                d_model=30,
                d_ff=44,
                dropout=0.0,
                mask_id=96,
            )
        ),
    }[family]().eval()
    idx, mask = right_padded(2)
    hidden = hidden_states(model, idx, mask)
    assert hidden.shape == (5, 11, 30)
    row = 1 + int(torch.nonzero(mask.sum(1) < 11)[0])  # a padded row, alone and unpadded
    n = int(mask[row - 1].sum())
    alone = hidden_states(model, idx[row - 1 : row, :n], mask[row - 1 : row, :n])
    torch.testing.assert_close(hidden[row - 1, :n], alone[0], atol=1e-5, rtol=1e-5)
    classifier = SequenceClassifier(model, n_classes=3, pooling="last" if family == "gpt" else "mean").eval()
    assert classifier(idx, mask).shape == (5, 3)
    assert TokenClassifier(model, n_classes=4)(idx, mask).shape == (5, 11, 4)


def test_hidden_states_refuse_what_they_cannot_read() -> None:
    gpt = GPT(GPTConfig(vocab_size=97, block_size=16, n_layers=1, n_heads=3, d_model=30))
    idx, _ = right_padded(0)
    with pytest.raises(ValueError, match="every row must hold at least one token"):
        hidden_states(gpt, idx, torch.ones_like(idx).index_fill_(0, torch.tensor([2]), 0))
    with pytest.raises(ValueError, match="shape of input_ids"):
        hidden_states(bert(), idx, torch.ones(5, 3))
    with pytest.raises(TypeError, match="no hidden states for a Linear"):
        hidden_states(torch.nn.Linear(2, 2), idx)
    with pytest.raises(ValueError, match="at least 2 classes"):
        SequenceClassifier(bert(), n_classes=1)


class _WidthSpy(nn.Module):
    """Logits (B, 3) from each row's own ids, recording the width of every batch it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.widths: list[int] = []

    def forward(self, idx: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        used = int(mask.sum(dim=1).max())
        self.widths.append(used)
        return F.one_hot((idx[:, :used] * mask[:, :used]).sum(dim=1) % 3, 3).float()


def test_predict_batches_rows_by_length_and_returns_them_in_the_given_order() -> None:
    idx, mask = right_padded(3, B=40, T=16)
    expected = (idx * mask).sum(dim=1) % 3  # (N,): what each row alone gives
    spy = _WidthSpy()
    torch.testing.assert_close(predict(spy, [idx, mask], batch_size=8), expected)
    assert spy.widths == sorted(spy.widths) and spy.widths[0] < 16, "short rows first, each batch as wide as it needs"
    model = SequenceClassifier(bert(), n_classes=2, pooling="mean").eval()
    one_by_one = torch.cat([model(idx[i : i + 1], mask[i : i + 1]).argmax(-1) for i in range(len(idx))])
    torch.testing.assert_close(predict(model, [idx, mask], batch_size=7), one_by_one)
    assert model.training is False and accuracy(model, [idx, mask], one_by_one) == 1.0
    tokens = TokenClassifier(bert(), n_classes=4).eval()  # (N, T) predictions, also in the given order
    torch.testing.assert_close(predict(tokens, [idx, mask], batch_size=6), tokens(idx, mask).argmax(-1))


def test_classification_loss_is_cross_entropy_and_refuses_labels_outside_the_classes() -> None:
    classifier = SequenceClassifier(bert(), n_classes=3).eval()
    idx, mask = right_padded(3)
    labels = torch.tensor([0, 2, 1, 1, 0])
    loss = classification_loss(classifier, (idx, mask), labels)
    torch.testing.assert_close(loss, F.cross_entropy(classifier(idx, mask), labels))
    with pytest.raises(ValueError, match=r"labels must be in 0 \.\. 2 .*\[3, 7\]"):
        classification_loss(classifier, (idx, mask), torch.tensor([0, 3, 1, 7, 0]))
    tagger = TokenClassifier(bert(), n_classes=2).eval()
    tags = torch.where(mask.bool(), torch.randint(0, 2, mask.shape), IGNORE_INDEX)
    logits = tagger(idx, mask)
    torch.testing.assert_close(
        classification_loss(tagger, (idx, mask), tags), F.cross_entropy(logits[mask.bool()], tags[mask.bool()])
    )


# ---------------------------------------------------------------------------------- freezing


def test_freezing_by_pattern_and_by_block_counts_what_is_trained() -> None:
    classifier = SequenceClassifier(bert(), n_classes=2)
    head = 30 * 2 + 2
    assert freeze(classifier, ["head.*"]) == head
    assert {n for n, p in classifier.named_parameters() if p.requires_grad} == {"head.weight", "head.bias"}
    block = sum(p.numel() for p in classifier.body.encoder.layers[-1].parameters())
    assert freeze(classifier, ["head.*"], blocks=[-1]) == head + block
    assert all(p.requires_grad for p in classifier.body.encoder.layers[2].parameters())
    assert not any(p.requires_grad for p in classifier.body.encoder.layers[1].parameters())
    biases = sum(p.numel() for n, p in classifier.named_parameters() if n.endswith(".bias"))
    assert freeze(classifier, ["*.bias", "head.weight"]) == biases + 60  # BitFit
    assert trainable_parameters(classifier) == biases + 60
    with pytest.raises(
        ValueError,
        match=r"'\*\.query\.\*' matches no parameter; .*body\.encoder\.layers\.\*\.self_attn\.q_proj\.weight",
    ):
        freeze(classifier, ["*.query.*"])
    with pytest.raises(ValueError, match="block 3 does not exist: the model has 3 blocks"):
        freeze(classifier, blocks=[3])
    t5 = T5(T5Config(vocab_size=97, d_model=30, d_kv=7, d_ff=44, n_layers=2, n_decoder_layers=1, n_heads=3))
    with pytest.raises(ValueError, match="one stack of blocks"):
        freeze(t5, blocks=[0])


# ------------------------------------------------------------------------------------ probes


def test_layer_features_are_every_blocks_pooled_output_and_the_last_is_the_models() -> None:
    model = bert(4)
    idx, mask = right_padded(5, B=7)
    every = features(model, idx, mask, ("mean", "last"), batch_size=3, every_layer=True)
    assert every["mean"].shape == every["last"].shape == (4, 7, 30)
    hidden = model(idx, attention_mask=mask)
    torch.testing.assert_close(every["mean"][-1], pool(hidden, mask, "mean"))
    torch.testing.assert_close(every["last"][-1], pool(hidden, mask, "last"))
    torch.testing.assert_close(features(model, idx, mask, ("cls",), batch_size=2)["cls"], hidden[:, 0])
    first = model.encoder.layers[0](model.embeddings(idx, torch.zeros_like(idx)), mask[:, None, :].bool())
    torch.testing.assert_close(layer_features(model, idx, mask, ("cls",))["cls"][1], first[:, 0])
    assert not model.encoder.layers[0]._forward_hooks  # the hooks are gone after


def test_a_probe_trained_by_the_course_loop_learns_a_linear_rule_on_cached_features() -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(600, 8, generator=g)
    y = (x @ torch.randn(8, generator=g) > 0).long()
    probe = torch.nn.Linear(8, 2)
    batches = tensor_batches((x[:500], y[:500]), (x[500:], y[500:]), batch_size=64)
    history = train(
        probe,
        batches,
        TrainConfig(steps=150, lr=0.05, min_lr=0.01, eval_every=150, progress=False, device="cpu"),
        classification_loss,
    )
    assert history.val_loss[-1] < 0.3
    assert accuracy(probe, [x[500:]], y[500:]) > 0.9
    with pytest.raises(ValueError, match="same number of rows"):
        tensor_batches((x, y[:3]), (x, y), 4)


# -------------------------------------------------------------------------------------- LoRA


def test_lora_equals_peft_on_hf_bert_with_the_same_a_and_b_outputs_and_merged_weights() -> None:
    torch.manual_seed(6)
    hf = transformers.BertModel(HF_BERT, add_pooling_layer=False).eval()
    ours = Bert(TINY_BERT, pooler=False)
    ours.load_state_dict(from_hf_state_dict(hf.state_dict(), ours))
    ours.eval()
    r, alpha = 4, 12
    wrapped = apply_lora(ours, ["*.q_proj", "*.v_proj"], r=r, alpha=alpha)
    assert wrapped == [f"encoder.layers.{i}.self_attn.q_proj" for i in range(3)] + [
        f"encoder.layers.{i}.self_attn.v_proj" for i in range(3)
    ]
    peft_model = get_peft_model(
        hf, LoraConfig(r=r, lora_alpha=alpha, target_modules=["query", "value"], lora_dropout=0.0)
    ).eval()
    idx, mask = right_padded(7)
    # B = 0: both are the base
    torch.testing.assert_close(
        ours(idx, attention_mask=mask), hf(input_ids=idx, attention_mask=mask).last_hidden_state, atol=1e-5, rtol=1e-5
    )
    g = torch.Generator().manual_seed(8)
    with torch.no_grad():
        for i in range(3):
            for ours_name, hf_name in (("q_proj", "query"), ("v_proj", "value")):
                layer = ours.encoder.layers[i].self_attn.get_submodule(ours_name)
                theirs = peft_model.base_model.model.encoder.layer[i].attention.self.get_submodule(hf_name)
                layer.lora_A.copy_(torch.randn(layer.lora_A.shape, generator=g))
                layer.lora_B.copy_(torch.randn(layer.lora_B.shape, generator=g) * 0.1)
                theirs.lora_A["default"].weight.copy_(layer.lora_A)
                theirs.lora_B["default"].weight.copy_(layer.lora_B)
    expected = peft_model(input_ids=idx, attention_mask=mask).last_hidden_state
    torch.testing.assert_close(ours(idx, attention_mask=mask), expected, atol=1e-5, rtol=1e-5)
    merged_hf = peft_model.merge_and_unload()
    merge_lora(ours)
    for i in range(3):
        torch.testing.assert_close(
            ours.encoder.layers[i].self_attn.q_proj.base.weight, merged_hf.encoder.layer[i].attention.self.query.weight
        )
        torch.testing.assert_close(
            ours.encoder.layers[i].self_attn.v_proj.base.weight, merged_hf.encoder.layer[i].attention.self.value.weight
        )
    torch.testing.assert_close(ours(idx, attention_mask=mask), expected, atol=1e-5, rtol=1e-5)


def test_lora_starts_at_the_base_trains_only_a_and_b_and_disabling_brings_the_base_back() -> None:
    model = bert(9)
    idx, mask = right_padded(10)
    before = model(idx, attention_mask=mask)
    apply_lora(
        model,
        ["*.q_proj", "*.k_proj", "*.v_proj", "*.out_proj"],
        r=2,
        alpha=4,
        generator=torch.Generator().manual_seed(0),
    )
    torch.testing.assert_close(model(idx, attention_mask=mask), before)  # B = 0
    layer = model.encoder.layers[0].self_attn.q_proj
    assert isinstance(layer, LoRALinear) and layer.scale == 2.0 and not bool((layer.lora_A == 0).any())
    bound = 1 / 30**0.5  # Kaiming-uniform with a = sqrt(5): U(-1/sqrt(in), 1/sqrt(in)), as loralib
    largest = float(layer.lora_A.detach().abs().max())
    assert 0.8 * bound < largest <= bound
    assert freeze(model, ["*lora_*"]) == 3 * 4 * (2 * 30 + 30 * 2)
    model(idx, attention_mask=mask).pow(2).mean().backward()
    assert not bool(layer.lora_A.grad.any())  # B = 0 at the start: A's first gradient is zero...
    assert layer.lora_B.grad is not None and float(layer.lora_B.grad.abs().sum()) > 0  # ...B does
    assert layer.base.weight.grad is None
    with torch.no_grad():
        for lora in lora_layers(model):
            lora.lora_B.normal_()
    tuned = model(idx, attention_mask=mask)
    assert not torch.allclose(tuned, before, atol=1e-3)
    with lora_disabled(model):
        torch.testing.assert_close(model(idx, attention_mask=mask), before, atol=0, rtol=0)
    torch.testing.assert_close(model(idx, attention_mask=mask), tuned)
    merge_lora(model)
    torch.testing.assert_close(model(idx, attention_mask=mask), tuned, atol=1e-5, rtol=1e-4)
    with pytest.raises(RuntimeError, match="merged already"):
        layer.merge()
    with pytest.raises(RuntimeError, match="unmerge"), lora_disabled(model):
        pass
    for lora in lora_layers(model):
        lora.unmerge()
    with lora_disabled(model):
        torch.testing.assert_close(model(idx, attention_mask=mask), before, atol=1e-5, rtol=1e-4)


def test_lora_refuses_a_target_that_matches_no_linear_a_rank_too_large_and_wrapping_twice() -> None:
    model = bert()
    with pytest.raises(
        ValueError, match=r"'\*\.query' matches no linear layer; .*encoder\.layers\.\*\.self_attn\.q_proj"
    ):
        apply_lora(model, ["*.query"], r=2, alpha=2)
    with pytest.raises(ValueError, match=r"rank r=31 must be in 1 \.\. 30"):
        apply_lora(model, ["*.q_proj"], r=31, alpha=2)
    apply_lora(model, ["*.q_proj"], r=2, alpha=2)
    with pytest.raises(ValueError, match="matches no linear layer"):
        apply_lora(model, ["*q_proj*"], r=2, alpha=2)  # the wrapped base is not wrapped again


# ---------------------------------------------------------------------------------- adapters


def test_adapters_start_near_the_identity_and_sit_after_the_chosen_outputs() -> None:
    model = bert(11)
    idx, mask = right_padded(12)
    before = model(idx, attention_mask=mask)
    wrapped = add_adapters(model, ["*.out_proj", "*.linear2"], bottleneck=4)
    assert len(wrapped) == 6
    after = model(idx, attention_mask=mask)
    assert 0 < float((after - before).abs().max()) < 1e-3
    per_adapter = 30 * 4 + 4 + 4 * 30 + 30
    assert freeze(model, ["*.adapter.*"]) == 6 * per_adapter
    adapted = model.encoder.layers[0].ff.linear2
    with torch.no_grad():
        adapted.adapter.up.weight.normal_()
    h = adapted.base(torch.randn(2, 3, 44))
    torch.testing.assert_close(adapted.adapter(h), h + adapted.adapter.up(F.gelu(adapted.adapter.down(h))))


# ------------------------------------------------------------------------ saving what trained


def test_only_the_trained_parameters_are_saved_and_a_file_for_another_base_is_refused(tmp_path) -> None:
    def lora_classifier(seed: int) -> SequenceClassifier:
        model = SequenceClassifier(bert(seed), n_classes=2)
        apply_lora(model, ["*.q_proj", "*.v_proj"], r=2, alpha=4)
        freeze(model, ["*lora_*", "head.*"])
        return model

    model = lora_classifier(0)
    with torch.no_grad():
        for lora in lora_layers(model):
            lora.lora_B.normal_()
    idx, mask = right_padded(13)
    model.eval()
    expected = model(idx, mask)
    size = save_trained(model, tmp_path / "lora.pt")
    assert size < 20_000  # 6 x (2 x 30 + 30 x 2) + 62 numbers, not the model's 40 thousand
    same_base = lora_classifier(0).eval()
    assert not torch.allclose(same_base(idx, mask), expected)
    load_trained(same_base, tmp_path / "lora.pt")
    torch.testing.assert_close(same_base(idx, mask), expected)
    with pytest.raises(ValueError, match="saved for a different base model"):
        load_trained(lora_classifier(1), tmp_path / "lora.pt")
    other_targets = SequenceClassifier(bert(0), n_classes=2)
    apply_lora(other_targets, ["*.q_proj"], r=2, alpha=4)
    freeze(other_targets, ["*lora_*", "head.*"])
    with pytest.raises(ValueError, match="does not hold this model's trained parameters"):
        load_trained(other_targets, tmp_path / "lora.pt")
    merge_lora(model)
    with pytest.raises(RuntimeError, match="unmerge"):
        save_trained(model, tmp_path / "merged.pt")


# ------------------------------------------------------------------------- what training costs


def test_training_memory_counts_weights_trained_gradients_adam_and_saved_activations() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    x = torch.randn(32, 8)
    full = training_memory(model, lambda: model(x).sum())
    weights = (8 * 16 + 16 + 16 * 4 + 4) * 4
    # the first layer saves its input for its weight's gradient; ReLU saves its output, which the
    # second layer saves too (one tensor, counted once)
    assert full == TrainingMemory(weights, weights, 2 * weights, (32 * 8 + 32 * 16) * 4)
    freeze(model, ["2.*"])
    head_only = training_memory(model, lambda: model(x).sum())
    # no graph below the head
    assert head_only == TrainingMemory(weights, (16 * 4 + 4) * 4, 2 * (16 * 4 + 4) * 4, 32 * 16 * 4)
    assert head_only.total < full.total


def test_attention_makes_lora_wrapped_projections_in_one_product_with_the_same_numbers() -> None:
    model = bert(14)
    apply_lora(model, ["*.q_proj", "*.v_proj"], r=3, alpha=6)
    attn = model.encoder.layers[0].self_attn
    with torch.no_grad():
        attn.q_proj.lora_B.normal_()
        attn.v_proj.lora_B.normal_()
    x = torch.randn(2, 5, 30)
    calls = []
    fused = fused_projections((attn.q_proj, attn.k_proj, attn.v_proj), x)
    separate = (attn.q_proj(x), attn.k_proj(x), attn.v_proj(x))
    for a, b in zip(fused, separate, strict=True):
        torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-5)
    hook = attn.q_proj.register_forward_hook(lambda module, args, out: calls.append(out))
    # a hooked projection is called as the module it is: the hook sees the call
    fused_projections((attn.q_proj, attn.k_proj, attn.v_proj), x)
    hook.remove()
    assert len(calls) == 1
