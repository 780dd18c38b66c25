"""Instructor solutions to the exercises of chapter 3, GPT (book/03_gpt.md).

Exercises 1 and 2 pretrain models for many minutes (their docstrings give the cost on one core, and
``TrainConfig``'s default device picks a GPU where there is one); exercises 3 and 4 take seconds.
``--quick`` runs every exercise on tiny models and a slice of the text, in seconds.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import torch
import torch.nn.functional as F

from course_lib import data, train
from course_lib.generation import top_p_filter
from course_lib.gpt import GPT, PRESETS, GPTConfig
from course_lib.seeding import shifted
from course_lib.tokenization import ByteBPETokenizer, CharTokenizer

from _runner import main

BATCH = 16  # windows per step, as in section 3.3
SECTION_3_3 = GPTConfig(vocab_size=76, block_size=64, n_layers=4, n_heads=4, d_model=128)
TINY = GPTConfig(vocab_size=76, block_size=16, n_layers=1, n_heads=2, d_model=32)


def _recipe(steps: int, eval_every: int) -> train.TrainConfig:
    """Section 3.3's optimiser and schedule (peak 2e-3, cosine to 2e-4 after 100 warmup steps),
    for ``steps`` steps, evaluating on 50 random validation batches every ``eval_every`` steps."""
    return train.TrainConfig(
        seed=shifted(0),
        steps=steps,
        lr=2e-3,
        min_lr=2e-4,
        warmup_steps=min(100, steps // 10),
        betas=(0.9, 0.99),
        eval_every=eval_every,
        eval_batches=50,
        progress=False,
        log=True,
    )


def _char_data(quick: bool) -> tuple[torch.Tensor, torch.Tensor, str, str]:
    """Section 3.1's split of the plays, as character ids: ``(train_ids, val_ids, train_text,
    val_text)``; ``quick`` keeps the first 200,000 characters of each part."""
    text = data.shakespeare()
    train_text, val_text = data.train_val_split(text, val_fraction=0.1)
    if quick:
        train_text, val_text = train_text[:200_000], val_text[:200_000]
    chars = CharTokenizer(text)
    return torch.tensor(chars.encode(train_text)), torch.tensor(chars.encode(val_text)), train_text, val_text


@torch.no_grad()
def heldout_loss(model: GPT, ids: torch.Tensor, batch: int = 64) -> float:
    """Mean next-token loss over ALL of ``ids``, cut into consecutive windows of ``block_size + 1``
    tokens (every token but each window's first is predicted once): no sampling noise, unlike the
    50 random batches ``train`` evaluates on."""
    model.eval()
    device = next(model.parameters()).device
    T = model.config.block_size
    n = (len(ids) - 1) // T
    windows = ids[: n * T + 1]
    inputs, targets = windows[:-1].view(n, T), windows[1:].view(n, T)
    total = 0.0
    for start in range(0, n, batch):
        x, y = inputs[start : start + batch].to(device), targets[start : start + batch].to(device)
        total += F.cross_entropy(model(x).flatten(0, 1).float(), y.flatten(), reduction="sum").item()
    return total / (n * T)


def _pretrain(
    config: GPTConfig, train_ids: torch.Tensor, val_ids: torch.Tensor, steps: int, eval_every: int
) -> tuple[GPT, Any]:
    """A GPT of ``config`` trained with section 3.3's recipe on random windows of ``train_ids``."""
    torch.manual_seed(shifted(0))
    model = GPT(config)

    def batches(split: str, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return data.lm_batch(train_ids if split == "train" else val_ids, config.block_size, BATCH, gen)

    return model, train.train(model, batches, _recipe(steps, eval_every))


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """Longer and wider.

    Cost: about 20 minutes on one core (measured here, CPU time of each run with its evaluations:
    section 3.3's run about 145 s, the longer run 400 s, the wider one 510 s, the small-text run
    185 s).

    Validation loss on the whole validation text (nats per character; seed 0):

        run                                       parameters   steps   loss
        section 3.3 (4 blocks of 128)               811,264    1,500   1.83
        longer: the same model                      811,264    5,000   1.62
        wider: 6 blocks of 256                    4,774,912    1,500   1.77
        section 3.3's model, 50,000 characters      811,264    2,000   2.46 (best 2.18)

    Longer helps far more than wider. 5,000 steps take the loss from 1.83 to 1.62 (2.33 bits per
    character), still falling at the end (1.63 to 1.61 over the last 500 steps): the model has seen
    1.2 times the training text and has not run out of things to learn from it. Six blocks of width
    256, six times the parameters, gain only 0.05 in the same 1,500 steps, for 3.5 times the
    section's CPU time; the longer run gains four times as much for 2.7 times the section's CPU
    time. At this budget the small model is limited by the text it has seen, not by its size; the
    wider model needs a longer run to show what its size is worth.

    Overfitting: on the first 50,000 characters (the opening of A Midsummer Night's Dream, 21
    speakers), 2,000 steps pass over the text 41 times. The validation loss falls to about 2.2 by
    step 800, wavers there until about step 1,100 (its lowest, 2.18, some 22 passes), then rises
    steadily to 2.47 at step 2,000, while the training loss keeps falling, to 1.09. The model has
    16 parameters per training character: after a few dozen passes it is learning the excerpt's
    own sequences (its speakers' names, its lines) rather than what carries over to other plays, and
    what it memorises costs it on text it has not seen. More text, or stopping at the lowest
    validation loss (early stopping), or regularisation such as dropout, would prevent it; with the
    full training text the same model sees each character about once and never overfits here.
    """
    train_ids, val_ids, _, _ = _char_data(quick)
    small = TINY if quick else SECTION_3_3
    wide = replace(small, n_layers=2, d_model=64) if quick else replace(small, n_layers=6, d_model=256)
    short, long, every = (20, 40, 10) if quick else (1500, 5000, 250)
    few_chars, few_steps, every_few = (5_000, 30, 5) if quick else (50_000, 2000, 100)
    results: dict[str, Any] = {}
    runs = (
        ("section 3.3: 1,500 steps", small, train_ids, short, every),
        ("longer: 5,000 steps", small, train_ids, long, every),
        ("wider: 6 blocks of 256, 1,500 steps", wide, train_ids, short, every),
        ("50,000 characters, 2,000 steps", small, train_ids[:few_chars], few_steps, every_few),
    )
    for name, config, ids, steps, eval_every in runs:
        start = time.process_time()
        model, history = _pretrain(config, ids, val_ids, steps, eval_every)
        best = min(range(len(history.val_loss)), key=history.val_loss.__getitem__)
        results[name] = {
            "parameters": model.num_parameters(),
            "train_chars": len(ids),
            "passes": steps * BATCH * config.block_size / len(ids),
            "val_loss": heldout_loss(model, val_ids),
            "train_loss_last_100": sum(history.train_loss[-100:]) / len(history.train_loss[-100:]),
            "eval_step": [s + 1 for s in history.eval_step],
            "val_curve": [round(v, 4) for v in history.val_loss],
            "best_step": history.eval_step[best] + 1,
            "best_val": history.val_loss[best],
            "seconds": history.seconds,
            "cpu_seconds": time.process_time() - start,
        }
        print(
            f"{name}: {model.num_parameters():,} parameters, validation loss {results[name]['val_loss']:.3f} (whole "
            f"validation text), lowest sampled {history.val_loss[best]:.3f} at step {results[name]['best_step']}"
        )
    assert all(math.isfinite(r["val_loss"]) and r["val_loss"] < math.log(76) for r in results.values())
    if not quick:
        base, longer, wider, _ = (results[name]["val_loss"] for name, *_ in runs)
        assert longer < base - 0.1, "5,000 steps should beat 1,500 clearly"
        assert wider < base and base - longer > 2 * (base - wider), "wider helps a little; longer helps more"
        few = results[runs[-1][0]]
        assert few["val_curve"][-1] > few["best_val"] + 0.1 and few["best_step"] < few["eval_step"][-1], (
            "on 50,000 characters the validation loss turns back up"
        )
        assert few["train_loss_last_100"] < few["val_curve"][-1] - 0.5, "while the training loss keeps falling"
    return results


def exercise_2(quick: bool = False) -> dict[str, Any]:
    """BPE.

    Cost: about 5 minutes on one core (measured: 290 s of CPU for the full solution, tokenizer
    training and encoding 3 s of it, then two runs of section 3.3's 1,500 steps).

    Trained on the training text, 512 tokens (256 bytes + 256 merges) cut the text to 0.52 tokens
    per character: a token is 1.9 characters on average, so a window of 64 tokens holds about 123
    characters where the character model's holds 64. The same model (4 blocks of width 128, only
    the embedding grows from 76 to 512 rows) trained with section 3.3's recipe, the same 1,500 steps
    of 16 windows, reaches 3.18 nats per token on the whole validation text, against 1.83 nats per
    character for the character-level model. Per token BPE looks far worse, but its tokens carry
    more: per character it is 3.18 x 0.52 = 1.66 nats, or 2.39 bits per character against 2.64 for
    characters. BPE wins by about a quarter of a bit per character, 9%, at the same number of steps
    and about the same compute per step.

    Why: in the same steps the BPE model reads 1.9 times as much text (2.9 M characters against
    1.5 M) and each prediction sees twice as far back in characters; frequent words and
    word pieces become single tokens whose spelling it no longer has to predict letter by letter.
    Part of the gain is simply more text: the character model trained for 5,000 steps (exercise 1)
    does better still. Per-token losses of models with different tokenizers are not comparable:
    always convert to bits (or nats) per character, or per byte, of the same text.
    """
    train_ids, val_ids, train_text, val_text = _char_data(quick)
    start = time.process_time()
    bpe = ByteBPETokenizer.train(train_text, 512)
    bpe_train = torch.tensor(bpe.encode(train_text, allowed_special=set()))
    bpe_val = torch.tensor(bpe.encode(val_text, allowed_special=set()))
    tokenizer_seconds = time.process_time() - start
    assert bpe.decode(bpe_val.tolist()) == val_text, "byte-level BPE is lossless"
    base = TINY if quick else SECTION_3_3
    steps, eval_every = (40, 20) if quick else (1500, 250)
    results: dict[str, Any] = {"tokenizer_cpu_seconds": tokenizer_seconds}
    for name, ids, val, vocab, n_chars in (
        ("characters", train_ids, val_ids, base.vocab_size, len(val_text)),
        ("BPE, 512 tokens", bpe_train, bpe_val, bpe.vocab_size, len(val_text)),
    ):
        model, history = _pretrain(replace(base, vocab_size=vocab), ids, val, steps, eval_every)
        per_token = heldout_loss(model, val)
        tokens_per_char = len(val) / n_chars
        results[name] = {
            "loss_per_token": per_token,
            "tokens_per_char": tokens_per_char,
            "chars_per_window": base.block_size / tokens_per_char,
            "bits_per_char": per_token * tokens_per_char / math.log(2),
            "train_chars_seen": steps * BATCH * base.block_size / tokens_per_char,
            "seconds": history.seconds,
        }
        print(
            f"{name}: {per_token:.3f} nats per token, {tokens_per_char:.3f} tokens per character, "
            f"{results[name]['bits_per_char']:.3f} bits per character"
        )
    bpe_run, char_run = results["BPE, 512 tokens"], results["characters"]
    assert bpe_run["tokens_per_char"] < 0.75, "512 BPE tokens shorten the text"
    assert bpe_run["loss_per_token"] > char_run["loss_per_token"], (
        "per token, BPE's loss is higher: its tokens carry more"
    )
    if not quick:
        assert 0.45 < bpe_run["tokens_per_char"] < 0.6
        assert bpe_run["bits_per_char"] < char_run["bits_per_char"] - 0.1, (
            "per character, BPE does better at the same steps"
        )
    return results


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Top-p by hand.

    Sort the probabilities (0.5, 0.3, 0.15, 0.05) and keep tokens until their running sum reaches
    p; the running sums are 0.5, 0.8, 0.95, 1.0. So p = 0.4 keeps {0} (0.5 alone already covers
    0.4), p = 0.75 keeps {0, 1} (0.5 < 0.75, 0.8 >= 0.75), p = 0.85 keeps {0, 1, 2} and p = 0.96
    keeps all four. ``top_p_filter`` agrees: a token is kept when the probability of the tokens
    ranked above it is still below p. At p = 0.8 the exact answer is {0, 1}, since 0.5 + 0.3 = 0.8
    reaches p, but in 32-bit floats the softmax of the logs gives 0.3 as 0.30000001, the running sum
    is 0.80000001 and the threshold 0.8 is stored as 0.80000001 too: here they compare equal and the
    filter keeps {0, 1}. A different order of summation, another dtype (float64 keeps three:
    0.5 + 0.3 falls just below its 0.8) or logits computed another way can tip it; a test should
    not sit on such a boundary.
    """
    probabilities = [0.5, 0.3, 0.15, 0.05]
    logits = torch.tensor(probabilities).log()
    kept = {
        p: torch.isfinite(top_p_filter(logits, p)).nonzero().flatten().tolist() for p in (0.4, 0.75, 0.8, 0.85, 0.96)
    }
    by_hand = {p: [i for i in range(4) if sum(probabilities[:i]) < p] for p in (0.4, 0.75, 0.85, 0.96)}
    in_double = (
        torch.isfinite(top_p_filter(torch.tensor(probabilities, dtype=torch.float64).log(), 0.8))
        .nonzero()
        .flatten()
        .tolist()
    )
    print("kept by top_p_filter:", kept, " in float64 at p = 0.8:", in_double)
    assert all(kept[p] == by_hand[p] for p in by_hand), "the filter keeps what the hand count keeps"
    assert by_hand == {0.4: [0], 0.75: [0, 1], 0.85: [0, 1, 2], 0.96: [0, 1, 2, 3]}
    assert kept[0.8] in ([0, 1], [0, 1, 2]), "at the boundary either answer can come out"
    return {"kept": kept, "kept_at_0.8_in_float64": in_double}


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """The cache's memory for GPT-2 XL.

    Every block keeps the keys and the values of every position: 2 (keys and values) x 48 blocks x
    1,024 positions x 1,600 features (25 heads of 64) = 157,286,400 numbers, at 2 bytes each
    314,572,800 bytes: about 315 MB (300 MiB) for one sequence of 1,024 tokens, against 3.1 GB for
    the model's 1,558 M parameters in 16 bits, a tenth of the weights. The code checks the formula
    by running GPT-2 XL's 48 blocks on PyTorch's meta device (shapes, no memory or arithmetic) with a
    KV cache per block and adding up what the caches hold. A batch of 10 such sequences already
    holds as much as the weights.
    """
    config = PRESETS["gpt2-xl"]
    formula = 2 * config.n_layers * config.block_size * config.d_model * 2
    with torch.device("meta"):
        model = GPT(config).to(torch.bfloat16).eval()
        caches = model.new_caches()
        hidden = torch.empty(1, config.block_size, config.d_model, dtype=torch.bfloat16)
        with torch.no_grad():
            for block, cache in zip(model.blocks, caches):
                hidden = block(hidden, cache=cache)
        weight_bytes = model.num_parameters() * 2
    held = sum(t.numel() * t.element_size() for cache in caches for t in (cache.k, cache.v) if t is not None)
    print(
        f"GPT-2 XL, one sequence of {config.block_size} tokens: {held:,} bytes of keys and values ({held / 1e6:.0f} "
        f"MB); weights {weight_bytes / 1e9:.2f} GB"
    )
    assert held == formula == 314_572_800
    assert 0.05 < held / weight_bytes < 0.2
    return {
        "cache_bytes": held,
        "weight_bytes": weight_bytes,
        "cache_share_of_weights": held / weight_bytes,
        "per_cache_shape": list(caches[0].k.shape),
    }


EXERCISES = {1: exercise_1, 2: exercise_2, 3: exercise_3, 4: exercise_4}

if __name__ == "__main__":
    main(EXERCISES)
