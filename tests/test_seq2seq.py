"""course_lib.seq2seq (chapter 5): teacher forcing, the loss, and decoding for encoder-decoder models:
greedy and sampled generation with and without caches, and beam search equal to Hugging Face's
``generate(num_beams=...)`` on a T5 with the same weights."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from transformers import T5Config as HFConfig
from transformers import T5ForConditionalGeneration

from course_lib.seq2seq import IGNORE_INDEX, beam_search, collate, generate, seq2seq_loss, shift_right, teacher_forcing_loss
from course_lib.t5 import T5, T5Config, from_hf_state_dict, hf_config_kwargs
from course_lib.train import TrainConfig, train

CONFIG = T5Config(vocab_size=41, d_model=16, d_kv=6, d_ff=24, n_layers=2, n_heads=3, dropout=0.0)


def twins(seed: int) -> tuple[T5, T5ForConditionalGeneration]:
    torch.manual_seed(seed)
    hf = T5ForConditionalGeneration(HFConfig(**hf_config_kwargs(CONFIG))).eval()
    with torch.no_grad():  # make EOS likely enough that hypotheses finish at different lengths
        hf.shared.weight[CONFIG.eos_id] *= 3
    ours = T5(CONFIG).eval()
    ours.load_state_dict(from_hf_state_dict(hf.state_dict(), ours))
    return ours, hf


def sources(seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, CONFIG.vocab_size, (3, 8), generator=g)
    mask = torch.ones_like(ids)
    mask[1, 5:] = 0
    return ids, mask


def test_shift_right_and_loss_ignore_padding() -> None:
    labels = torch.tensor([[5, 6, 1], [7, 1, IGNORE_INDEX]])
    assert shift_right(labels, start_id=0, pad_id=0).tolist() == [[0, 5, 6], [0, 7, 1]]
    logits = torch.randn(2, 3, 9)
    assert torch.allclose(seq2seq_loss(logits, labels), F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100))
    (ids, mask), padded = collate([([3, 4, 5], [6, 1]), ([7], [8, 9, 1])], pad_id=0)
    assert ids.tolist() == [[3, 4, 5], [7, 0, 0]] and mask.tolist() == [[1, 1, 1], [1, 0, 0]]
    assert padded.tolist() == [[6, 1, IGNORE_INDEX], [8, 9, 1]]
    with pytest.raises(ValueError, match="non-empty"):
        collate([([3], [])], pad_id=0)


def test_teacher_forcing_loss_equals_hugging_faces_labels_loss() -> None:
    ours, hf = twins(0)
    (ids, mask), labels = collate([([3, 4, 5, 6], [7, 8, 1]), ([9, 10], [11, 1])], pad_id=0)
    with torch.no_grad():
        theirs = hf(input_ids=ids, attention_mask=mask, labels=labels).loss
        assert torch.allclose(teacher_forcing_loss(ours, (ids, mask), labels), theirs, atol=1e-5)


@pytest.mark.parametrize("seed", range(3))
def test_greedy_equals_hugging_face_and_cache_changes_nothing(seed: int) -> None:
    ours, hf = twins(seed)
    ids, mask = sources(seed)
    cached = generate(ours, ids, mask, max_new_tokens=12, temperature=0)
    assert torch.equal(cached, generate(ours, ids, mask, max_new_tokens=12, temperature=0, use_cache=False))
    theirs = hf.generate(input_ids=ids, attention_mask=mask, max_new_tokens=12, do_sample=False)[:, 1:]
    n = cached.shape[1]
    assert torch.equal(cached, theirs[:, :n])  # Hugging Face pads after EOS (with EOS, as pad is 0)


def test_sampling_is_seeded_and_cache_changes_nothing() -> None:
    ours, _ = twins(1)
    ids, mask = sources(1)

    def sample(use_cache: bool) -> torch.Tensor:
        return generate(ours, ids, mask, max_new_tokens=10, top_k=5, generator=torch.Generator().manual_seed(7), use_cache=use_cache)

    assert torch.equal(sample(True), sample(False))
    assert not torch.equal(sample(True), generate(ours, ids, mask, max_new_tokens=10, top_k=5, generator=torch.Generator().manual_seed(8)))


@pytest.mark.parametrize(("beam_width", "length_penalty", "early_stopping"), [(3, 1.0, True), (4, 0.5, False), (2, 2.0, True)])
def test_beam_search_equals_hugging_faces(beam_width: int, length_penalty: float, early_stopping: bool) -> None:
    for seed in range(4):
        ours, hf = twins(seed)
        ids, mask = sources(seed)
        beams = beam_search(ours, ids, mask, beam_width=beam_width, max_new_tokens=10, length_penalty=length_penalty, early_stopping=early_stopping)
        theirs = hf.generate(
            input_ids=ids, attention_mask=mask, max_new_tokens=10, num_beams=beam_width, length_penalty=length_penalty,
            early_stopping=early_stopping, do_sample=False, output_scores=True, return_dict_in_generate=True, use_cache=False,
        )  # fmt: skip
        for i in range(ids.shape[0]):
            n = int(beams.lengths[i, 0])
            assert beams.tokens[i, 0, :n].tolist() == theirs.sequences[i, 1 : n + 1].tolist()
            assert (theirs.sequences[i, n + 1 :] == CONFIG.eos_id).all()  # only padding after
            assert abs(beams.scores[i, 0].item() - theirs.sequences_scores[i].item()) < 1e-5
        uncached = beam_search(ours, ids, mask, beam_width=beam_width, max_new_tokens=10, length_penalty=length_penalty, early_stopping=early_stopping, use_cache=False)
        assert torch.equal(beams.tokens, uncached.tokens)


def test_beam_width_one_is_greedy_and_scores_are_sums_of_log_probabilities() -> None:
    ours, _ = twins(2)
    ids, mask = sources(2)
    beams = beam_search(ours, ids, mask, beam_width=1, max_new_tokens=9, length_penalty=0.0)
    greedy = generate(ours, ids, mask, max_new_tokens=9, temperature=0)
    for i in range(ids.shape[0]):
        n = int(beams.lengths[i, 0])
        assert beams.tokens[i, 0, :n].tolist() == greedy[i, :n].tolist()
        # length_penalty 0: the score is the plain sum of the answer's log-probabilities
        answer = beams.tokens[i : i + 1, 0, :n]
        with torch.no_grad():
            logp = ours(ids[i : i + 1], shift_right(answer, 0, 0), mask[i : i + 1]).log_softmax(-1)
        assert abs(logp.gather(-1, answer[..., None]).sum().item() - beams.scores[i, 0].item()) < 1e-4


def test_beams_are_sorted_and_finished_hypotheses_end_once() -> None:
    ours, _ = twins(3)
    ids, mask = sources(3)
    beams = beam_search(ours, ids, mask, beam_width=4, max_new_tokens=8)
    assert (beams.scores[:, :-1] >= beams.scores[:, 1:]).all()
    for tokens, lengths in zip(beams.tokens.flatten(0, 1), beams.lengths.flatten()):
        body = tokens[: int(lengths)].tolist()
        assert CONFIG.eos_id not in body[:-1]  # a finished beam is never extended
        assert body[-1] == CONFIG.eos_id or len(body) == 8


def test_decoding_refuses_bad_requests() -> None:
    ours, _ = twins(0)
    ids, mask = sources(0)
    with pytest.raises(ValueError, match="beam_width"):
        beam_search(ours, ids, mask, beam_width=CONFIG.vocab_size + 1)
    with pytest.raises(ValueError, match="max_new_tokens"):
        generate(ours, ids, mask, max_new_tokens=0)
    with pytest.raises(ValueError, match=r"\(B, S\)"):
        generate(ours, ids[0], None)


def test_a_tiny_t5_learns_to_sort_through_the_course_loop() -> None:
    """Sort 5 digits: teacher forcing through course_lib.train, then greedy decoding gets most
    held-out sequences exactly right (a broken cache, mask or shift would not; measured 98%)."""
    torch.manual_seed(0)
    config = T5Config(vocab_size=14, d_model=48, d_kv=16, d_ff=96, n_layers=2, n_heads=3, dropout=0.0, num_buckets=8, max_distance=16)
    model = T5(config)

    def batches(split: str, g: torch.Generator) -> tuple[tuple[torch.Tensor, torch.Tensor], torch.Tensor]:
        digits = torch.randint(2, 12, (64, 5), generator=g)
        return collate([(d.tolist() + [1], d.sort().values.tolist() + [1]) for d in digits], pad_id=0)

    history = train(model, batches, TrainConfig(steps=250, lr=3e-3, warmup_steps=20, eval_every=250, eval_batches=1, device="cpu"), teacher_forcing_loss)
    assert history.val_loss[-1] < 0.1
    (ids, mask), labels = batches("test", torch.Generator().manual_seed(123))
    answers = generate(model, ids, mask, max_new_tokens=6, temperature=0)
    assert (answers == labels).all(dim=1).float().mean() > 0.9
