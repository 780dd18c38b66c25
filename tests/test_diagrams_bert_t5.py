"""The schematics of chapters 4 and 5 (course_lib.diagrams.bert and .seq2seq): each is drawn from a run
of the model it is given, so every name it prints is a submodule of that model, a renamed submodule is
renamed in the figure, the sizes and counts follow the model and the example, bad arguments are
refused, the labels stay apart and inside the figure, and drawing changes nothing in the model."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from torch import nn  # noqa: E402

from course_lib.attention import KVCache  # noqa: E402
from course_lib.bart import Bart, BartConfig  # noqa: E402
from course_lib.bert import IGNORE_INDEX, Bert, BertConfig, BertForPreTraining, mask_tokens  # noqa: E402
from course_lib.diagrams import bert_embeddings, bert_masking, decoder_caches, t5_data_flow  # noqa: E402
from course_lib.seq2seq import shift_right  # noqa: E402
from course_lib.t5 import T5, T5Config, span_corruption  # noqa: E402
from course_lib.wordpiece import SPECIAL_TOKENS, WordPieceTokenizer  # noqa: E402

from test_diagrams import labels, layout_problems, texts, with_gid  # noqa: E402

WORDS = ["to", "be", ",", "or", "not", "that", "is", "the", "question", "whether", "'", "tis", "nobler"]
TOKENIZER = WordPieceTokenizer([*SPECIAL_TOKENS, *dict.fromkeys(WORDS), *(f"w{i}" for i in range(20))])
BERT = BertConfig(vocab_size=TOKENIZER.vocab_size, block_size=24, n_layers=2, n_heads=2, d_model=16, dropout=0.1)
T5_CONFIG = T5Config(vocab_size=64, d_model=16, d_kv=4, d_ff=32, n_layers=2, n_heads=2, dropout=0.1)


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def renamed(module: nn.Module, old: str, new: str) -> nn.Module:
    """``module`` with its submodule ``old`` moved to ``new``: the code that reads ``self.old`` still
    finds it (through a property of a one-off subclass), but every name the module reports is ``new``."""
    module._modules[new] = module._modules.pop(old)
    module.__class__ = type(
        f"Renamed{type(module).__name__}", (type(module),), {old: property(lambda self: getattr(self, new))}
    )
    return module


def resolve(model: nn.Module, path: str) -> nn.Module:
    """The submodule the figure calls ``path`` (``decoder.layers[i].self_attn``: block 0's)."""
    return model.get_submodule(re.sub(r"\[(\d+|i)\]", lambda m: "." + m.group(1).replace("i", "0"), path))


def paths(label: str) -> list[str]:
    """The dotted submodule paths in a label (``bert.embeddings.word``, ``encoder.layers[2]``)."""
    return re.findall(r"[A-Za-z_]\w*(?:(?:\.[A-Za-z_]\w*)|\[(?:\d+|i)\])+", label)


def pair() -> tuple[list[str], list[int]]:
    encoding = TOKENIZER.encode("to be, or not", "that is the question")
    return [TOKENIZER.tokens[i] for i in encoding.input_ids], encoding.token_type_ids


def masking(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """A masking of a line that chose at least one position of each kind: [MASK], random, unchanged."""
    idx = torch.tensor([TOKENIZER.encode("to be, or not to be, that is the question").input_ids])
    special = list(TOKENIZER.special_tokens.values())
    for s in range(seed, seed + 5000):
        inputs, labels = mask_tokens(
            idx,
            mask_id=TOKENIZER.mask_id,
            special_ids=special,
            vocab_size=TOKENIZER.vocab_size,
            generator=torch.Generator().manual_seed(s),
        )
        chosen = labels != IGNORE_INDEX
        given, original = inputs[chosen], idx[chosen]
        if (
            (given == TOKENIZER.mask_id).any()
            and (given == original).any()
            and ((given != original) & (given != TOKENIZER.mask_id)).any()
        ):
            return idx, inputs, labels
    raise AssertionError("no seed gave all three kinds")


def t5_example(n_words: int = 12) -> tuple[list[str], torch.Tensor]:
    words = (WORDS * 2)[:n_words]
    noise = torch.zeros(n_words, dtype=torch.bool)
    noise[[3, 4, n_words - 2, n_words - 1]] = True  # two spans: "or not" and the last two words
    return words, noise


def bert_model(**changes: object) -> BertForPreTraining:
    torch.manual_seed(0)
    return BertForPreTraining(BertConfig(**{**vars(BERT), **changes}))


def t5_model(**changes: object) -> T5:
    torch.manual_seed(0)
    return T5(T5Config(**{**vars(T5_CONFIG), **changes}))


# ---------------------------------------------------------------------------- BERT's embeddings


def test_bert_embeddings_names_the_tables_the_model_looks_up() -> None:
    model = bert_model()
    tokens, segments = pair()
    drawn = labels(bert_embeddings(model, tokens, segments))
    embeddings = model.bert.embeddings
    for name, module in (("bert.embeddings.word", embeddings.word),
                         ("bert.embeddings.token_type", embeddings.token_type),
                         ("bert.embeddings.position", embeddings.position), ("bert.embeddings.norm", embeddings.norm),
                         ("bert.embeddings.drop", embeddings.drop),
                         ("bert.encoder.layers[0]", model.bert.encoder.layers[0])):  # fmt: skip
        assert name in drawn and resolve(model, name) is module
    assert {p for label in drawn for p in paths(label)} == {
        "bert.embeddings.word",
        "bert.embeddings.token_type",
        "bert.embeddings.position",
        "bert.embeddings.norm",
        "bert.embeddings.drop",
        "bert.encoder.layers[0]",
    }
    # the tables' shapes, in the book's symbols and in numbers
    assert (
        f"(V, d_model) = ({BERT.vocab_size}, 16)" in drawn
        and "(2, d_model) = (2, 16)" in drawn
        and "(T_max, d_model) = (24, 16)" in drawn
    )
    assert "LayerNorm, eps 1e-12" in drawn and "dropout, p = 0.1" in drawn
    assert f"(B, T, d_model) = (1, {len(tokens)}, 16), to" in drawn


def test_bert_embeddings_draws_one_column_per_token_with_its_segment_and_position() -> None:
    tokens, segments = pair()
    fig = bert_embeddings(bert_model(), tokens, segments)
    T = len(tokens)
    assert len(with_gid(fig, "token")) == len(with_gid(fig, "embed-token")) == len(with_gid(fig, "embed-position")) == T
    assert (
        (len(with_gid(fig, "embed-segment-0")), len(with_gid(fig, "embed-segment-1")))
        == (segments.count(0), segments.count(1))
        == (7, 5)
    )
    drawn = labels(fig)
    # the segment ids and positions under the tokens, each segment's row named E_A or E_B
    assert drawn.count("$E_{A}$") == 7 and drawn.count("$E_{B}$") == 5
    assert [f"$E_{{{t}}}$" for t in range(T)] == [label for label in drawn if re.fullmatch(r"\$E_\{\d+\}\$", label)]
    assert "$E_{\\mathtt{[CLS]}}$" in drawn and "$E_{\\mathtt{question}}$" in drawn
    fig.canvas.draw()  # every mathtext label parses


def test_bert_embeddings_follow_the_model_and_the_example() -> None:
    drawn = labels(
        bert_embeddings(
            Bert(BertConfig(vocab_size=50, block_size=12, type_vocab_size=3, n_layers=1, n_heads=1, d_model=8)),
            ["[CLS]", "a", "[SEP]", "b", "[SEP]", "c"],
            [0, 0, 0, 1, 1, 2],
        )
    )
    assert "embeddings.word" in drawn and "bert.embeddings.word" not in drawn  # names relative to the model given
    assert {"(V, d_model) = (50, 8)", "(3, d_model) = (3, 8)", "(T_max, d_model) = (12, 8)", "$E_{C}$"} <= set(drawn)
    assert "encoder.layers[0]" in drawn


def test_bert_embeddings_rename_with_the_model() -> None:
    model = bert_model()
    renamed(model.bert.embeddings, "token_type", "segment")
    renamed(model.bert, "encoder", "stack")
    drawn = labels(bert_embeddings(model, *pair()))
    assert "bert.embeddings.segment" in drawn and "bert.embeddings.token_type" not in drawn
    assert "bert.stack.layers[0]" in drawn
    # the code still reads the old name
    assert resolve(model, "bert.embeddings.segment") is model.bert.embeddings.token_type


@pytest.mark.parametrize(
    "args, error, message",
    [
        ((nn.Linear(2, 2), ["a"], [0]), TypeError, "must be a course_lib.bert.Bert or BertForPreTraining"),
        ((None, "[CLS] a", [0]), TypeError, "tokens must be a sequence of non-empty token strings"),
        ((None, ["[CLS]", "a"], [0]), ValueError, "token_type_ids must give one segment per token: 1 for 2 tokens"),
        ((None, ["a"] * 17, [0] * 17), ValueError, "tokens must hold 1 to 16 tokens"),
        ((None, ["[CLS]", "a"], [0, 2]), ValueError, r"segment ids \(token_type_ids\) must be in 0 .. 1"),
        ((None, ["[CLS]", "a"], [0, True]), TypeError, "token_type_ids must be a sequence of integers"),
        ((None, ["a-very-long-token-indeed"] * 14, [0] * 14), ValueError, "the tokens are too wide for 14 columns"),
    ],
)
def test_bert_embeddings_refuse_bad_arguments(args: tuple, error: type[Exception], message: str) -> None:
    model = bert_model() if args[0] is None else args[0]
    with pytest.raises(error, match=message):
        bert_embeddings(model, *args[1:])


def test_bert_embeddings_refuse_more_tokens_than_positions() -> None:
    with pytest.raises(ValueError, match="do not fit in the context of 4"):
        bert_embeddings(bert_model(block_size=4), ["a"] * 5, [0] * 5)


# ------------------------------------------------------------------------------- BERT's masking


def test_bert_masking_sorts_each_position_as_mask_tokens_treated_it() -> None:
    idx, inputs, labels_ = masking()
    fig = bert_masking(bert_model(), TOKENIZER, idx, inputs, labels_)
    chosen = labels_[0] != IGNORE_INDEX
    N, T = int(chosen.sum()), idx.shape[1]
    given, original = inputs[0], idx[0]
    kinds = {
        "input-[MASK]": int((chosen & (given == TOKENIZER.mask_id)).sum()),
        "input-random": int((chosen & (given != original) & (given != TOKENIZER.mask_id)).sum()),
        "input-unchanged": int((chosen & (given == original)).sum()),
        "input-not-chosen": T - N,
    }
    assert all(kinds.values())
    for gid, count in kinds.items():
        assert len(with_gid(fig, gid)) == count, gid
    assert len(with_gid(fig, "chosen")) == len(with_gid(fig, "hidden-chosen")) == len(with_gid(fig, "gathered")) == N
    assert len(with_gid(fig, "hidden")) == T - N
    drawn = labels(fig)
    assert drawn.count(str(IGNORE_INDEX)) == T - N  # the labels row: -100 wherever nothing was chosen
    assert f"N = {N} of these {T}" in " ".join(drawn)
    # the N targets, in order
    assert any(f"{[TOKENIZER.tokens[i] for i in original[chosen].tolist()]}" in label for label in drawn)
    assert (
        "chosen, replaced by [MASK]: 80%" in drawn
        and "chosen, replaced by a random token: 10%" in drawn
        and "chosen, left as it is: 10%" in drawn
    )
    assert any("rate = 0.15" in label for label in drawn)


def test_bert_masking_draws_the_shapes_the_model_computes() -> None:
    model = bert_model()
    idx, inputs, labels_ = masking()
    drawn = labels(bert_masking(model, TOKENIZER, idx, inputs, labels_))
    masked = labels_ != IGNORE_INDEX
    with torch.no_grad():
        gathered = model(inputs, masked=masked).mlm_logits
        everywhere = model(inputs).mlm_logits
    assert tuple(gathered.shape) == (int(masked.sum()), BERT.vocab_size) and everywhere.shape == (
        *idx.shape,
        BERT.vocab_size,
    )
    assert f"({gathered.shape[0]}, {BERT.vocab_size})" in drawn  # (N, V)
    assert f"({gathered.shape[0]}, 16)" in drawn  # (N, d_model): hidden[masked]
    assert any(f"(B, T, V) = {tuple(everywhere.shape)}" in label for label in drawn)
    assert "hidden[masked]" in drawn and f"(1, {idx.shape[1]}, 16)" in drawn


def test_bert_masking_names_the_head_and_the_tied_table() -> None:
    model = bert_model()
    drawn = labels(bert_masking(model, TOKENIZER, *masking()))
    assert "mlm: dense → gelu → norm → decoder" in drawn
    assert all(isinstance(resolve(model, f"mlm.{name}"), nn.Module) for name in ("dense", "norm", "decoder"))
    assert "mlm.decoder.weight is bert.embeddings.word.weight (tied)" in drawn
    assert model.mlm.decoder.weight is model.bert.embeddings.word.weight
    for label in drawn:
        for path in paths(label.replace(" (tied)", "").replace(".weight", "")):
            resolve(model, path)
    assert any(label.startswith("bert(inputs)") for label in drawn)


def test_bert_masking_renames_with_the_model() -> None:
    model = bert_model()
    renamed(model, "mlm", "lm")
    renamed(model.lm, "dense", "transform")  # type: ignore[arg-type]
    drawn = labels(bert_masking(model, TOKENIZER, *masking()))
    assert "lm: transform → gelu → norm → decoder" in drawn
    assert "lm.decoder.weight is bert.embeddings.word.weight (tied)" in drawn


@pytest.mark.parametrize(
    "change, error, message",
    [
        (lambda m, i, x, y: (Bert(BERT), i, x, y), TypeError, "must be a course_lib.bert.BertForPreTraining"),
        (lambda m, i, x, y: (m, i, i.clone(), torch.full_like(y, IGNORE_INDEX)), ValueError, "no position is chosen"),
        (lambda m, i, x, y: (m, i, x.roll(1, 1), y), ValueError, "is not chosen .* but its input differs from idx"),
        (
            lambda m, i, x, y: (m, i, x, torch.where(y != IGNORE_INDEX, y + 1, y)),
            ValueError,
            "labels must hold the original token",
        ),
        (lambda m, i, x, y: (m, i, x[:, :-1], y), ValueError, "one entry per position"),
        (lambda m, i, x, y: (m, i.float(), x, y), TypeError, "idx must be a LongTensor"),
    ],
)
def test_bert_masking_refuses_bad_arguments(change: Callable, error: type[Exception], message: str) -> None:
    model, idx, inputs, labels_ = change(bert_model(), *masking())
    with pytest.raises(error, match=message):
        bert_masking(model, TOKENIZER, idx, inputs, labels_)


def test_bert_masking_refuses_a_tokenizer_without_a_mask() -> None:
    with pytest.raises(TypeError, match="tokenizer must have tokens"):
        bert_masking(bert_model(), object(), *masking())  # type: ignore[arg-type]


def test_drawing_changes_nothing_in_the_model_nor_the_random_state() -> None:
    model = bert_model()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    t5 = t5_model()
    t5_before = {k: v.clone() for k, v in t5.state_dict().items()}
    state = torch.get_rng_state()
    bert_masking(model, TOKENIZER, *masking())
    bert_embeddings(model, *pair())
    t5_data_flow(t5, *t5_example())
    decoder_caches(t5)
    assert torch.equal(torch.get_rng_state(), state)
    assert all(m.training for m in [*model.modules(), *t5.modules()])
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert all(torch.equal(t5_before[k], v) for k, v in t5.state_dict().items())


# ------------------------------------------------------------------------------- T5's data flow


def test_t5_data_flow_draws_span_corruption_and_the_shift_as_the_library_makes_them() -> None:
    model = t5_model()
    words, noise = t5_example()
    fig = t5_data_flow(model, words, noise)
    ids = torch.arange(2, 2 + len(words))
    inputs, targets = span_corruption(ids, noise, model.vocab_size, eos_id=model.eos_id, num_sentinels=2)
    S, T = len(inputs), len(targets)
    drawn = labels(fig)
    source = ["to", "be", ",", "<extra_id_0>", "that", "is", "the", "question", "whether", "<extra_id_1>", "</s>"]
    target = ["<extra_id_0>", "or", "not", "<extra_id_1>", "'", "tis", "</s>"]
    assert (S, T) == (len(source), len(target))
    row = [label for label in drawn if label in set(source + target + ["<pad>"])]
    assert row == source + ["<pad>"] + target[:-1] + target  # input_ids, then decoder_input_ids, then labels
    decoder_inputs = shift_right(targets[None], model.decoder_start_id, model.pad_id)[0]
    assert decoder_inputs[0] == model.pad_id and torch.equal(decoder_inputs[1:], targets[:-1])
    # both sentinels in the input, in the labels and in what the decoder reads
    assert len(with_gid(fig, "token-sentinel")) == 3 * 2
    assert len(with_gid(fig, "token-eos")) == 2 and len(with_gid(fig, "token-start")) == 1
    assert f"(B, S) = (1, {S})" in drawn and f"(B, T) = (1, {T})" in drawn
    assert f"(B, S, d_model) = (1, {S}, 16)" in drawn
    assert any(f"logits (B, T, V) = (1, {T}, 64)" in label for label in drawn)


def test_t5_data_flow_names_what_the_model_calls() -> None:
    model = t5_model()
    drawn = labels(t5_data_flow(model, *t5_example()))
    for label in drawn:
        for path in paths(label):
            resolve(model, path.removesuffix(".weight"))
    assert drawn.count("shared") == 2 and "lm_head" in drawn  # one table for both sides and the head
    assert "encoder.layers[0] .. encoder.layers[1]" in drawn and "decoder.layers[0] .. decoder.layers[1]" in drawn
    block = model.decoder.layers[0]
    assert {"norm1, self_attn", "norm2, cross_attn", "norm3, ff", "norm2, ff"} <= set(drawn)
    assert all(hasattr(block, n) for n in ("norm1", "self_attn", "norm2", "cross_attn", "norm3", "ff"))
    assert {"bidirectional self-attention", "causal self-attention", "cross-attention"} <= set(drawn)
    assert "+ encoder_relative_bias" in drawn and "+ decoder_relative_bias" in drawn
    assert {"encoder.norm", "decoder.norm"} <= set(drawn)
    assert f"d_model**-0.5 = {16**-0.5:.3f}" in drawn  # the tied head's rescaling, measured on the run
    assert any("lm_head.weight is shared.weight" in label for label in drawn)
    assert drawn.count("pre-LN: x + branch(norm(x))") == 2


def test_t5_data_flow_follows_the_configuration() -> None:
    drawn = labels(t5_data_flow(t5_model(n_layers=3, n_decoder_layers=1, tie_embeddings=False), *t5_example(10)))
    assert "encoder.layers[0] .. encoder.layers[2]" in drawn and "decoder.layers[0] .. decoder.layers[0]" in drawn
    # an untied head: no rescaling
    assert "rescale" not in drawn and not any("is shared.weight" in label for label in drawn)


def test_t5_data_flow_renames_with_the_model() -> None:
    model = t5_model()
    for block in model.decoder.layers:
        renamed(block, "cross_attn", "enc_dec_attn")
    renamed(model, "lm_head", "output")
    drawn = labels(t5_data_flow(model, *t5_example()))
    assert "norm2, enc_dec_attn" in drawn and "norm2, cross_attn" not in drawn
    assert "output" in drawn and "lm_head" not in drawn


@pytest.mark.parametrize(
    "model, words, noise, error, message",
    [
        (
            Bart(
                BartConfig(
                    vocab_size=40,
                    block_size=16,
                    n_layers=1,
                    n_decoder_layers=1,
                    n_heads=2,
                    d_model=8,
                    d_ff=16,
                    mask_id=39,
                )
            ),
            None,
            None,
            TypeError,
            "must be a course_lib.t5.T5",
        ),
        (None, "to be or not", None, TypeError, "words must be a non-empty sequence"),
        (None, None, torch.zeros(12, dtype=torch.bool), ValueError, "noise must hide some words and keep others"),
        (None, None, torch.ones(11, dtype=torch.bool), ValueError, "one entry per word"),
        (None, WORDS * 4, torch.arange(52) % 7 == 3, ValueError, "too wide|at most 16 and 10 tokens"),
    ],
)
def test_t5_data_flow_refuses_bad_arguments(
    model: nn.Module | None, words: object, noise: torch.Tensor | None, error: type[Exception], message: str
) -> None:
    example_words, example_noise = t5_example()
    with pytest.raises(error, match=message):
        t5_data_flow(
            model or t5_model(), example_words if words is None else words, example_noise if noise is None else noise
        )  # type: ignore[arg-type]


def test_t5_data_flow_refuses_more_words_than_the_vocabulary_holds() -> None:
    with pytest.raises(ValueError, match="do not fit in the model's vocabulary of 12"):
        t5_data_flow(t5_model(vocab_size=12), *t5_example())


# -------------------------------------------------------------------------------- the two caches


@pytest.mark.parametrize("source_len, n_steps", [(5, 4), (1, 1), (7, 6), (3, 2)])
def test_decoder_caches_grow_one_and_keep_the_other(source_len: int, n_steps: int) -> None:
    fig = decoder_caches(t5_model(), source_len=source_len, n_steps=n_steps)
    legend, *rows = fig.axes
    assert len(rows) == n_steps + 1
    for step, ax in enumerate(rows):
        P = step + 1
        assert (len(with_gid(ax, "self-new")), len(with_gid(ax, "self-held"))) == (1, P - 1)
        assert len(with_gid(ax, "self-new-v")) + len(with_gid(ax, "self-held-v")) == P
        cross_new, cross_held = len(with_gid(ax, "cross-new")), len(with_gid(ax, "cross-held"))
        assert (cross_new, cross_held) == ((source_len, 0) if step == 0 else (0, source_len))
        drawn = labels(ax)
        assert f"k, v: (B, h, P, d_head) = (1, 2, {P}, 4)" in drawn
        assert f"k, v: (B, h, S, d_head) = (1, 2, {source_len}, 4)" in drawn
        assert ("projected from the memory by decoder.layers[i].cross_attn.k_proj, .v_proj" in drawn) == (step == 0)
        assert ("reused: the tensors of step 0, not projected again" in drawn) == (step > 0)
        assert drawn.count(f"$q_{{{step}}}$") == 2  # the self-attention's query and the cross-attention's


def test_decoder_caches_name_the_caches_and_their_users() -> None:
    model = t5_model()
    drawn = labels(decoder_caches(model))
    found = {path for label in drawn for path in paths(label)}
    assert found == {
        "KVCache.append",
        "caches[i][0]",
        "caches[i][1]",
        "decoder.layers[i].self_attn",
        "decoder.layers[i].cross_attn",
        "decoder.layers[i].cross_attn.k_proj",
    }
    assert all(isinstance(resolve(model, path), nn.Module) for path in found if path.startswith("decoder."))
    assert callable(KVCache.append) and all(isinstance(c, KVCache) for pair in model.new_caches() for c in pair)
    assert "KVCache(), used by decoder.layers[i].self_attn" in drawn
    assert "KVCache(fixed=True), used by decoder.layers[i].cross_attn" in drawn
    assert "self-attention cache: caches[i][0]" in drawn and "cross-attention cache: caches[i][1]" in drawn
    self_cache, cross_cache = model.new_caches()[0]
    assert not self_cache.fixed and cross_cache.fixed
    renamed_model = t5_model()
    for block in renamed_model.decoder.layers:
        renamed(block, "self_attn", "causal_attn")
    assert "KVCache(), used by decoder.layers[i].causal_attn" in labels(decoder_caches(renamed_model))


def test_decoder_caches_draw_bart_too() -> None:
    bart = Bart(
        BartConfig(
            vocab_size=40, block_size=16, n_layers=1, n_decoder_layers=2, n_heads=2, d_model=8, d_ff=16, mask_id=39
        )
    )
    fig = decoder_caches(bart, source_len=3, n_steps=2)
    assert "KVCache(fixed=True), used by decoder.layers[i].cross_attn" in labels(fig)
    assert "k, v: (B, h, S, d_head) = (1, 2, 3, 4)" in labels(fig.axes[-1])


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"source_len": 0}, ValueError, "source_len must be from 1 to 7, got 0"),
        ({"n_steps": 7}, ValueError, "n_steps must be from 1 to 6, got 7"),
        ({"n_steps": 2.5}, TypeError, "n_steps must be an integer, got 2.5"),
        ({"model": nn.Linear(2, 2)}, TypeError, "model must be an encoder-decoder of course_lib"),
    ],
)
def test_decoder_caches_refuse_bad_arguments(kwargs: dict, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        decoder_caches(**{"model": t5_model(), **kwargs})


# --------------------------------------------------------------------------------- readability

FIGURES: list[tuple[str, Callable[[], Figure]]] = [
    ("bert_embeddings", lambda: bert_embeddings(bert_model(), *pair())),
    (
        "bert_embeddings, 16 tokens",
        lambda: bert_embeddings(bert_model(), ["[CLS]"] + ["whether"] * 14 + ["[SEP]"], [0] * 8 + [1] * 8),
    ),
    ("bert_embeddings, one token", lambda: bert_embeddings(Bert(BERT), ["[CLS]"], [0])),
    ("bert_masking", lambda: bert_masking(bert_model(), TOKENIZER, *masking())),
    ("bert_masking, other draw", lambda: bert_masking(bert_model(), TOKENIZER, *masking(seed=500))),
    ("t5_data_flow", lambda: t5_data_flow(t5_model(), *t5_example())),
    ("t5_data_flow, untied, deep", lambda: t5_data_flow(t5_model(tie_embeddings=False, n_layers=12), *t5_example(8))),
    ("decoder_caches", lambda: decoder_caches(t5_model())),
    ("decoder_caches, largest", lambda: decoder_caches(t5_model(), source_len=7, n_steps=6)),
    ("decoder_caches, smallest", lambda: decoder_caches(t5_model(), source_len=1, n_steps=1)),
]


@pytest.mark.parametrize("make", [make for _, make in FIGURES], ids=[name for name, _ in FIGURES])
def test_labels_do_not_overlap_and_stay_inside_the_figure(make: Callable[[], Figure]) -> None:
    fig = make()
    assert layout_problems(fig) == []
    assert fig.get_size_inches()[0] <= 10.0
    assert min(float(t.get_fontsize()) for t in texts(fig)) >= 8
    assert all(
        p.get_x() >= 0 and p.get_x() + p.get_width() <= 10.0
        for ax in fig.axes
        for p in ax.patches
        if isinstance(p, Rectangle)
    )
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)  # white, for print
