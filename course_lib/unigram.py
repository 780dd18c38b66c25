"""The Unigram language-model tokenizer (Kudo 2018), the default model of SentencePiece (Kudo and
Richardson 2018), which T5 and ALBERT use: cutting a text into the pieces of a vocabulary in which
each piece has a probability.

A cut of a text into pieces ``x_1 .. x_M`` has the probability ``p(x_1) * ... * p(x_M)`` (a unigram
model of pieces: each piece drawn independently of the others), so its log-probability is the sum
of the pieces' log-probabilities.

* :meth:`UnigramTokenizer.cut` finds the most probable cut by Viterbi's dynamic programme: the best
  cut of the first ``j`` characters is the best, over every piece ``text[i:j]`` of the vocabulary, of
  the best cut of the first ``i`` characters followed by that piece. A text of ``n`` characters costs
  ``n`` times the length of the longest piece, where trying every cut would cost ``2 ** (n - 1)``.
* :meth:`UnigramTokenizer.sample` draws a cut at random, with probability proportional to
  ``P(cut) ** alpha`` (subword regularization, Kudo 2018), by summing over all cuts left to right
  and drawing the pieces right to left.
* :func:`escape` and :func:`unescape` write spaces as SentencePiece does: every space becomes the
  visible symbol ``▁`` (U+2581), and a ``▁`` is put in front of the text, so that a word at the start
  of a text is spelt like the same word after a space. :meth:`UnigramTokenizer.encode` and
  :meth:`UnigramTokenizer.decode` go through them: ``decode(encode(text)) == text`` whenever every
  character of ``text`` has a piece.

Unknown characters are handled as in Hugging Face's ``tokenizers`` (``models.Unigram``) and
SentencePiece: where no one-character piece starts, the lattice gets an unknown piece of one
character, scored the lowest log-probability of the vocabulary minus :data:`UNK_PENALTY`, and a run
of unknown characters in the best cut becomes a single unknown token. Without an unknown piece
(``unk_id=None``) a text that no sequence of pieces spells is an error. The unknown piece itself is
never matched against text. Ties between equally probable cuts go the way Hugging Face's do (the
first piece found, scanning start positions left to right and, at each, pieces shortest first), so
that :meth:`UnigramTokenizer.cut` gives Hugging Face's pieces for the same vocabulary.

Training a vocabulary is not here: the book trains one with Hugging Face's ``UnigramTrainer`` and
loads it with :meth:`UnigramTokenizer.from_json`. Like :mod:`course_lib.tokenization`, this module
does not need torch.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["SPACE", "UNK_PENALTY", "Cut", "UnigramTokenizer", "escape", "unescape"]

SPACE = "\u2581"
"""``▁``: SentencePiece's visible space (LOWER ONE EIGHTH BLOCK)."""
UNK_PENALTY = 10.0
"""How far below the lowest piece log-probability an unknown character scores (as in SentencePiece
and Hugging Face's ``tokenizers``)."""


def escape(text: str) -> str:
    """SentencePiece's spelling of ``text``: ``▁`` in front, and every space written ``▁``
    (``"to be"`` -> ``"▁to▁be"``); the empty text stays empty. Hugging Face's ``Metaspace``
    pre-tokenizer does the same, except that it adds no ``▁`` in front of a text that already starts
    with a space (so it cannot give that space back); SentencePiece and this function always do."""
    return SPACE + text.replace(" ", SPACE) if text else ""


def unescape(pieces_text: str) -> str:
    """The inverse of :func:`escape`: ``▁`` back to spaces, and the one in front removed."""
    text = pieces_text.replace(SPACE, " ")
    return text[1:] if text.startswith(" ") else text


@dataclass(frozen=True)
class Cut:
    """A cut of a text: ``pieces`` join to the text; ``ids`` are their ids (a run of unknown
    characters is one piece with the unknown id); ``log_prob`` is the cut's natural-log probability,
    the sum of its pieces' log-probabilities (each unknown character adding the unknown score)."""

    pieces: tuple[str, ...]
    ids: tuple[int, ...]
    log_prob: float


class UnigramTokenizer:
    """A Unigram vocabulary: ``vocab[i] = (piece, log_prob)`` is the piece of id ``i`` and its natural
    log-probability; ``unk_id``, if given, is the id of the unknown piece (whose own text and
    log-probability are never used to cut text)."""

    def __init__(self, vocab: Sequence[tuple[str, float]], unk_id: int | None = None) -> None:
        if not vocab:
            raise ValueError("a Unigram vocabulary needs at least one piece")
        pieces = [piece for piece, _ in vocab]
        log_probs = [float(score) for _, score in vocab]
        if not all(isinstance(piece, str) and piece for piece in pieces):
            raise ValueError("every piece must be a non-empty str")
        if len(set(pieces)) != len(pieces):
            raise ValueError("the pieces must be distinct")
        if not all(math.isfinite(score) for score in log_probs):
            raise ValueError("every log-probability must be finite")
        if unk_id is not None and not 0 <= unk_id < len(pieces):
            raise ValueError(f"unk_id {unk_id} is not an id of this vocabulary of {len(pieces)} pieces")
        self.pieces: list[str] = pieces
        self.log_probs: list[float] = log_probs
        self.unk_id = unk_id
        self.unk_score = min(log_probs) - UNK_PENALTY
        self._ids = {piece: i for i, piece in enumerate(pieces) if i != unk_id}
        self._prefixes = {piece[:k] for piece in self._ids for k in range(1, len(piece) + 1)}

    @property
    def vocab_size(self) -> int:
        """The number of pieces, the unknown one included: ids are ``0 .. vocab_size - 1``."""
        return len(self.pieces)

    @classmethod
    def from_json(cls, text: str) -> UnigramTokenizer:
        """The vocabulary of a Hugging Face ``tokenizers`` Unigram model, from the JSON that
        ``Tokenizer.to_str()`` writes (or from its ``"model"`` part alone)."""
        data = json.loads(text)
        model = data.get("model", data)
        if model.get("type") != "Unigram":
            raise ValueError(f"not a Unigram model: its type is {model.get('type')!r}")
        if model.get("byte_fallback"):
            raise ValueError("byte fallback (unknown characters as byte pieces) is not supported")
        return cls([(piece, score) for piece, score in model["vocab"]], model.get("unk_id"))

    # ------------------------------------------------------------------------------- the lattice

    def _arcs(self, text: str, start: int) -> Iterator[tuple[int, int, float]]:
        """``(end, id, log_prob)`` for every piece ``text[start:end]`` of the vocabulary, shortest
        first, then the unknown piece over ``text[start]`` if no one-character piece is there."""
        single = False
        for end in range(start + 1, len(text) + 1):
            piece = text[start:end]
            if piece not in self._prefixes:
                break
            i = self._ids.get(piece)
            if i is not None:
                single = single or end == start + 1
                yield end, i, self.log_probs[i]
        if not single and self.unk_id is not None:
            yield start + 1, self.unk_id, self.unk_score

    def _no_cut(self, text: str, reached: Iterable[int]) -> ValueError:
        stuck = max(reached)
        return ValueError(
            f"no sequence of pieces spells {text[:40]!r}{'...' if len(text) > 40 else ''}: no piece "
            f"continues it at character {stuck} ({text[stuck]!r}), and the vocabulary has no unknown piece"
        )

    def _cut_of(self, text: str, path: list[tuple[int, int]], log_prob: float) -> Cut:
        """The :class:`Cut` of ``path``, a list of ``(start, id)`` in text order; runs of unknown
        pieces are joined into one."""
        pieces: list[str] = []
        ids: list[int] = []
        for k, (start, i) in enumerate(path):
            end = path[k + 1][0] if k + 1 < len(path) else len(text)
            if i == self.unk_id and ids and ids[-1] == self.unk_id:
                pieces[-1] += text[start:end]
            else:
                pieces.append(text[start:end])
                ids.append(i)
        return Cut(tuple(pieces), tuple(ids), log_prob)

    # ------------------------------------------------------------------------ cutting, sampling

    def cut(self, text: str) -> Cut:
        """The most probable cut of ``text`` (taken as it is: no escaping), by Viterbi.

        Raises ValueError when no sequence of pieces spells ``text`` (possible only without an
        unknown piece). The empty text has the empty cut, of log-probability 0."""
        n = len(text)
        best = [-math.inf] * (n + 1)  # best[j]: log-probability of the best cut of text[:j]
        back = [(0, 0)] * (n + 1)  # back[j]: (start, id) of the last piece of that cut
        best[0] = 0.0
        for start in range(n):
            if best[start] == -math.inf:
                continue
            for end, i, log_prob in self._arcs(text, start):
                if best[start] + log_prob > best[end]:
                    best[end] = best[start] + log_prob
                    back[end] = (start, i)
        if best[n] == -math.inf:
            raise self._no_cut(text, (j for j in range(n) if best[j] > -math.inf))
        path: list[tuple[int, int]] = []
        j = n
        while j > 0:
            path.append(back[j])
            j = back[j][0]
        return self._cut_of(text, path[::-1], best[n])

    def sample(self, text: str, alpha: float, rng: random.Random) -> Cut:
        """A cut of ``text`` drawn with probability ``P(cut) ** alpha / Z``, ``Z`` summing over all
        cuts: ``alpha = 1`` follows the model, a smaller ``alpha`` flattens the distribution (``0``:
        every cut equally likely), a larger one sharpens it towards :meth:`cut`'s.

        Forward pass: ``log_z[j]`` sums ``P(cut) ** alpha`` over the cuts of ``text[:j]``; then,
        from the end, each piece is drawn among those ending at the current position with
        probability proportional to ``exp(log_z[start] + alpha * log_prob)``."""
        if not (math.isfinite(alpha) and alpha >= 0):
            raise ValueError(f"alpha must be a finite number >= 0, got {alpha}")
        n = len(text)
        log_z = [-math.inf] * (n + 1)
        log_z[0] = 0.0
        # into[j]: (start, id, log_prob) of pieces ending at j
        into: list[list[tuple[int, int, float]]] = [[] for _ in range(n + 1)]
        for start in range(n):
            if log_z[start] == -math.inf:
                continue
            for end, i, log_prob in self._arcs(text, start):
                into[end].append((start, i, log_prob))
                log_z[end] = _log_add(log_z[end], log_z[start] + alpha * log_prob)
        if log_z[n] == -math.inf:
            raise self._no_cut(text, (j for j in range(n) if log_z[j] > -math.inf))
        path: list[tuple[int, int]] = []
        total = 0.0
        j = n
        while j > 0:
            arcs = [(start, i, log_prob) for start, i, log_prob in into[j] if log_z[start] > -math.inf]
            weights = [math.exp(log_z[start] + alpha * log_prob - log_z[j]) for start, _, log_prob in arcs]
            start, i, log_prob = rng.choices(arcs, weights)[0]
            path.append((start, i))
            total += log_prob
            j = start
        return self._cut_of(text, path[::-1], total)

    # --------------------------------------------------------------------------- encode, decode

    def encode(self, text: str) -> list[int]:
        """The ids of the best cut of ``escape(text)``."""
        return list(self.cut(escape(text)).ids)

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids``: their pieces joined, then :func:`unescape`. An unknown id gives the
        unknown piece's text (``<unk>``): the characters it stood for are lost."""
        pieces = []
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"id {i} is not in this vocabulary of {self.vocab_size} pieces")
            pieces.append(self.pieces[i])
        return unescape("".join(pieces))


def _log_add(a: float, b: float) -> float:
    """``log(exp(a) + exp(b))`` without overflow; ``-inf`` stands for probability 0."""
    if a < b:
        a, b = b, a
    return a if b == -math.inf else a + math.log1p(math.exp(b - a))
