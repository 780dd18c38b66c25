"""Instructor solutions to the exercises of chapter 3b, Tokenization (book/03b_tokenization.md).

Every exercise rebuilds what it needs the way the chapter does: the plays split nine tenths /
one tenth, byte-level BPE trained on the nine tenths, GPT-2's tokenizer, and the chapter's Unigram
tokenizer (Hugging Face's ``UnigramTrainer`` with SentencePiece's spaces). Exercise 4 pretrains three
small GPTs for minutes; the others take seconds. ``--quick`` runs every exercise on a slice of the
plays, small vocabularies and a tiny model, in seconds.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import regex
import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from course_lib import data
from course_lib.gpt import GPT, GPTConfig  # chapter 3's model
from course_lib.seeding import shifted
from course_lib.tokenization import GPT2_SPLIT_PATTERN, ByteBPETokenizer, CharTokenizer
from course_lib.train import TrainConfig, train  # section 3.3's loop
from course_lib.unigram import SPACE, UnigramTokenizer, escape  # section 3b.6

from _runner import main

QUICK_CHARS = 200_000  # --quick: the first characters of each part of the split


def _split(quick: bool) -> tuple[str, str]:
    """The chapter's split of the plays: ``(train_text, val_text)``, in quick mode their first
    :data:`QUICK_CHARS` characters."""
    train_text, val_text = data.train_val_split(data.shakespeare(), val_fraction=0.1)
    return (train_text[:QUICK_CHARS], val_text[:QUICK_CHARS]) if quick else (train_text, val_text)


def _train_cpt(tok: ByteBPETokenizer, words: Counter[str], n_chars: int) -> float:
    """Characters per token of the training text, counted per distinct pre-token as the chapter does."""
    return n_chars / sum(n * len(tok.encode(word)) for word, n in words.items())


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """Where the curve ends.

    Training takes about 2 s of CPU on one core for 16,384 tokens, 3 s for 32,768 and 3.5 s for the
    largest vocabulary the plays allow. Asking for 65,536 fails: ``ByteBPETokenizer.train``
    raises a ValueError after 43,141 merges, because no adjacent pair is left inside any pre-token:
    every distinct word of the training text is a single token. The largest vocabulary the plays
    allow is therefore 256 + 43,141 = 43,397 tokens, more than the 32,523 distinct words, because
    the tokens built on the way to each word stay in the vocabulary.

    Characters per token on the held-out text: 3.32 at 16,384, 3.41 at 32,768 and 3.43 at 43,397;
    on the training text 3.60, 3.70 and 3.74. The held-out curve flattens (the last 10,629 tokens
    add 0.02), while the training curve climbs to its ceiling, 3.74 characters per pre-token, where
    every training word is one token; the gap between the two widens at every step (0.28, 0.30,
    0.31). The last merges memorise words that occur a handful of times in the training plays and
    rarely in the held-out ones: compression measured on the training text keeps improving long
    after it has stopped improving on new text. Cost: seconds (about 13 s of CPU for the whole
    solution, two trainings and three encodings).
    """
    train_text, val_text = _split(quick)
    words = Counter(regex.findall(GPT2_SPLIT_PATTERN, train_text))  # pre-token -> count
    sizes = [1024, 4096, 65_536] if quick else [16_384, 32_768, 65_536]
    start = time.process_time()
    try:
        bpe = ByteBPETokenizer.train(train_text, sizes[-1])
        ran_out = None
    except ValueError as error:  # too few distinct pairs: every word is already one token
        ran_out = str(error)
        n_max = int(regex.search(r"only (\d+)", ran_out).group(1))
        bpe = ByteBPETokenizer.train(train_text, 256 + n_max)
    train_seconds = time.process_time() - start
    reachable = sorted({min(V, bpe.vocab_size) for V in sizes})
    rows = {}
    for V in reachable:
        tok = bpe.truncated(V - 256)
        rows[V] = {
            "held_out_cpt": len(val_text) / len(tok.encode(val_text)),
            "training_cpt": _train_cpt(tok, words, len(train_text)),
        }
        print(
            f"V = {V:>6,}: {rows[V]['held_out_cpt']:.3f} characters per token held out, "
            f"{rows[V]['training_cpt']:.3f} on the training text"
        )
    whole_words = len(train_text) / words.total()  # characters per token once every word is one token
    largest = rows[reachable[-1]]
    print(
        f"training took {train_seconds:.1f} s of CPU; {ran_out or 'no error'}; one token per "
        f"word would give {whole_words:.3f}"
    )
    assert ran_out is not None, (
        "BPE runs out of pairs before 65,536 tokens: every training word is a single token by then"
    )
    assert bpe.vocab_size < sizes[-1]
    assert abs(largest["training_cpt"] - whole_words) < 1e-9, "at the end every training word is one token"
    assert all(
        rows[a]["training_cpt"] - rows[a]["held_out_cpt"] < rows[b]["training_cpt"] - rows[b]["held_out_cpt"]
        for a, b in zip(reachable, reachable[1:])
    ), "the gap widens"
    return {
        "train_cpu_seconds": train_seconds,
        "ran_out": ran_out,
        "largest_vocab": bpe.vocab_size,
        "distinct_words": len(words),
        "chars_per_word": whole_words,
        "rows": rows,
    }


def exercise_2(quick: bool = False) -> dict[str, Any]:
    r"""Numbers.

    681 of the 10,000 numbers are one GPT-2 token with a leading space: all of 0 to 99, 405 of the
    900 numbers from 100 to 999 (the first that splits is 362), and only 176 of the 9,000 four-digit
    numbers, mostly years (147 of them lie between 1800 and 2030) and round or computer numbers
    (1000, 1024, 2048, 4096, 5000). Plotted, the count is 1 up to 99, jumps between 1 and 2 from 100
    to 999, and is 2 for almost every four-digit number (8,610 of them; 214 take three), with a dense
    band of single tokens at the years. So the digits a token holds follow frequency on the web, not
    place value: "12345 + 678 = 13023" is cut 123|45 + 6|78 = 130|23 (8 tokens), and the units
    digit sits at a different place in a different token in each number.

    Cutting every digit apart (``regex.findall(r"\d|\D+", text)``) spells each number with one token
    per digit: the same sum takes 17 tokens, and every digit 0-9 is one token whatever its context.
    A model learning to add then sees aligned, consistent symbols: the units digit is always the
    last token of a number, the tens digit the one before, and a carry is the same operation on the
    same ten ids at every position, instead of a separate fact about each of thousands of number
    tokens. The price is longer sequences for numbers. Cost: seconds (about 3 s of CPU).
    """
    gpt2 = ByteBPETokenizer.gpt2()
    numbers = range(1000) if quick else range(10_000)
    counts = [len(gpt2.encode(f" {n}")) for n in numbers]
    single = [n for n, c in zip(numbers, counts) if c == 1]
    by_digits = {
        d: Counter(c for n, c in zip(numbers, counts) if len(str(n)) == d) for d in range(1, len(str(numbers[-1])) + 1)
    }
    first_split = min(n for n, c in zip(numbers, counts) if c > 1)
    single_above = [n for n in single if n >= 1000]

    def digit_pieces(text: str) -> list[list[int]]:
        return [gpt2.encode(chunk) for chunk in regex.findall(r"\d|\D+", text)]

    sums = ["12345 + 678 = 13023", "2048 + 4096 = 6144"]
    whole = {s: [gpt2.decode([i]) for i in gpt2.encode(s)] for s in sums}
    split = {s: [gpt2.decode([i]) for chunk in digit_pieces(s) for i in chunk] for s in sums}
    print(
        f"one token: {len(single)} of {len(numbers)} numbers; the first that splits: {first_split}; single tokens "
        f"from 1000 up: {len(single_above)}"
    )
    print("tokens by number of digits:", {d: dict(c) for d, c in by_digits.items()})
    for s in sums:
        print(f"{s!r}: {whole[s]} -> digit by digit {split[s]}")
    assert all(len(gpt2.encode(d)) == 1 for d in "0123456789"), "each digit alone is one token"
    return {
        "single_token_numbers": len(single),
        "first_split": first_split,
        "single_from_1000": len(single_above),
        "tokens_by_digits": {d: dict(c) for d, c in by_digits.items()},
        "whole": whole,
        "digit_by_digit": split,
    }


def _sphinx_messages(language: str) -> tuple[str, str]:
    """Sphinx's interface messages (installed with the book's environment) as two parallel texts:
    the English originals and their translations into ``language``, one message per line."""
    import sphinx
    from babel.messages.pofile import read_po

    path = Path(sphinx.__file__).parent / "locale" / language / "LC_MESSAGES" / "sphinx.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    pairs = [(m.id, m.string) for m in catalog if m.id and isinstance(m.id, str) and m.string and not m.fuzzy]
    return "\n".join(e for e, _ in pairs), "\n".join(t for _, t in pairs)


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Another text.

    The solution takes a pair of texts with the same meaning: the interface messages Sphinx ships
    (33,451 characters of English) and their French translations (41,086 characters), one message
    per line. Characters per token: on the English, the plays' 4,096-token BPE 2.28 and GPT-2 3.67;
    on the French, 1.83 and 2.74. GPT-2 wins on both, by about 1.5 to 1.6 times. Its 50,257 tokens
    were learned from web text, which has technical English ("directive", "configuration", "file")
    and some French, while the plays' 4,096 tokens were learned from early modern English verse: on
    Sphinx's English they compress much less than on held-out Shakespeare (2.28 against 2.92), and
    on French they are left with fragments and single letters. Both tokenizers compress the French
    less than the English: a tokenizer fits the language and the kind of text it was trained on, and
    what it has not seen costs more tokens per character. Cost: seconds (about 4 s of CPU, most of it
    training the BPE).
    """
    train_text, _ = _split(quick)
    bpe = ByteBPETokenizer.train(train_text, 600 if quick else 4096)
    gpt2 = ByteBPETokenizer.gpt2()
    english, french = _sphinx_messages("fr")
    texts = {"English (Sphinx's messages)": english, "French (their translations)": french}
    cpt = {
        name: {
            "plays' BPE": len(t) / len(bpe.encode(t, allowed_special=set())),
            "GPT-2": len(t) / len(gpt2.encode(t, allowed_special=set())),
        }
        for name, t in texts.items()
    }
    for name, row in cpt.items():
        print(
            f"{name} ({len(texts[name]):,} characters): "
            + ", ".join(f"{k} {v:.2f}" for k, v in row.items())
            + " characters per token"
        )
    assert all(row["GPT-2"] > row["plays' BPE"] for row in cpt.values()), "GPT-2's web-text vocabulary wins on both"
    if not quick:
        assert cpt["French (their translations)"]["GPT-2"] < cpt["English (Sphinx's messages)"]["GPT-2"], (
            "GPT-2 compresses French less than English"
        )
    return {"chars": {name: len(t) for name, t in texts.items()}, "chars_per_token": cpt}


# ------------------------------------------------------------------------------- exercise 4

STEPS, BATCH = 1500, 16  # section 3.3's recipe


def _heldout_loss(model: GPT, ids: torch.Tensor, batch: int = 64) -> float:
    """Mean next-token loss over all of ``ids``, cut into consecutive windows (no sampling noise)."""
    model.eval()
    T = model.config.block_size
    n = (len(ids) - 1) // T
    inputs, targets = ids[: n * T].view(n, T), ids[1 : n * T + 1].view(n, T)
    total = 0.0
    with torch.no_grad():
        for s in range(0, n, batch):
            total += F.cross_entropy(
                model(inputs[s : s + batch]).flatten(0, 1), targets[s : s + batch].flatten(), reduction="sum"
            ).item()
    return total / (n * T)


def _batches(
    train_ids: torch.Tensor, val_ids: torch.Tensor, block_size: int
) -> Callable[[str, torch.Generator], tuple[torch.Tensor, torch.Tensor]]:
    """Random windows of ``block_size + 1`` ids of the training or validation ids, 16 at a time."""

    def batches(split: str, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return data.lm_batch(train_ids if split == "train" else val_ids, block_size, BATCH, gen)

    return batches


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """Bits per character of a real model.

    Section 3.3's model (4 blocks of width 128, 64 tokens of context) trained for 1,500 steps of 16
    windows with section 3.3's recipe, on each tokenization of the same training text, and measured
    on the whole held-out text (one run, seed 0; other seeds and processors move the numbers by a few
    hundredths):

    - characters: 1.83 nats per token, 1 token per character: 2.64 bits per character;
    - BPE, 512 tokens: 3.18 nats per token, 0.52 tokens per character: 2.39 bits per character;
    - BPE, 4,096 tokens: 4.54 nats per token, 0.34 tokens per character: 2.24 bits per character.

    Per token the ranking is reversed (a larger vocabulary makes each token harder to predict), which
    is why the comparison must be made per character. For the same number of steps the 4,096-token
    model is best: each window of 64 tokens holds about 190 characters instead of 64, so in 1,500
    steps it reads 4.5 M characters of the plays (about one pass over the training text) where the
    character model reads 1.5 M, and it sees three times as much context. A step costs more, though:
    about 80 ms of CPU with characters, 87 ms with 512 tokens and 141 ms with 4,096 on one core, the
    output layer over 4,096 tokens dominating, and the 4,096-token model has 1.33 M parameters
    instead of 0.81 M, 0.52 M of them in its embedding table. For the same CPU time the
    4,096-token model would get about 850 steps; whether it still wins then is worth a run of its
    own. Cost: about 8 minutes on one core (500 s of CPU for the three trainings).
    """
    train_text, val_text = _split(quick)
    bpe = ByteBPETokenizer.train(train_text, 1024 if quick else 4096)
    tokenizers = {
        "characters": CharTokenizer(data.shakespeare()),
        "BPE, 512 tokens": bpe.truncated(256),
        f"BPE, {bpe.vocab_size:,} tokens": bpe,
    }
    steps = 30 if quick else STEPS
    results: dict[str, Any] = {}
    for name, tok in tokenizers.items():
        train_ids, val_ids = torch.tensor(tok.encode(train_text)), torch.tensor(tok.encode(val_text))
        config = GPTConfig(
            vocab_size=tok.vocab_size,
            block_size=64,
            n_layers=1 if quick else 4,
            n_heads=4,
            d_model=32 if quick else 128,
            dropout=0.0,
        )
        torch.manual_seed(shifted(0))
        model = GPT(config)

        run = TrainConfig(
            seed=shifted(0),
            steps=steps,
            lr=2e-3,
            min_lr=2e-4,
            warmup_steps=min(100, steps // 10),
            betas=(0.9, 0.99),
            eval_every=steps,
            eval_batches=10,
            progress=False,
            device="cpu",
        )
        start = time.process_time()
        train(model, _batches(train_ids, val_ids, config.block_size), run)
        cpu = time.process_time() - start
        per_token = _heldout_loss(model, val_ids)
        tokens_per_char = len(val_ids) / len(val_text)
        results[name] = {
            "parameters": model.num_parameters(),
            "nats_per_token": per_token,
            "tokens_per_char": tokens_per_char,
            "bits_per_char": per_token * tokens_per_char / math.log(2),
            "training_chars_read": steps * BATCH * config.block_size / tokens_per_char,
            "cpu_seconds": cpu,
            "cpu_ms_per_step": 1000 * cpu / steps,
        }
        print(
            f"{name}: {per_token:.3f} nats per token, {results[name]['bits_per_char']:.3f} bits "
            f"per character, {cpu:.0f} s of CPU"
        )
    chars, small, large = (results[name] for name in tokenizers)
    assert all(math.isfinite(r["bits_per_char"]) for r in (chars, small, large))
    if not quick:
        assert large["bits_per_char"] < small["bits_per_char"] < chars["bits_per_char"], (
            "per character, the larger vocabulary wins after the same steps"
        )
        assert large["nats_per_token"] > small["nats_per_token"] > chars["nats_per_token"], (
            "per token the order is reversed"
        )
        assert large["cpu_ms_per_step"] > 1.2 * chars["cpu_ms_per_step"], "a step over 4,096 tokens costs more"
    return results


# ------------------------------------------------------------------------------- exercise 5


def _train_unigram(text: str, vocab_size: int) -> UnigramTokenizer:
    """The chapter's Unigram tokenizer: Hugging Face's trainer, ``▁`` for spaces, a line break a
    piece of its own."""
    hf = Tokenizer(models.Unigram())
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="always", split=True),
            pre_tokenizers.Split("\n", behavior="isolated"),
        ]
    )
    hf.train_from_iterator(
        [text],
        trainers.UnigramTrainer(
            vocab_size=vocab_size, unk_token="<unk>", special_tokens=["<unk>"], show_progress=False
        ),
    )
    return UnigramTokenizer.from_json(hf.to_str())


def exercise_5(quick: bool = False) -> dict[str, Any]:
    """How much does sampling change?

    On the first 200 non-empty held-out lines (1,695 tokens in their best cuts), a drawn cut has, on
    average, 2.15 times the best cut's tokens at alpha = 0.05 and is the best cut for 2% of the
    lines; 1.68 times and 8% at 0.1; 1.27 times and 21% at 0.2; 1.04 times and 66% at 0.5; 1.01
    times and 90% at 1; 1.00 times and 96% at 2 (one seed; other seeds move these by a few
    points). At alpha = 1 the model's own distribution is so peaked that sampling rarely changes
    anything, so it regularises little; at 0.05 the words are spelt from single letters and short
    fragments, twice as many tokens as the model will meet at test time, where it reads the best
    cut. A value between, around 0.2 to 0.5, shows the model other cuts of most lines while keeping
    sequences within a few tens of percent of their usual length; the right value is found by
    validation on the task. Every drawn cut spells its line exactly. Cost: seconds
    (about 10 s of CPU, most of it training the tokenizer).
    """
    train_text, val_text = _split(quick)
    unigram = _train_unigram(train_text, 1000 if quick else 16_384)
    lines = [escape(line) for line in val_text.splitlines() if line.strip()][: 50 if quick else 200]
    best = [unigram.cut(line) for line in lines]
    rng = random.Random(shifted(0))
    rows = {}
    for alpha in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0):
        samples = [unigram.sample(line, alpha, rng) for line in lines]
        assert all("".join(s.pieces) == line for s, line in zip(samples, lines)), "every sample spells its line"
        rows[alpha] = {
            "tokens_vs_best": sum(len(s.ids) for s in samples) / sum(len(b.ids) for b in best),
            "share_best": sum(s.ids == b.ids for s, b in zip(samples, best)) / len(lines),
        }
        print(
            f"alpha = {alpha:<4}: {rows[alpha]['tokens_vs_best']:.2f} times the best cut's tokens, the best cut itself "
            f"for {rows[alpha]['share_best']:.0%} of the lines"
        )
    alphas = list(rows)
    assert rows[alphas[0]]["tokens_vs_best"] > rows[alphas[-1]]["tokens_vs_best"], "flatter sampling, longer cuts"
    assert rows[alphas[0]]["share_best"] < rows[alphas[-1]]["share_best"], "sharper sampling, the best cut more often"
    return {"lines": len(lines), "best_tokens": sum(len(b.ids) for b in best), "rows": rows}


EXERCISES = {1: exercise_1, 2: exercise_2, 3: exercise_3, 4: exercise_4, 5: exercise_5}

if __name__ == "__main__":
    main(EXERCISES)
