"""Instructor solutions to the exercises of chapter 4, BERT (book/04_bert.md).

Every exercise rebuilds what it needs the way the chapter does: the 4,096-token WordPiece vocabulary
trained on the plays (every tenth play held out), next-sentence pairs of speeches, and the training
recipe of sections 4.3 and 4.5. Exercises 1 and 3 pretrain small BERTs (about 85 s and 200 s of
CPU); exercise 2 needs no model; exercise 4 reads all-MiniLM-L6-v2, which the course's environment
installs, and the small BERT that section 4.5 saves (read with ``course_lib.chapter_models.load_chapter_model``:
run the chapter first). ``--quick`` runs every exercise on a few plays, a small vocabulary and a
tiny untrained or briefly trained model, in seconds, and needs no saved model.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter, defaultdict
from typing import Any, NamedTuple

import torch
import torch.nn.functional as F

from course_lib.bert import (
    IGNORE_INDEX,
    IS_NEXT,
    NOT_NEXT,
    Bert,
    BertConfig,
    BertForPreTraining,
    Pair,
    mean_pool,
    minilm_directory,
    nsp_pairs,
    pretraining_batch,
    pretraining_loss,
)
from course_lib.chapter_models import load_chapter_model
from course_lib.data import shakespeare_plays
from course_lib.seeding import generator, set_seed, shifted
from course_lib.train import TrainConfig, train
from course_lib.wordpiece import WordPieceTokenizer, truncated_lengths

from _runner import main

T = 64  # tokens per pair, as in the chapter
BATCH = 32  # pairs per step, as in the chapter


class Corpus(NamedTuple):
    """The chapter's data: the WordPiece tokenizer, the plays split by title, and their speeches as ids."""

    tokenizer: WordPieceTokenizer
    plays: dict[str, str]
    train_titles: list[str]
    val_titles: list[str]
    train_docs: list[list[list[int]]]  # play -> speech -> WordPiece ids (no [CLS]/[SEP])
    val_docs: list[list[list[int]]]

    @property
    def ids_kw(self) -> dict[str, Any]:
        tok = self.tokenizer
        return dict(
            cls_id=tok.cls_id,
            sep_id=tok.sep_id,
            pad_id=tok.pad_id,
            mask_id=tok.mask_id,
            special_ids=self.special_ids,
            vocab_size=tok.vocab_size,
        )

    @property
    def special_ids(self) -> list[int]:
        return list(self.tokenizer.special_tokens.values())


def _corpus(quick: bool) -> Corpus:
    """Section 4.2's split (every tenth play held out) and vocabulary (4,096 WordPiece tokens, trained
    on the training plays); ``quick``: 4 training plays, 2 held out, 512 tokens."""
    plays = shakespeare_plays()
    titles = list(plays)
    val_titles = titles[::10]
    train_titles = [t for t in titles if t not in val_titles]
    if quick:
        train_titles, val_titles = train_titles[:4], val_titles[:2]
    tokenizer = WordPieceTokenizer.train("\n\n".join(plays[t] for t in train_titles), vocab_size=512 if quick else 4096)

    def documents(names: list[str]) -> list[list[list[int]]]:
        return [[tokenizer.encode(p).input_ids[1:-1] for p in plays[t].split("\n\n")] for t in names]

    return Corpus(tokenizer, plays, train_titles, val_titles, documents(train_titles), documents(val_titles))


def _recipe(steps: int, warmup: int, lr: float) -> TrainConfig:
    """The chapter's optimiser and schedule (peak ``lr``: 2e-3 for section 4.3's model, 1e-3 for 4.5's; cosine to
    2e-4), no evaluation but at the end."""
    return TrainConfig(
        seed=shifted(0),
        steps=steps,
        lr=lr,
        min_lr=2e-4,
        warmup_steps=warmup,
        weight_decay=0.01,
        betas=(0.9, 0.999),
        eval_every=steps,
        eval_batches=2,
        progress=False,
    )


def _config(corpus: Corpus, quick: bool, n_layers: int) -> BertConfig:
    """The chapter's small BERT (width 128, 4 heads, ``n_layers`` blocks), or a tiny one for ``quick``."""
    if quick:
        return BertConfig(
            vocab_size=corpus.tokenizer.vocab_size, block_size=T, n_layers=1, n_heads=2, d_model=32, dropout=0.1
        )
    return BertConfig(
        vocab_size=corpus.tokenizer.vocab_size, block_size=T, n_layers=n_layers, n_heads=4, d_model=128, dropout=0.1
    )


def _saved_small_bert() -> tuple[BertForPreTraining, WordPieceTokenizer]:
    """The small BERT of section 4.5 and its tokenizer, as the chapter saves them."""
    saved = load_chapter_model("04_bert", made_by="chapter 4 (book/04_bert.md)")
    model = BertForPreTraining(BertConfig(**saved["config"]))
    model.load_state_dict(saved["state_dict"])
    return model.eval(), WordPieceTokenizer(saved["tokens"], lowercase=saved["lowercase"])


# ------------------------------------------------------------------------------------ exercise 1


def _pretrain(
    corpus: Corpus,
    config: BertConfig,
    pairs: list[Pair],
    steps: int,
    warmup: int,
    *,
    lr: float,
    rate: float = 0.15,
    nsp: bool = True,
) -> BertForPreTraining:
    """A BERT of ``config`` pretrained as the chapter does: batches of 32 pairs drawn from ``pairs``,
    masked at ``rate`` with 80/10/10, MLM (and, if ``nsp``, the sentence task of the pairs' labels)."""
    set_seed(0)
    model = BertForPreTraining(config, nsp=nsp)

    def batches(split: str, gen: torch.Generator) -> Any:
        chosen = [pairs[i] for i in torch.randint(len(pairs), (BATCH,), generator=gen)]
        return pretraining_batch(chosen, rate=rate, generator=gen, **corpus.ids_kw)

    train(model, batches, _recipe(steps, warmup, lr), loss_fn=pretraining_loss)
    return model.eval()


@torch.no_grad()
def _masked_accuracy(
    model: BertForPreTraining, corpus: Corpus, pairs: list[Pair], rate: float = 0.15, hidden: float = 0.0
) -> dict[str, float]:
    """Masked-token accuracy and loss of ``model`` on ``pairs`` masked at ``rate`` (80/10/10, the same
    draw for every model). ``hidden``: the share of all real tokens to hide as ``[MASK]`` in all,
    by hiding more of the positions that are not asked about, so that the same positions are
    predicted from less context."""
    right = n = 0
    loss = 0.0
    special = torch.tensor(corpus.special_ids)
    for b, start in enumerate(range(0, len(pairs), 64)):
        gen = generator(1000 + b)
        (idx, segments, attention), (labels, _) = pretraining_batch(
            pairs[start : start + 64], rate=rate, generator=gen, **corpus.ids_kw
        )
        chosen = labels != IGNORE_INDEX
        if hidden > rate:
            others = ~chosen & ~torch.isin(idx, special)  # real tokens that are not asked about
            more = others & (torch.rand(idx.shape, generator=gen) < (hidden - rate) / (1 - rate))
            idx = idx.masked_fill(more, corpus.tokenizer.mask_id)
        logits = model(idx, segments, attention, masked=chosen).mlm_logits
        right += int((logits.argmax(-1) == labels[chosen]).sum())
        loss += F.cross_entropy(logits, labels[chosen], reduction="sum").item()
        n += int(chosen.sum())
    return {"accuracy": right / n, "loss": loss / n}


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """Mask rate.

    Expected numbers (two seeds, ``COURSE_SEED_OFFSET`` 0 and 1): masking 40% gives 2.7 times the
    loss positions per step (about 590 against 220), and after the same 250 steps that model names
    more masked tokens, even when both are tested at 15%: 12.6% and 13.4% against 10.7% and 11.6%
    for the model trained at 15% (the masked-token loss is lower by about 0.12 to 0.17 nats).
    Asking about the same 15% of positions while hiding more of the others (40%, then 80% of all
    tokens) costs each model less than a point of accuracy (at most 0.8 points at 80%).

    Explanation: a higher rate has two effects. It gives more predictions, so more gradient signal
    per step, which is what a briefly trained model is short of; and it leaves less context for each
    prediction, which only hurts a model that reads its context. After 250 steps these models use
    little context (section 4.5: their guesses are mostly the commonest tokens), so hiding 80% of
    the input barely moves them, and the first effect wins. A model that has learned to read its
    context loses more from the second, which is why the best rate depends on the model and the
    budget: Wettig et al. found 40% better than 15% for models of BERT-large's size, with very high
    rates finally hurting. Cost: about 85 s of CPU.
    """
    corpus = _corpus(quick)
    train_pairs = nsp_pairs(corpus.train_docs, T, random.Random(shifted(0)))
    val_pairs = nsp_pairs(corpus.val_docs, T, random.Random(shifted(1)))[: 256 if quick else 2048]
    config = _config(corpus, quick, n_layers=2)
    steps = 20 if quick else 250
    results: dict[str, Any] = {}
    for train_rate in (0.15, 0.4):
        start = time.process_time()
        model = _pretrain(corpus, config, train_pairs, steps, max(2, steps // 10), lr=2e-3, rate=train_rate, nsp=False)
        # the same 15% of positions asked about, with more and more of the others hidden
        for hidden in (0.15, 0.4, 0.8):
            results[f"trained at {train_rate:.0%}, {hidden:.0%} hidden"] = _masked_accuracy(
                model, corpus, val_pairs, 0.15, hidden
            )
        results[f"trained at {train_rate:.0%}: loss positions per step"] = round(
            train_rate * BATCH * sum(len(p.a) + len(p.b) for p in train_pairs) / len(train_pairs)
        )
        results[f"trained at {train_rate:.0%}: CPU seconds"] = time.process_time() - start
    for key, value in results.items():
        print(f"{key:<36} {value}")
    assert all(0.0 <= r["accuracy"] <= 1.0 for r in results.values() if isinstance(r, dict))
    if not quick:
        at_15, at_40 = results["trained at 15%, 15% hidden"], results["trained at 40%, 15% hidden"]
        assert at_40["accuracy"] > 1.05 * at_15["accuracy"], "more loss positions per step: the 40% model learns faster"
        for rate in ("15%", "40%"):
            less_context = results[f"trained at {rate}, 80% hidden"]
            assert results[f"trained at {rate}, 15% hidden"]["accuracy"] - less_context["accuracy"] < 0.02, (
                "these models use little context yet"
            )
    return results


# ------------------------------------------------------------------------------------ exercise 2


def whole_word_mask(
    idx: torch.Tensor,
    is_continuation: torch.Tensor,
    *,
    mask_id: int,
    special_ids: list[int],
    vocab_size: int,
    rate: float = 0.15,
    replace: tuple[float, float, float] = (0.8, 0.1, 0.1),
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Whole-word masking of ``idx (B, T)``: ``(inputs, labels)`` as :func:`course_lib.bert.mask_tokens`
    returns them, but a word (a piece and the ``##`` pieces after it; ``is_continuation (V,)`` marks
    the ``##`` ids) is chosen with probability ``rate``, and then every piece of it is. Each chosen
    piece is then replaced as ``mask_tokens`` does: ``[MASK]``, a random ordinary token, or left, with
    the probabilities ``replace``."""
    special = torch.tensor(sorted(set(special_ids)))
    real = ~torch.isin(idx, special)
    continuation = is_continuation[idx] & real
    word = (~continuation).long().cumsum(dim=1)  # (B, T): the number of the word each piece belongs to
    # a draw at each word's first piece
    start_drawn = (torch.rand(idx.shape, generator=generator) < rate) & ~continuation & real
    word_drawn = torch.zeros(idx.shape[0], idx.shape[1] + 1).scatter_reduce(1, word, start_drawn.float(), "amax")
    chosen = word_drawn.gather(1, word).bool() & real  # every piece of a drawn word
    labels = idx.masked_fill(~chosen, IGNORE_INDEX)
    action = torch.rand(idx.shape, generator=generator)
    every_id = torch.arange(vocab_size)
    ordinary = every_id[~torch.isin(every_id, special)]
    random_ids = ordinary[torch.randint(len(ordinary), idx.shape, generator=generator)]
    inputs = torch.where(chosen & (action < replace[0]), torch.full_like(idx, mask_id), idx)
    inputs = torch.where(chosen & (action >= replace[0]) & (action < replace[0] + replace[1]), random_ids, inputs)
    return inputs, labels


def _continuation_ids(tokenizer: WordPieceTokenizer) -> torch.Tensor:
    """``(V,)`` booleans: which ids are ``##`` pieces that continue a word."""
    return torch.tensor([t.startswith("##") for t in tokenizer.tokens])


def _words(documents: list[list[list[int]]], continuation: torch.Tensor) -> list[tuple[int, ...]]:
    """Every word of the speeches as the tuple of its piece ids (a piece and the ``##`` pieces after it)."""
    words: list[list[int]] = []
    for speech in (s for doc in documents for s in doc):
        for i in speech:
            if continuation[i] and words:
                words[-1].append(i)
            else:
                words.append([i])
    return [tuple(w) for w in words]


def _guess_hidden_piece(train_words: list[tuple[int, ...]], test_words: list[tuple[int, ...]]) -> dict[str, float]:
    """How often a count table of the training words names a hidden ``##`` piece of a held-out word
    (a) from the pieces beside it in its word (the piece alone hidden), and (b) from its place in a
    word of that many pieces (the whole word hidden: the number of [MASK] still shows the length)."""
    beside: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    place: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for w in train_words:
        for j in range(1, len(w)):
            beside[(w[j - 1], w[j + 1] if j + 1 < len(w) else -1)][w[j]] += 1
            place[(j, len(w))][w[j]] += 1
    right_beside = right_place = n = 0
    for w in test_words:
        for j in range(1, len(w)):
            n += 1
            by_beside = beside.get((w[j - 1], w[j + 1] if j + 1 < len(w) else -1))
            by_place = place.get((j, len(w)))
            right_beside += by_beside is not None and by_beside.most_common(1)[0][0] == w[j]
            right_place += by_place is not None and by_place.most_common(1)[0][0] == w[j]
    return {
        "hidden pieces": n,
        "named from the pieces beside it": right_beside / n,
        "named from its place in the word": right_place / n,
    }


def exercise_2(quick: bool = False) -> dict[str, Any]:
    """Whole words.

    The rule (``whole_word_mask`` above): draw each *word*, a piece and the ``##`` pieces after it,
    with probability 15%, choose every piece of a drawn word, and replace each chosen piece as
    ``mask_tokens`` does (80% ``[MASK]``, 10% a random token, 10% left). Each piece is then chosen
    exactly when its word is, so still 15% of the tokens are chosen. On the held-out plays cut into
    rows of 64 tokens: 15.0% chosen, no word chosen in part, and ``##`` pieces are about as common
    among the chosen tokens (14.5%) as among all tokens (14.9%). The rule changes which tokens are
    hidden together, not how many or which kinds.

    Why ``una [MASK] ##ble`` is easier: the pieces beside a hidden piece nearly spell the word, so
    the model can finish a spelling without reading the sentence; with the whole word hidden it
    sees only how many pieces are missing, and has to find the word from its context, which is
    what pretraining is meant to teach. The counts show it: a table of the training plays' words
    names a hidden ``##`` piece of a held-out word from the two pieces beside it (the piece before
    and the piece after, or the word's end) about 45% of the time (19,081 hidden pieces), and from
    its place in a word of that many pieces, all that is left when the whole word is hidden, about
    7% of the time. Cost: about 7 s of CPU.
    """
    corpus = _corpus(quick)
    tokenizer = corpus.tokenizer
    continuation = _continuation_ids(tokenizer)
    # the rule's statistics, on the held-out speeches cut into rows of T tokens
    flat = [i for doc in corpus.val_docs for s in doc for i in s]
    rows = torch.tensor(flat[: len(flat) // T * T]).view(-1, T)
    inputs, labels = whole_word_mask(
        rows,
        continuation,
        mask_id=tokenizer.mask_id,
        special_ids=corpus.special_ids,
        vocab_size=tokenizer.vocab_size,
        generator=generator(0),
    )
    chosen = labels != IGNORE_INDEX
    word = (~continuation[rows]).long().cumsum(dim=1)  # (B, T): which word of its row each piece is in
    pieces = torch.zeros(rows.shape[0], T + 1).scatter_add(1, word, torch.ones(rows.shape))
    most = torch.zeros(rows.shape[0], T + 1).scatter_reduce(1, word, chosen.float(), "amax")
    least = torch.ones(rows.shape[0], T + 1).scatter_reduce(1, word, chosen.float(), "amin")
    results: dict[str, Any] = {
        "tokens": rows.numel(),
        "chosen share": chosen.float().mean().item(),
        "## pieces among all tokens": continuation[rows].float().mean().item(),
        "## pieces among the chosen": continuation[rows][chosen].float().mean().item(),
        "words chosen in part": int(((most != least) & (pieces > 0)).sum()),
    }
    results |= _guess_hidden_piece(_words(corpus.train_docs, continuation), _words(corpus.val_docs, continuation))
    for key, value in results.items():
        print(f"{key:<40} {value:.3f}" if isinstance(value, float) else f"{key:<40} {value}")
    assert abs(results["chosen share"] - 0.15) < (0.03 if quick else 0.01), (
        "a word is chosen with probability 15%, so is each piece"
    )
    assert results["words chosen in part"] == 0, "a word's pieces are chosen together"
    assert results["named from the pieces beside it"] > 3 * results["named from its place in the word"], (
        "a word's other pieces nearly spell the hidden one"
    )
    if not quick:
        assert abs(results["## pieces among the chosen"] - results["## pieces among all tokens"]) < 0.02
    return results


# ------------------------------------------------------------------------------------ exercise 3


def sop_pairs(documents: list[list[list[int]]], max_length: int, rng: random.Random) -> list[Pair]:
    """ALBERT's sentence-order pairs, in the shape of :func:`course_lib.bert.nsp_pairs`: for each
    sentence that has a next one in its document, A is the sentence and B the next one
    (:data:`IS_NEXT`), or, half the time (``rng``), the two swapped (:data:`NOT_NEXT`). Each pair is
    cut to fit ``[CLS] A [SEP] B [SEP]`` in ``max_length`` tokens, the longer segment first."""
    pairs = []
    for document in documents:
        for first, second in zip(document, document[1:]):
            a, b, label = list(first), list(second), IS_NEXT
            if rng.random() < 0.5:
                a, b, label = b, a, NOT_NEXT
            n_a, n_b = truncated_lengths(len(a), len(b), max_length - 3, "longest_first")
            pairs.append(Pair(a[:n_a], b[: n_b or 0], label))
    return pairs


def _balanced(pairs: list[Pair], n: int, seed: int) -> list[Pair]:
    """``n`` pairs drawn from ``pairs``, half of each label, shuffled: a constant answer scores 50%."""
    rng = random.Random(seed)
    chosen = rng.sample([p for p in pairs if p.is_next == IS_NEXT], n // 2) + rng.sample(
        [p for p in pairs if p.is_next == NOT_NEXT], n // 2
    )
    rng.shuffle(chosen)
    return chosen


@torch.no_grad()
def _sentence_task(model: BertForPreTraining, corpus: Corpus, pairs: list[Pair]) -> dict[str, float]:
    """Accuracy of the NSP head on ``pairs`` (their labels), and the standard deviation over the
    pairs of its probability of :data:`IS_NEXT` (near 0: the same answer for every pair)."""
    right = 0
    p_next = []
    for b, start in enumerate(range(0, len(pairs), 128)):
        (idx, segments, attention), (labels, is_next) = pretraining_batch(
            pairs[start : start + 128], generator=generator(2000 + b), **corpus.ids_kw
        )
        logits = model(idx, segments, attention, masked=labels != IGNORE_INDEX).nsp_logits
        assert logits is not None
        right += (logits.argmax(-1) == is_next).sum().item()
        p_next.append(logits.softmax(-1)[:, IS_NEXT])
    return {"accuracy": right / len(pairs), "spread": torch.cat(p_next).std().item()}


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Sentence order.

    The rule (``sop_pairs`` above): every two consecutive speeches of a play make a pair, in order
    (label 0, as IsNext) or, half the time, swapped (label 1); the NSP head and loss are reused
    unchanged. Both models are the BERT of section 4.5 trained for its 500 steps, with MLM and one
    sentence task, and are tested on 512 held-out pairs of each task, half of each label.

    Expected numbers: neither task is learned. Both heads give every held-out pair nearly the
    same probability (a standard deviation below 0.01 over the pairs), so each scores 50% on both
    tasks; the masked-token accuracy is the same with either task (about 13.9%). ALBERT's argument
    predicts NSP to be learned first: a B from another document can be told apart by its topic
    alone, while SOP keeps both segments from the same place, so only their order and coherence
    are left to learn. At BERT's scale that is what Lan et al. report: a model trained with NSP
    scores 52.0% on SOP (chance), one trained with SOP scores 86.5% on SOP and still 78.9% on NSP.
    Here even NSP has little topic to use (every document is a play by the same author, section
    4.5), and 500 steps of this model go into the masked tokens, where it beats the unigram guess
    by learning which tokens are common and a little of where they go; a run long enough for the
    model to read its context is needed before either sentence task starts. Cost: about 200 s of CPU.
    """
    corpus = _corpus(quick)
    tasks = {"NSP": nsp_pairs, "SOP": sop_pairs}
    n_held = 64 if quick else 512
    held_out = {
        name: _balanced(make(corpus.val_docs, T, random.Random(shifted(1))), n_held, shifted(2))
        for name, make in tasks.items()
    }
    config = _config(corpus, quick, n_layers=4)
    steps = 20 if quick else 500
    results: dict[str, Any] = {}
    for trained_on, make in tasks.items():
        start = time.process_time()
        model = _pretrain(
            corpus, config, make(corpus.train_docs, T, random.Random(shifted(0))), steps, max(2, steps // 8), lr=1e-3
        )
        for task, pairs in held_out.items():
            results[f"trained on {trained_on}, tested on {task}"] = _sentence_task(model, corpus, pairs)
        results[f"trained on {trained_on}: MLM"] = _masked_accuracy(model, corpus, held_out["NSP"], 0.15)
        results[f"trained on {trained_on}: CPU seconds"] = time.process_time() - start
    for key, value in results.items():
        print(f"{key:<36} {value}")
    assert all(0.0 <= r["accuracy"] <= 1.0 for k, r in results.items() if "tested" in k)
    if not quick:
        for key, r in results.items():
            if "tested" in key:
                assert abs(r["accuracy"] - 0.5) < 0.05 and r["spread"] < 0.02, (
                    f"{key}: the head should still give every pair the same answer"
                )
        assert abs(results["trained on NSP: MLM"]["accuracy"] - results["trained on SOP: MLM"]["accuracy"]) < 0.02, (
            "the sentence task leaves MLM as it is"
        )
    return results


# ------------------------------------------------------------------------------------ exercise 4


SPEAKER = re.compile(r"^[^\n]*:\n")  # a speech starts with its speaker's name and a colon on a line of its own


def _speeches(plays: dict[str, str], title: str, n: int) -> list[str]:
    """The first ``n`` speeches of a play with at least 20 words after the speaker's name."""
    return [s for s in plays[title].split("\n\n") if len(SPEAKER.sub("", s).split()) >= 20][:n]


@torch.no_grad()
def _embed(model: Bert, tokenizer: WordPieceTokenizer, texts: list[str], max_length: int) -> torch.Tensor:
    """Mean-pooled, unit-length embeddings ``(len(texts), d_model)``, 50 texts at a time."""
    out = []
    for start in range(0, len(texts), 50):
        batch = tokenizer.encode_batch(texts[start : start + 50], max_length=max_length)
        idx, segments, attention = (
            torch.tensor(x) for x in (batch.input_ids, batch.token_type_ids, batch.attention_mask)
        )
        out.append(F.normalize(mean_pool(model(idx, segments, attention), attention), dim=-1))
    return torch.cat(out)


def _same_play_share(embeddings: torch.Tensor, play: torch.Tensor) -> float:
    """How often a speech's nearest other speech (cosine) is from its own play."""
    similarity = embeddings @ embeddings.T
    similarity.fill_diagonal_(-2.0)
    return (play[similarity.argmax(-1)] == play).float().mean().item()


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """Nearest neighbours.

    The solution takes the first 100 speeches of at least 20 words from each of two held-out plays
    of different kinds, *A Midsummer Night's Dream* (a comedy) and *Henry IV, Part 2* (a history),
    embeds each with mean pooling, and finds each speech's most similar other speech (cosine).

    Expected numbers: with MiniLM about 98% of the 200 speeches have their nearest neighbour in
    the same play, and still about 91% once the speaker's name (the first line, ``NAME:``) is cut
    off; with the small BERT of section 4.5, about 60% and 58%, close to the 50% of a neighbour
    drawn at random (99 of the other 199 speeches are from the same play).

    Why: MiniLM was trained to place related texts close together, and two such plays differ in
    what they are about and in their words (fairies, lovers and the wood against rebels, the
    tavern and the court), so a speech's neighbours come from its own play. The names help a
    little (a character's speeches resemble each other), but most of the effect survives without
    them. The small BERT was never trained to compare texts, and after a few minutes on the plays
    its mean-pooled states are nearly all alike (section 4.6: unrelated sentences at a cosine of
    about 0.93), dominated by the frequent tokens every speech shares, so its nearest neighbour
    is little better than a coin toss. Cost: about 12 s of CPU.
    """
    plays = shakespeare_plays()
    # a comedy and a history, both held out from the small BERT
    titles = ["a-midsummer-night-s-dream", "henry-iv-part-2"]
    n = 10 if quick else 100
    speeches = [s for t in titles for s in _speeches(plays, t, n)]
    play = torch.tensor([i for i, t in enumerate(titles) for _ in range(n)])
    without_names = [SPEAKER.sub("", s) for s in speeches]
    if quick:  # a tiny random BERT stands in for both models: the code path, not the answer
        tokenizer = WordPieceTokenizer.bert_base_uncased()
        set_seed(0)
        minilm = small = Bert(
            BertConfig(vocab_size=tokenizer.vocab_size, block_size=128, n_layers=1, n_heads=2, d_model=32)
        ).eval()
        small_tokenizer = tokenizer
    else:
        tokenizer = WordPieceTokenizer.bert_base_uncased()
        minilm = Bert.from_pretrained(minilm_directory()).eval()
        pretrained, small_tokenizer = _saved_small_bert()
        small = pretrained.bert
    results: dict[str, Any] = {"plays": titles, "speeches_per_play": n}
    for name, model, tok, length in (("MiniLM", minilm, tokenizer, 128), ("small BERT", small, small_tokenizer, T)):
        for variant, texts in (("with names", speeches), ("without names", without_names)):
            results[f"{name}, {variant}"] = _same_play_share(_embed(model, tok, texts, length), play)
    for key, value in results.items():
        if isinstance(value, float):
            print(f"{key:<28} nearest neighbour from the same play: {value:.0%}")
    assert all(0.0 <= v <= 1.0 for v in results.values() if isinstance(v, float))
    if not quick:
        for variant in ("with names", "without names"):
            assert results[f"MiniLM, {variant}"] > 0.8, "MiniLM's nearest neighbours come from the same play"
            assert results[f"MiniLM, {variant}"] > results[f"small BERT, {variant}"] + 0.2, (
                "far more often than the small BERT's"
            )
    return results


EXERCISES = {1: exercise_1, 2: exercise_2, 3: exercise_3, 4: exercise_4}

if __name__ == "__main__":
    main(EXERCISES)
