"""Oracles of the hidden checks that stand in for a library the grader does not import, checked
against that library.

a4's pair check builds ``[CLS] A [SEP] B [SEP]`` with Hugging Face's Rust ``tokenizers`` and
truncates with BERT's rule written out, instead of calling ``BertTokenizerLegacy`` (the port of
BERT's own code), whose ``import transformers`` would cost every graded notebook more than a second;
its WordPiece check uses the Rust ``WordPiece`` model, which ``BertTokenizer`` runs on. Here both are
compared with the legacy tokenizer, on every small pair of lengths and on many random words. a5's
and a6's references are checked the same way: against transformers' T5 and ``peft``'s LoRA layer
with the same weights, the mean pooling of all-MiniLM-L6-v2's model card, torch's modules and
optimizers, and the parameter names of transformers' BERT and GPT-2.

The oracles run in the grader's own process under ``course grade``; in one interpreter with the
student's code (plain nbgrader's kernel) they can be bent. The last test checks that the hostile
corpus's a4 submission really does bend all of them there, so that ``course grade`` refusing it
(tests/test_course_grade.py) shows something.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

from assignment_support import GRADING, ROOT

if str(GRADING) not in sys.path:
    sys.path.insert(0, str(GRADING))
import a4_bert_checks as a4  # noqa: E402
import a5_t5_checks as a5  # noqa: E402
import a6_finetune_checks as a6  # noqa: E402

legacy = pytest.importorskip("transformers.models.bert.tokenization_bert_legacy")


def test_a4_pair_oracle_is_what_bert_tokenizer_legacy_gives(tmp_path: Path) -> None:
    import transformers

    transformers.logging.set_verbosity_error()  # the legacy tokenizer warns on every truncated pair
    (tmp_path / "vocab.txt").write_text("\n".join(a4.SPECIAL_TOKENS) + "\n")
    tokenizer = legacy.BertTokenizerLegacy(vocab_file=str(tmp_path / "vocab.txt"))
    assert (tokenizer.pad_token_id, tokenizer.cls_token_id, tokenizer.sep_token_id) == (a4.PAD_ID, a4.CLS_ID, a4.SEP_ID)
    for n_a, n_b, max_len in itertools.product(range(10), range(10), range(3, 22)):
        a, b = list(range(10, 10 + n_a)), list(range(500, 500 + n_b))
        hf = tokenizer.prepare_for_model(
            a,
            b,
            add_special_tokens=True,
            truncation="longest_first",
            max_length=max_len,
            padding="max_length",
            return_token_type_ids=True,
            return_attention_mask=True,
        )
        ours = [t.tolist() for t in a4._ref_pair(a, b, max_len)]
        assert ours == [hf["input_ids"], hf["token_type_ids"], hf["attention_mask"]], (n_a, n_b, max_len)


def test_a4_wordpiece_oracle_is_what_bert_wordpiece_legacy_gives() -> None:
    g = torch.Generator().manual_seed(0)
    for letters, unk, max_chars in [("abcd", "[UNK]", 100), ("xyé", "<unk>", 100), ("abc", "[UNK]", 6)]:
        for _ in range(5):
            vocab = a4._random_vocab(g, letters, unk)
            ours = a4._hf_wordpiece(vocab, unk, max_chars)
            theirs = legacy.WordpieceTokenizer(vocab=vocab, unk_token=unk, max_input_chars_per_word=max_chars)
            words = a4._random_words(g, letters, 300, 12) + [letters[0] * max_chars, letters[0] * (max_chars + 1)]
            assert [ours(w) for w in words] == [theirs.tokenize(w) for w in words]


BENT = """
import json, sys
sys.path.insert(0, "tests")
from assignment_support import GRADING, Fixture, submission_notebook
from course_grading.notebook.harness import run_tests
from hostile_submissions import a4_bending_answers
nb = submission_notebook("a4_bert", Fixture("bends", a4_bending_answers(), frozenset()))
print(json.dumps(run_tests(nb, GRADING)))
"""


def test_a4_hostile_submission_bends_every_oracle_in_one_interpreter() -> None:
    """Run apart (its patches of torch and tokenizers would outlive it here): in one interpreter,
    as in plain nbgrader, every part of the wrong submission passes."""
    result = subprocess.run([sys.executable, "-c", BENT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == dict.fromkeys(
        ["wordpiece", "mask_tokens", "mlm_loss", "encoder_block", "pair_inputs"]
    )


# ----------------------------------------------------------------------------------------- a5


def test_a5_bucket_oracle_holds_what_t5_attention_gives() -> None:
    """transformers' T5Attention._relative_position_bucket (float32) lies within the range the check
    accepts, for every relative position of many configurations, both directions; the range is a
    single bucket except where the value inside the floor is within 1e-4 of an integer."""
    from transformers.models.t5.modeling_t5 import T5Attention

    g = torch.Generator().manual_seed(0)
    configs = [(True, 32, 128), (False, 32, 128)] + [
        (bool(b), int(n), 0)
        for b, n in zip(torch.randint(0, 2, (60,), generator=g), torch.randint(4, 90, (60,), generator=g))
    ]
    ambiguous = total = 0
    for bidirectional, num_buckets, max_distance in configs:
        max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
        max_distance = max_distance or int(torch.randint(max_exact + 1, 500, (1,), generator=g))
        rel = torch.arange(-4 * max_distance, 4 * max_distance + 1)
        theirs = T5Attention._relative_position_bucket(
            rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
        )
        low, high = a5._bucket_range(rel, bidirectional, num_buckets, max_distance)
        assert bool(((low <= theirs) & (theirs <= high)).all()), (bidirectional, num_buckets, max_distance)
        ambiguous += int((low != high).sum())
        total += rel.numel()
    assert ambiguous < total / 1000  # the tolerance is a rare exception, not a loophole


def test_a5_bucket_oracle_puts_int64s_extremes_in_the_last_buckets() -> None:
    """At int64's least value (its own negation and absolute value) and greatest, the range is the farthest bucket
    of the side the key is on: T5's rule for any distance past max_distance (transformers' own code takes
    -2**63 to bucket -2**63 through its absolute value, and so cannot be the oracle there)."""
    info = torch.iinfo(torch.long)
    rel = torch.tensor([info.min, info.min + 1, info.max - 1, info.max])
    for num_buckets in (32, 7, 96):
        half = num_buckets // 2
        for bidirectional, expected in (
            (True, [half - 1, half - 1, 2 * half - 1, 2 * half - 1]),
            (False, [num_buckets - 1, num_buckets - 1, 0, 0]),
        ):
            low, high = a5._bucket_range(rel, bidirectional, num_buckets, 128)
            assert low.tolist() == expected == high.tolist(), (bidirectional, num_buckets, low, high)


def _flax_sentinels(tokens: np.ndarray, mask: np.ndarray, vocab_size: int, eos_id: int) -> list[int]:
    """Hugging Face's run_t5_mlm_flax.py: create_sentinel_ids, then filter_input_ids, for one row
    (len(tokenizer) is vocab_size: the sentinels are its top ids)."""
    mask_indices = mask[None, :].astype(np.int8)
    start_indices = mask_indices - np.roll(mask_indices, 1, axis=-1) * mask_indices
    start_indices[:, 0] = mask_indices[:, 0]
    sentinel_ids = np.where(start_indices != 0, np.cumsum(start_indices, axis=-1), start_indices)
    sentinel_ids = np.where(sentinel_ids != 0, (vocab_size - sentinel_ids), 0)
    sentinel_ids -= mask_indices - start_indices
    input_ids_full = np.where(sentinel_ids != 0, sentinel_ids, tokens[None, :])
    input_ids = input_ids_full[input_ids_full >= 0].reshape((1, -1))
    return np.concatenate([input_ids, np.full((1, 1), eos_id)], axis=-1)[0].tolist()


def test_a5_span_corruption_oracle_is_run_t5_mlm_flax_and_the_paper() -> None:
    words = "Thank you for inviting me to your party last week .".split()
    tokens = torch.arange(10, 10 + len(words))
    noise = torch.tensor([w in ("for", "inviting", "last") for w in words])
    inputs, targets = a5._ref_span_corruption(tokens, noise, 100, 1)
    # Thank you <X> me to your party <Y> week . </s>
    assert inputs.tolist() == [10, 11, 99, 14, 15, 16, 17, 98, 19, 20, 1]
    assert targets.tolist() == [99, 12, 13, 98, 18, 97, 1]  # <X> for inviting <Y> last <Z> </s>
    g = torch.Generator().manual_seed(0)
    for i in range(300):
        n = int(torch.randint(1, 60, (1,), generator=g))
        toks = torch.randint(2, 900, (n,), generator=g)
        mask = (
            a5._t5_mask(g, n, 0.15 + 0.3 * (i % 2), 3.0)
            if i % 3 == 0 and n > 1
            else torch.rand(n, generator=g) < torch.rand((), generator=g)
        )
        ours = a5._ref_span_corruption(toks, mask, 1000, 1)
        assert ours[0].tolist() == _flax_sentinels(toks.numpy(), mask.numpy(), 1000, 1)
        assert ours[1].tolist() == _flax_sentinels(toks.numpy(), (~mask).numpy(), 1000, 1)


def test_a5_composition_law_is_what_enumeration_gives() -> None:
    """The first part's law of a uniform composition, against all compositions of small n."""
    for n in range(1, 12):
        for k in range(1, n + 1):
            compositions = [
                tuple(b - a for a, b in zip((0, *cuts), (*cuts, n)))
                for cuts in itertools.combinations(range(1, n), k - 1)
            ]
            law = a5._first_part_law(n, k)
            for j in range(n + 1):
                assert law[j] == pytest.approx(sum(c[0] == j for c in compositions) / len(compositions))


def test_a5_span_count_law_is_what_poisson_draws_give() -> None:
    """The number of Poisson draws until their sum reaches the budget, against simulation."""
    g = torch.Generator().manual_seed(0)
    for budget, lam in [(18, 3.0), (20, 1.0), (3, 0.5), (1, 3.0)]:
        draws = torch.poisson(torch.full((20000, 120), lam), generator=g).cumsum(1)
        assert bool((draws[:, -1] >= budget).all())
        counts = torch.bincount((draws < budget).sum(1) + 1, minlength=200).tolist()
        law = a5._span_count_law(budget, lam, 199)
        assert sum(law) == pytest.approx(1.0)
        for k in range(200):
            assert abs(counts[k] / 20000 - law[k]) < 5 * math.sqrt(max(law[k], 1e-4) / 20000) + 1e-4, (budget, lam, k)


def test_a5_cross_attention_oracle_is_t5_attention_with_its_cache() -> None:
    """transformers' T5Attention(is_decoder=True, has_relative_attention_bias=False) as
    EncDecAttention with an EncoderDecoderCache, the same weights in float64: the second step is
    given another encoder output and uses the cache, as the check's reference does."""
    from transformers import T5Config
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache
    from transformers.models.t5.modeling_t5 import T5Attention

    g = torch.Generator().manual_seed(0)
    for B, S, d_model, d_kv, h in [(2, 5, 8, 6, 2), (3, 7, 16, 8, 4), (1, 1, 4, 4, 1)]:
        config = T5Config(d_model=d_model, d_kv=d_kv, num_heads=h, is_decoder=True, dropout_rate=0.0)
        config._attn_implementation = "eager"
        attention = T5Attention(config, has_relative_attention_bias=False, layer_idx=0).double().eval()
        p = a5._cross_weights(g, d_model, d_kv, h, 2.0)
        with torch.no_grad():
            for name, linear in (
                ("W_q", attention.q),
                ("W_k", attention.k),
                ("W_v", attention.v),
                ("W_o", attention.o),
            ):
                linear.weight.copy_(p[name].T.double())
        memory = torch.randn(B, S, d_model, generator=g, dtype=torch.float64)
        lengths = torch.randint(1, S + 1, (B,), generator=g)
        mask = (torch.arange(S)[None, :] < lengths[:, None]).long()
        additive = (1.0 - mask[:, None, None, :].double()) * torch.finfo(torch.float64).min
        cache = EncoderDecoderCache(DynamicCache(), DynamicCache())
        for step in range(3):
            x = torch.randn(B, 1, d_model, generator=g, dtype=torch.float64)
            given = memory if step == 0 else torch.randn(B, S, d_model, generator=g, dtype=torch.float64)
            with torch.no_grad():
                theirs = attention(x, mask=additive, key_value_states=given, past_key_values=cache)[0]
            ours, k, v = a5._ref_cross(x, memory, p, h, mask)
            torch.testing.assert_close(ours, theirs, atol=1e-10, rtol=1e-10)


def _beam_by_enumeration(
    step_log_probs: list[torch.Tensor], width: int, eos_id: int
) -> list[tuple[float, tuple[int, ...]]]:
    """Beam search over sequences written out: at each step every sequence kept is extended by every
    token (a sequence ending in eos_id is kept as it is), and the best ``width`` kept. The next-token
    log-probabilities of a sequence are a fixed function of the sequence (its hash picks a row)."""
    beams: list[tuple[float, tuple[int, ...]]] = [(0.0, ())]
    for table in step_log_probs:
        candidates = []
        for score, seq in beams:
            if seq and seq[-1] == eos_id:
                candidates.append((score, seq))
                continue
            row = table[hash(seq) % table.shape[0]]
            candidates += [(score + float(row[t]), seq + (t,)) for t in range(table.shape[1])]
        beams = sorted(candidates, key=lambda c: -c[0])[:width]
    return beams


def test_a5_beam_oracle_is_beam_search_over_enumerated_sequences() -> None:
    """The check's one-step reference, chained over three steps, gives the sequences of a beam
    search written over whole sequences; with the width at least V^3 that is every sequence (those
    ended by eos_id kept as they ended), sorted by the sum of its log-probabilities."""
    g = torch.Generator().manual_seed(0)
    for trial in range(40):
        V = int(torch.randint(2, 5, (1,), generator=g))
        eos_id = int(torch.randint(0, V, (1,), generator=g))
        width = V**3 if trial % 2 == 0 else int(torch.randint(1, 2 * V, (1,), generator=g))
        tables = [torch.log_softmax(torch.randn(7, V, generator=g, dtype=torch.float64) * 2, -1) for _ in range(3)]
        expected = _beam_by_enumeration(tables, width, eos_id)
        seqs: list[tuple[int, ...]] = [()]
        scores, done = torch.zeros(1, dtype=torch.float64), torch.zeros(1, dtype=torch.bool)
        for table in tables:
            log_probs = torch.stack([table[hash(s) % table.shape[0]] for s in seqs])
            n_candidates = int(done.sum()) + int((~done).sum()) * V
            scores, parents, tokens, done = a5._ref_beam(log_probs, scores, done, min(width, n_candidates), eos_id)
            seqs = [
                seqs[p] if seqs[p] and seqs[p][-1] == eos_id else seqs[p] + (t,)
                for p, t in zip(parents.tolist(), tokens.tolist())
            ]
        assert [s for _, s in expected] == seqs
        assert [sc for sc, _ in expected] == pytest.approx(scores.tolist())
        if width == V**3:
            every = {s for s in itertools.product(range(V), repeat=3)}
            ended = {s[: s.index(eos_id) + 1] if eos_id in s else s for s in every}
            assert set(seqs) == ended


BENT_A5 = BENT.replace("a4_bending_answers", "a5_bending_answers").replace('"a4_bert"', '"a5_t5"')


def test_a5_hostile_submission_bends_every_oracle_in_one_interpreter() -> None:
    """As for a4: in one interpreter every wrong part of the bending submission passes."""
    result = subprocess.run([sys.executable, "-c", BENT_A5], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == dict.fromkeys(
        ["rel_bucket", "noise_mask", "span_corruption", "text_infilling", "cross_attention", "beam_search"]
    )


# ----------------------------------------------------------------------------------------- a6


class _OneLinear(torch.nn.Module):
    """The smallest model peft can wrap: one nn.Linear, named ``proj``."""

    def __init__(self, base: torch.nn.Linear) -> None:
        super().__init__()
        self.proj = base

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x)


def test_a6_lora_oracle_is_peft_lora_linear() -> None:
    """peft's LoRA (``get_peft_model`` on a model of one nn.Linear, which it wraps in its
    ``lora.Linear``), with the same A and B copied in, in float64: its fresh A and B pass the check's
    initialisation test, and its output, its gradients with respect to A and B, and its merged
    weight (after one merge and after two) are the references'."""
    from peft import LoraConfig, get_peft_model

    torch.manual_seed(0)  # peft draws its A from the global generator
    g = torch.Generator().manual_seed(0)
    for n_in, n_out, r, alpha, bias in [
        (37, 23, 4, 8.0, True),
        (30, 40, 1, 1.0, False),
        (64, 64, 8, 16.0, True),
        (24, 9, 3, 5.0, True),
        (600, 5, 16, 32.0, False),
    ]:
        base = torch.nn.Linear(n_in, n_out, bias=bias).double()
        model = get_peft_model(
            _OneLinear(base), LoraConfig(r=r, lora_alpha=alpha, target_modules=["proj"], lora_dropout=0.0)
        )
        layer = model.base_model.model.proj.double()
        assert layer.get_base_layer() is base
        lora_a, lora_b = layer.lora_A["default"].weight, layer.lora_B["default"].weight
        a6._expect_lora_init(lora_a.detach().float(), lora_b.detach().float(), r, n_in, n_out, "peft's fresh layer")
        weight, b = base.weight.detach().clone(), None if base.bias is None else base.bias.detach().clone()
        A, B = (
            torch.randn(r, n_in, generator=g, dtype=torch.float64),
            torch.randn(n_out, r, generator=g, dtype=torch.float64),
        )
        with torch.no_grad():
            lora_a.copy_(A)
            lora_b.copy_(B)
        x = torch.randn(2, 3, n_in, generator=g, dtype=torch.float64, requires_grad=True)
        theirs = layer(x)
        torch.testing.assert_close(a6._ref_lora(weight, b, A, B, alpha, x), theirs, atol=1e-10, rtol=1e-10)
        grads = torch.autograd.grad((theirs * a6._probe(theirs)).sum(), (lora_a, lora_b, x))
        torch.testing.assert_close(
            a6._ref_lora_grads(weight, b, A, B, alpha, x.detach()), grads, atol=1e-10, rtol=1e-10
        )
        for _ in range(2):  # peft merges once; the second call does nothing
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # peft warns that the second merge has nothing to do
                layer.merge()
            torch.testing.assert_close(
                a6._ref_merged(weight, A, B, alpha), base.weight.detach(), atol=1e-12, rtol=1e-12
            )
            torch.testing.assert_close(layer(x), theirs, atol=1e-10, rtol=1e-10)


def test_a6_mean_pooling_oracle_is_the_model_cards() -> None:
    """The mean pooling of the check is sentence-transformers' ``mean_pooling`` as all-MiniLM-L6-v2's
    model card writes it (read from the card shipped with the weights and run here), on padded batches."""
    from course_lib.bert import minilm_directory

    card = (minilm_directory() / "README.md").read_text()
    source = card[card.index("def mean_pooling") :]
    source = source[: source.index("\n\n")]
    namespace: dict = {"torch": torch}
    exec(source, namespace)
    g = torch.Generator().manual_seed(0)
    for B, T, d in [(4, 7, 5), (1, 1, 3), (3, 12, 16)]:
        lengths = torch.randint(1, T + 1, (B,), generator=g)
        lengths[0] = T
        mask = (torch.arange(T)[None, :] < lengths[:, None]).long()
        hidden = torch.where(
            mask[..., None].bool(), torch.randn(B, T, d, generator=g), 1000 * torch.randn(B, T, d, generator=g)
        )
        theirs = namespace["mean_pooling"]((hidden,), mask)
        torch.testing.assert_close(a6._mean_pooling(hidden, mask), theirs)
        eye = torch.eye(d, dtype=torch.float64)
        torch.testing.assert_close(
            a6._ref_classify(hidden.double(), mask, eye, torch.zeros(d, dtype=torch.float64), "mean"),
            theirs.double(),
            atol=1e-5,
            rtol=1e-5,
        )


def test_a6_freezing_cases_are_named_as_transformers_names_bert_and_gpt2() -> None:
    """The check's BERT and GPT-2 parameter names are those of transformers' sequence classifiers."""
    from transformers import BertConfig, BertForSequenceClassification, GPT2Config, GPT2ForSequenceClassification

    for n_layers in (2, 12):
        bert = BertForSequenceClassification(
            BertConfig(
                vocab_size=10,
                hidden_size=4,
                num_hidden_layers=n_layers,
                num_attention_heads=1,
                intermediate_size=8,
                max_position_embeddings=8,
            )
        )
        assert [name for name, _ in bert.named_parameters()] == a6._bert_names(n_layers)
        gpt2 = GPT2ForSequenceClassification(
            GPT2Config(vocab_size=10, n_embd=4, n_layer=n_layers, n_head=1, n_positions=8)
        )
        assert [name for name, _ in gpt2.named_parameters()] == a6._gpt2_names(n_layers)


def test_a6_adapter_oracle_is_torch_modules() -> None:
    """The adapter reference is x + Linear, GELU (either form), Linear as torch's modules compute it."""
    g = torch.Generator().manual_seed(0)
    for d, m, approximate in [(12, 3, "none"), (5, 9, "tanh"), (32, 8, "none")]:
        down, up = torch.nn.Linear(d, m).double(), torch.nn.Linear(m, d).double()
        weights = {
            "down.weight": torch.randn(m, d, generator=g),
            "down.bias": torch.randn(m, generator=g),
            "up.weight": torch.randn(d, m, generator=g),
            "up.bias": torch.randn(d, generator=g),
        }
        with torch.no_grad():
            for name, value in weights.items():
                layer, kind = name.split(".")
                getattr({"down": down, "up": up}[layer], kind).copy_(value)
        x = torch.randn(3, 4, d, generator=g)
        theirs = x.double() + up(torch.nn.GELU(approximate=approximate)(down(x.double())))
        torch.testing.assert_close(a6._ref_adapter(x, weights, approximate), theirs, atol=1e-12, rtol=1e-12)


def test_a6_probe_reference_in_float64_is_within_the_tolerance_of_float32_steps() -> None:
    """A correct probe step in float32 (torch's own optimizers, as a student's would run) stays within
    the check's tolerance of its float64 reference, on many random cases of each optimizer it uses,
    three steps each (Adam's and AdamW's eps of 1e-3 keep their updates smooth near a zero gradient)."""
    import torch.nn.functional as F

    g = torch.Generator().manual_seed(0)
    worst = 0.0
    for optimizer, settings in [
        ("SGD", {"lr": 0.5}),
        ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
        ("Adam", {"lr": 0.02, "eps": 1e-3}),
        ("AdamW", {"lr": 0.02, "eps": 1e-3, "weight_decay": 0.1}),
    ]:
        for _ in range(40):
            B, d, C = (int(torch.randint(1, 40, (1,), generator=g)) for _ in range(3))
            C = max(C % 10, 2)
            weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), 0.1 * torch.randn(C, generator=g)
            batches = [
                (torch.randn(B, d, generator=g), torch.randint(0, C, (B,), generator=g), False) for _ in range(3)
            ]
            probe = torch.nn.Linear(d, C)
            with torch.no_grad():
                probe.weight.copy_(weight)
                probe.bias.copy_(bias)
            opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
            for (features, labels, _), (loss, w, b) in zip(
                batches, a6._ref_probe_steps(weight, bias, optimizer, settings, batches)
            ):
                opt.zero_grad()
                ours = F.cross_entropy(probe(features), labels)
                ours.backward()
                opt.step()
                assert abs(ours.item() - loss) < 1e-5
                worst = max(
                    worst,
                    float(((probe.weight.detach().double() - w).abs() / (1e-5 + 1e-4 * w.abs())).max()),
                    float(((probe.bias.detach().double() - b).abs() / (1e-5 + 1e-4 * b.abs())).max()),
                )
    assert worst < 0.25, worst  # a quarter of the tolerance at most


def test_a6_probe_tolerance_at_large_features_covers_rounding_inside_float32() -> None:
    """Features 1,000 times larger: a gradient entry that nearly cancels over the batch, divided by Adam's eps,
    makes a float32 answer's weights depend on rounding inside it (``softmax - one-hot`` where a probability is
    within 1e-5 of 1; a log-sum-exp of 1,500 rounded to 1e-4), which moving the inputs by their own rounding does
    not reproduce. The check's tolerance counts float32 computations of both forms: right answers of either form,
    written here, stay within half of it on every draw, where the inputs' rounding alone missed one of them."""
    import torch.nn.functional as F

    from contracts import CONDITIONING, Size, float32_spread

    forms = {
        "cross_entropy": F.cross_entropy,
        "logsumexp": lambda logits, labels: (logits.logsumexp(-1) - logits[torch.arange(len(labels)), labels]).mean(),
    }
    missed = 0
    for seed in range(1000, 1060):  # 1026: the log-sum-exp form 0.013 off, 15 times the inputs' rounding
        args = a6._probe_args(torch.Generator().manual_seed(seed), Size((), 8))
        args = (*args[:4], [(features * 1000, labels, kind) for features, labels, kind in args[4]], args[5])
        expected = a6._ref_probe_steps(*args[:5])
        inputs_only = max(1e-5, CONDITIONING * float32_spread(lambda *a: a6._ref_probe_steps(*a[:5]), args, expected))
        tol = max(
            1e-5,
            CONDITIONING
            * float32_spread(
                lambda *a: a6._ref_probe_steps(*a[:5]),
                args,
                expected,
                [
                    lambda *a, f=f: a6._ref_probe_steps(*a[:5], torch.float32, f)
                    for f in (F.cross_entropy, a6._lse_loss)
                ],
            ),
        )
        for name, loss_of in forms.items():
            weight, bias, optimizer, settings, batches, _ = args
            probe = torch.nn.Linear(weight.shape[1], weight.shape[0])
            with torch.no_grad():
                probe.weight.copy_(weight)
                probe.bias.copy_(bias)
            opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
            for (features, labels, _), (_, w, b) in zip(batches, expected):
                opt.zero_grad()
                loss_of(probe(features), labels).backward()
                opt.step()
                error = max(
                    float((probe.weight.detach().double() - w).abs().max()),
                    float((probe.bias.detach().double() - b).abs().max()),
                )
                assert error < tol / 2, (seed, name, error, tol)
                missed += error > inputs_only
    assert missed > 0


BENT_A6 = BENT.replace("a4_bending_answers", "a6_bending_answers").replace('"a4_bert"', '"a6_finetune"')


def test_a6_hostile_submission_bends_every_oracle_in_one_interpreter() -> None:
    """As for a4: in one interpreter every wrong part of the bending submission passes."""
    result = subprocess.run([sys.executable, "-c", BENT_A6], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == dict.fromkeys(
        ["lora_linear", "freeze_except", "pooled_head", "probe_step", "adapter"]
    )
