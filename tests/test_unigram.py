"""course_lib.unigram: the Viterbi cut against every cut enumerated by brute force, against Hugging
Face's ``tokenizers`` Unigram model (random vocabularies and one trained on the plays), unknown
characters, SentencePiece's spaces, sampling against the exact distribution, and errors."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from course_lib.data import shakespeare
from course_lib.unigram import SPACE, UNK_PENALTY, Cut, UnigramTokenizer, escape, unescape


def all_cuts(text: str, pieces: set[str]) -> list[tuple[str, ...]]:
    """Every way to cut ``text`` into pieces of ``pieces``: the 2 ** (len - 1) ways to place
    boundaries, kept where every part is a piece."""
    cuts = []
    for bounds in itertools.product([False, True], repeat=max(len(text) - 1, 0)):
        parts, start = [], 0
        for k, cut_here in enumerate(bounds, start=1):
            if cut_here:
                parts.append(text[start:k])
                start = k
        parts.append(text[start:])
        if all(p in pieces for p in parts):
            cuts.append(tuple(parts))
    return cuts


def random_vocab(rng: random.Random, alphabet: str, n_pieces: int, singles: bool = True) -> list[tuple[str, float]]:
    """Distinct random pieces over ``alphabet`` (every single character when ``singles``) with
    random log-probabilities, which makes ties between cuts improbable."""
    pieces = set(alphabet) if singles else set()
    while len(pieces) < n_pieces:
        pieces.add("".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4))))
    return [(p, -rng.uniform(0.5, 8.0)) for p in sorted(pieces)]


@pytest.mark.parametrize("seed", range(6))
def test_the_viterbi_cut_is_the_most_probable_of_all_cuts(seed: int) -> None:
    rng = random.Random(seed)
    vocab = random_vocab(rng, "abc", 14)
    tokenizer = UnigramTokenizer(vocab)
    log_p = dict(vocab)
    for _ in range(25):
        text = "".join(rng.choice("abc") for _ in range(rng.randint(1, 9)))
        score = {c: sum(log_p[p] for p in c) for c in all_cuts(text, set(log_p))}
        best = max(score.values())
        cut = tokenizer.cut(text)
        assert cut.log_prob == pytest.approx(best)
        assert score[cut.pieces] == pytest.approx(best), "a most probable cut (the same pieces in another order tie)"
        assert [tokenizer.pieces[i] for i in cut.ids] == list(cut.pieces)


@pytest.mark.parametrize("seed", range(4))
def test_without_single_characters_the_best_existing_cut_is_found_or_an_error_raised(seed: int) -> None:
    rng = random.Random(100 + seed)
    vocab = random_vocab(rng, "ab", 8, singles=False)
    tokenizer = UnigramTokenizer(vocab)
    log_p = dict(vocab)
    for _ in range(30):
        text = "".join(rng.choice("ab") for _ in range(rng.randint(1, 8)))
        score = {c: sum(log_p[p] for p in c) for c in all_cuts(text, set(log_p))}
        if score:
            assert score[tokenizer.cut(text).pieces] == pytest.approx(max(score.values()))
        else:
            with pytest.raises(ValueError, match="no sequence of pieces spells"):
                tokenizer.cut(text)


def test_empty_text_has_the_empty_cut() -> None:
    tokenizer = UnigramTokenizer([("<unk>", 0.0), ("a", -1.0)], unk_id=0)
    assert tokenizer.cut("") == Cut((), (), 0.0)
    assert tokenizer.encode("") == [] and tokenizer.decode([]) == ""
    assert tokenizer.sample("", 0.5, random.Random(0)) == Cut((), (), 0.0)


def test_a_character_no_piece_has() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -2.0), ("ab", -1.5)]
    with_unk = UnigramTokenizer(vocab, unk_id=0)
    cut = with_unk.cut("abxyab")
    assert cut.pieces == ("ab", "xy", "ab") and cut.ids == (3, 0, 3), "a run of unknown characters is one token"
    assert cut.log_prob == pytest.approx(2 * -1.5 + 2 * (-2.0 - UNK_PENALTY)), (
        "each unknown character scores the lowest log-probability minus the penalty"
    )
    assert with_unk.cut("<unk>").ids == (0,) * 1 and with_unk.cut("<unk>").pieces == ("<unk>",), (
        "the unknown piece's text is never matched: its characters are unknown"
    )
    without = UnigramTokenizer(vocab[1:])
    with pytest.raises(ValueError, match=r"at character 2 \('x'\)"):
        without.cut("abxab")
    with pytest.raises(ValueError, match="no sequence of pieces spells"):
        without.sample("abx", 1.0, random.Random(0))


def test_ties_go_to_the_piece_found_first_as_in_hugging_face() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0), ("aba", -3.0), ("ba", -2.0)]
    ours = UnigramTokenizer(vocab, unk_id=0)
    theirs = models.Unigram(vocab, 0, False)
    for text in ["ab", "aba", "abab", "babab", "aab"]:
        assert list(ours.cut(text).pieces) == [t.value for t in theirs.tokenize(text)], text


@pytest.mark.parametrize("seed", range(5))
def test_random_vocabularies_cut_as_hugging_face_cuts(seed: int) -> None:
    rng = random.Random(200 + seed)
    alphabet = "abcd" + SPACE
    vocab = [("<unk>", 0.0)] + random_vocab(rng, alphabet, 40)
    ours = UnigramTokenizer(vocab, unk_id=0)
    theirs = models.Unigram(vocab, 0, False)
    for _ in range(200):
        text = "".join(rng.choice(alphabet + "xé🎉") for _ in range(rng.randint(1, 30)))
        expected = [(t.value, t.id) for t in theirs.tokenize(text)]
        cut = ours.cut(text)
        assert list(zip(cut.pieces, cut.ids)) == expected, text


@pytest.fixture(scope="module")
def trained() -> tuple[Tokenizer, UnigramTokenizer, str]:
    """A 600-piece Unigram tokenizer trained by Hugging Face on 300,000 characters of the plays, as
    the chapter trains its own, loaded into course_lib; and the next 50,000 characters, held out."""
    text = shakespeare()
    train, held_out = text[:300_000], text[300_000:350_000]
    hf = Tokenizer(models.Unigram())
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="always", split=True),
            pre_tokenizers.Split("\n", behavior="isolated"),
        ]
    )
    hf.train_from_iterator(
        [train],
        trainers.UnigramTrainer(vocab_size=600, unk_token="<unk>", special_tokens=["<unk>"], show_progress=False),
    )
    return hf, UnigramTokenizer.from_json(hf.to_str()), held_out


def test_a_trained_vocabulary_cuts_held_out_text_as_hugging_face_does(
    trained: tuple[Tokenizer, UnigramTokenizer, str],
) -> None:
    hf, ours, held_out = trained
    assert ours.vocab_size == hf.get_vocab_size() == 600
    assert held_out[0] not in " \n"
    ids = ours.encode(held_out)
    assert ids == hf.encode(held_out).ids
    assert ours.decode(ids) == held_out
    lines = [line for line in held_out.splitlines() if line.strip() and not line.startswith(" ")][:200]
    for line in lines + ["Zounds! Ωmega 🎉 QQQ", "x", "JULIET:\nO Romeo"]:
        assert ours.encode(line) == hf.encode(line).ids, line


def test_a_trained_vocabulary_has_probabilities(trained: tuple[Tokenizer, UnigramTokenizer, str]) -> None:
    _, ours, _ = trained
    total = sum(math.exp(lp) for i, lp in enumerate(ours.log_probs) if i != ours.unk_id)
    assert 0.9 < total < 1.1, "the pieces' probabilities should add up to about 1"
    assert all(SPACE not in p[1:] for p in ours.pieces), "▁ only ever begins a piece"


@pytest.mark.parametrize(
    "text", ["to be, or not to be", " leading space", "trailing ", "two  spaces", "lines\nand\n\nbreaks\n", "x"]
)
def test_escape_and_decode_give_the_text_back(text: str, trained: tuple[Tokenizer, UnigramTokenizer, str]) -> None:
    _, ours, _ = trained
    assert escape(text) == SPACE + text.replace(" ", SPACE)
    assert unescape(escape(text)) == text
    assert ours.decode(ours.encode(text)) == text


def test_escape_of_the_empty_text() -> None:
    assert escape("") == "" and unescape("") == ""
    assert escape("a b") == "▁a▁b" and unescape("▁a▁b") == "a b"


@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0])
def test_samples_follow_the_probability_of_each_cut_to_the_power_alpha(alpha: float) -> None:
    vocab = [("a", -1.0), ("b", -1.6), ("ab", -1.2), ("ba", -2.5), ("aba", -2.0), ("bab", -3.5)]
    tokenizer = UnigramTokenizer(vocab)
    log_p = dict(vocab)
    text = "ababa"
    cuts = all_cuts(text, set(log_p))
    weights = {c: math.exp(alpha * sum(log_p[p] for p in c)) for c in cuts}
    z = sum(weights.values())
    rng = random.Random(0)
    n = 6000
    seen = Counter(tokenizer.sample(text, alpha, rng).pieces for _ in range(n))
    assert set(seen) <= set(cuts)
    for c in cuts:
        p = weights[c] / z
        assert abs(seen[c] / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-3, (c, seen[c] / n, p)
    one = tokenizer.sample(text, alpha, random.Random(1))
    assert one.log_prob == pytest.approx(sum(log_p[p] for p in one.pieces)), (
        "a sample's log_prob is the model's, not alpha times it"
    )


def test_a_sharp_alpha_samples_the_best_cut_and_unknowns_are_joined() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -0.5)]
    tokenizer = UnigramTokenizer(vocab, unk_id=0)
    rng = random.Random(0)
    assert all(tokenizer.sample("abab", 60.0, rng).pieces == ("ab", "ab") for _ in range(50))
    assert tokenizer.sample("abzzab", 60.0, rng).pieces == ("ab", "zz", "ab")


def test_from_json_reads_hugging_face_files_and_refuses_others() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -2.0)]
    hf = Tokenizer(models.Unigram(vocab, 0, False))
    ours = UnigramTokenizer.from_json(hf.to_str())
    assert ours.pieces == ["<unk>", "a", "b"] and ours.log_probs == [0.0, -1.0, -2.0] and ours.unk_id == 0
    assert UnigramTokenizer.from_json(json.dumps(json.loads(hf.to_str())["model"])).pieces == ours.pieces
    with pytest.raises(ValueError, match="not a Unigram model"):
        UnigramTokenizer.from_json(Tokenizer(models.BPE()).to_str())
    with pytest.raises(ValueError, match="byte fallback"):
        UnigramTokenizer.from_json(Tokenizer(models.Unigram(vocab, 0, True)).to_str())


@pytest.mark.parametrize(
    ("vocab", "unk_id", "message"),
    [
        ([], None, "at least one piece"),
        ([("a", -1.0), ("a", -2.0)], None, "distinct"),
        ([("", -1.0)], None, "non-empty"),
        ([("a", math.nan)], None, "finite"),
        ([("a", -1.0)], 1, "unk_id 1"),
    ],
)
def test_bad_vocabularies_are_refused(vocab: list[tuple[str, float]], unk_id: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        UnigramTokenizer(vocab, unk_id)


def test_bad_arguments_are_refused() -> None:
    tokenizer = UnigramTokenizer([("a", -1.0)])
    with pytest.raises(ValueError, match="alpha"):
        tokenizer.sample("a", -0.1, random.Random(0))
    with pytest.raises(ValueError, match="id 5"):
        tokenizer.decode([5])
