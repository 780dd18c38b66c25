"""Generation for every model family: decoder-only (GPT, Llama) and encoder-decoder (T5, BART).

One search core serves both kinds. A *decoder* (:class:`_Decoder`) turns the sequences decoded so
far into the next token's logits, with or without KV caches; the searches (:func:`_sample` for
greedy and sampled decoding, :func:`_beam_search`) only ever call it, and the rules that reshape
each step's scores (:class:`_Rules`: minimum length, no repeated n-grams, forced first and last
tokens) are shared by all of them. Arguments are named as in Hugging Face's ``generate``, and the
tests check that the tokens are the same as theirs.

Shapes: ``B`` sources or prompts, ``T`` prompt tokens, ``S`` source tokens, ``V`` vocabulary,
``k = num_beams``, ``n`` new tokens, ``r = num_return_sequences``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple, Protocol, runtime_checkable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import KVCache, check_padding_mask
from .blocks import DecoderCaches
from .seq2seq import EncoderDecoderLM

__all__ = [
    "Beams",
    "DecoderOnlyLM",
    "GenerationConfig",
    "beam_search",
    "generate",
    "next_token",
    "top_k_filter",
    "top_p_filter",
]

# the score that rules a candidate out of the beam arithmetic (as Hugging Face's; finite, so sums stay ordered)
_NEG = -1.0e9


class _Context(Protocol):
    @property
    def block_size(self) -> int: ...

    @property
    def vocab_size(self) -> int: ...


@runtime_checkable
class DecoderOnlyLM(Protocol):
    """What decoder-only generation needs; :class:`course_lib.gpt.GPT` and
    :class:`course_lib.llama.Llama` provide it."""

    @property
    def config(self) -> _Context:
        """The model's configuration: ``block_size`` (its context) and ``vocab_size``."""
        ...

    def __call__(
        self, input_ids: Tensor, /, *, caches: list[KVCache] | None = None, attention_mask: Tensor | None = None
    ) -> Tensor:
        """``forward``: ``input_ids (B, T)`` -> logits ``(B, T, V)``; with ``caches`` the ids
        continue the positions held there; ``attention_mask (B, P + T)``: 1 = token, 0 = padding
        (generate passes one only when it is given one)."""
        ...

    def new_caches(self) -> list[KVCache]:
        """One empty cache per block."""
        ...


# ----------------------------------------------------------------------------------- sampling


def top_k_filter(logits: Tensor, k: int) -> Tensor:
    """Keep the ``k`` largest logits of each row of ``(..., V)`` (and any tied with the k-th), the
    rest set to -inf."""
    if not 1 <= k:
        raise ValueError(f"top_k must be at least 1, got {k}")
    kth = torch.topk(logits, min(k, logits.shape[-1]), dim=-1).values[..., -1:]  # (..., 1)
    return logits.masked_fill(logits < kth, float("-inf"))


def top_p_filter(logits: Tensor, p: float) -> Tensor:
    """Nucleus filtering (Holtzman et al. 2020): keep the smallest set of most likely tokens whose
    probabilities sum to at least ``p``, the rest set to -inf; ``p = 1`` keeps every token, however the
    cumulative sum rounds. Rows ``(..., V)``."""
    if not 0.0 < p <= 1.0:
        raise ValueError(f"top_p must be in (0, 1], got {p}")
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = sorted_logits.softmax(dim=-1)
    before = F.pad(probs.cumsum(dim=-1)[..., :-1], (1, 0))  # probability of the tokens ranked above each one
    drop_sorted = (before >= p) & (p < 1.0)  # already reached p without this token; p = 1 keeps every token
    drop = drop_sorted.scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))


def next_token(
    logits: Tensor,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: torch.Generator | None = None,
) -> Tensor:
    """One token id per row of ``logits (B, V)``, as ``(B, 1)``. ``temperature == 0`` is greedy."""
    if not temperature >= 0:  # also refuses NaN
        raise ValueError(f"temperature must be >= 0, got {temperature}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int)):
        raise ValueError(f"top_k must be an integer, got {top_k!r}")
    if temperature == 0:
        return logits.argmax(dim=-1, keepdim=True)
    logits = logits / temperature  # before the softmax: it sharpens or flattens the distribution
    if top_k is not None:
        logits = top_k_filter(logits, top_k)
    if top_p is not None:
        logits = top_p_filter(logits, top_p)
    return torch.multinomial(logits.softmax(dim=-1), 1, generator=generator)


# ----------------------------------------------------------------------------------- decoders


class _Decoder:
    """The next-token logits of sequences ``(N, t)`` that grow by one token per call; with caches only
    the tokens not yet seen are fed. Subclasses say how the model is called."""

    def __init__(self, caches: list[KVCache] | DecoderCaches | None) -> None:
        self.caches = caches
        self.seen = 0  # tokens of the sequences the caches hold

    def _self_caches(self) -> list[KVCache]:
        assert self.caches is not None
        return [c[0] if isinstance(c, tuple) else c for c in self.caches]

    def reorder(self, rows: Tensor) -> None:
        """Beam search kept rows ``rows (N,)`` of the previous step: their cached keys and values follow."""
        if self.caches is not None:
            for cache in self._self_caches():
                assert cache.k is not None and cache.v is not None
                cache.k, cache.v = cache.k[rows], cache.v[rows]

    def logits(self, tokens: Tensor) -> Tensor:
        """``tokens (N, t)`` -> the next token's logits ``(N, V)`` in float32 (as Hugging Face scores them)."""
        raise NotImplementedError


class _DecoderOnly(_Decoder):
    """A decoder-only model's next-token logits; ``prompt_mask (N, T)`` marks a padded batch's prompt
    tokens (1) and padding (0), and every token generated after it counts as a token."""

    caches: list[KVCache] | None

    def __init__(self, model: DecoderOnlyLM, use_cache: bool, prompt_mask: Tensor | None) -> None:
        super().__init__(model.new_caches() if use_cache else None)
        self.model, self.block, self.prompt_mask = model, model.config.block_size, prompt_mask

    def _call(self, feed: Tensor, tokens: Tensor, caches: list[KVCache] | None) -> Tensor:
        """The last position's logits for ``feed``, the last ids of ``tokens (N, t)``, after what ``caches`` hold."""
        if self.prompt_mask is None:
            return self.model(feed, caches=caches)[:, -1].float()
        grown = F.pad(self.prompt_mask, (0, tokens.shape[1] - self.prompt_mask.shape[1]), value=1)  # (N, t)
        held = feed.shape[1] + (caches[0].length if caches else 0)
        return self.model(feed, caches=caches, attention_mask=grown[:, -held:])[:, -1].float()

    def logits(self, tokens: Tensor) -> Tensor:
        if self.caches is None:
            return self._call(tokens[:, -self.block :], tokens, None)
        feed = tokens[:, self.seen :]
        if self._self_caches()[0].length + feed.shape[1] > self.block:  # sliding: the window moved, start it afresh
            self.caches, feed = self.model.new_caches(), tokens[:, -self.block :]
        self.seen = tokens.shape[1]
        return self._call(feed, tokens, self.caches)


class _EncoderDecoder(_Decoder):
    caches: DecoderCaches | None

    def __init__(self, model: EncoderDecoderLM, memory: Tensor, attention_mask: Tensor | None, use_cache: bool) -> None:
        super().__init__(model.new_caches() if use_cache else None)
        self.model, self.memory, self.mask = model, memory, attention_mask

    def logits(self, tokens: Tensor) -> Tensor:
        feed = tokens[:, self.seen :] if self.caches is not None else tokens
        self.seen = tokens.shape[1] if self.caches is not None else 0
        return self.model.decode(feed, self.memory, self.mask, self.caches)[:, -1].float()


# ----------------------------------------------------------------------------------- the rules


class _Rules(NamedTuple):
    """What reshapes each step's scores before a token is chosen, in Hugging Face's order."""

    prompt_length: int  # tokens before the first new one (the prompt, or the decoder's start token)
    max_new_tokens: int
    min_new_tokens: int  # EOS is banned until this many new tokens (min_new_tokens and min_length combined)
    no_repeat_ngram_size: int
    forced_bos_token_id: int | None
    forced_eos_token_id: int | None
    eos_token_id: int | None

    def apply(self, tokens: Tensor, scores: Tensor) -> Tensor:
        """``scores (N, V)`` of the next token after ``tokens (N, t)``, with the banned tokens at -inf."""
        t, neg = tokens.shape[1], float("-inf")
        if self.no_repeat_ngram_size:
            scores = scores.masked_fill(_repeated_ngrams(tokens, self.no_repeat_ngram_size, scores.shape[-1]), neg)
        if self.eos_token_id is not None and t - self.prompt_length < self.min_new_tokens:
            scores = scores.clone()
            scores[:, self.eos_token_id] = neg
        for forced, now in (
            (self.forced_bos_token_id, t == 1),
            (self.forced_eos_token_id, t == self.prompt_length + self.max_new_tokens - 1),
        ):
            if forced is not None and now:
                scores = torch.full_like(scores, neg)
                scores[:, forced] = 0.0
        return scores


def _repeated_ngrams(tokens: Tensor, n: int, V: int) -> Tensor:
    """``(N, V)``: True for each token that would repeat an n-gram already in its row of ``tokens (N, t)``."""
    banned = torch.zeros(tokens.shape[0], V, dtype=torch.bool, device=tokens.device)
    t = tokens.shape[1]
    if t < n:  # no n-gram yet
        return banned
    grams = tokens.unfold(1, n, 1)  # (N, t - n + 1, n): every n-gram of each row
    tail = tokens[:, t - n + 1 :]  # (N, n - 1): the last n - 1 tokens, which the next token would extend
    match = (grams[:, :, :-1] == tail[:, None, :]).all(-1)  # (N, t - n + 1)
    rows, at = match.nonzero(as_tuple=True)
    banned[rows, grams[rows, at, -1]] = True
    return banned


# ----------------------------------------------------------------------------------- searches


def _sample(
    decoder: _Decoder,
    tokens: Tensor,
    rules: _Rules,
    temperature: float,
    top_k: int | None,
    top_p: float | None,
    generator: torch.Generator | None,
    pad_token_id: int,
) -> Tensor:
    """Greedy (``temperature == 0``) or sampled decoding of ``tokens (N, t)``; returns the new tokens
    ``(N, <= max_new_tokens)``, a row padded with ``pad_token_id`` after its EOS; stops once every row has one."""
    start = tokens.shape[1]
    done = torch.zeros(tokens.shape[0], dtype=torch.bool, device=tokens.device)
    for _ in range(rules.max_new_tokens):
        scores = rules.apply(tokens, decoder.logits(tokens))  # (N, V)
        # (N, 1)
        token = next_token(scores, temperature, top_k, top_p, generator).masked_fill(done[:, None], pad_token_id)
        tokens = torch.cat([tokens, token], dim=1)
        if rules.eos_token_id is not None:
            done |= token[:, 0] == rules.eos_token_id
            if done.all():
                break
    return tokens[:, start:]


class Beams(NamedTuple):
    """The result of :func:`beam_search`: per source, the ``k`` best finished hypotheses, best first."""

    tokens: Tensor  # (B, k, n): the new tokens only, EOS included, padded with the pad id
    lengths: Tensor  # (B, k): each hypothesis's number of new tokens
    scores: Tensor  # (B, k): sum of log-probabilities / length ** length_penalty


def _beam_search(
    decoder: _Decoder,
    start: Tensor,
    rules: _Rules,
    k: int,
    length_penalty: float,
    early_stopping: bool,
    pad_token_id: int,
) -> Beams:
    """Beam search from ``start (B, t)`` (each row the common beginning of its ``k`` beams)."""
    B, t0 = start.shape
    n, device = rules.max_new_tokens, start.device
    running = start.repeat_interleave(k, dim=0).view(B, k, t0)  # (B, k, t)
    running_scores = torch.zeros(B, k, device=device)
    running_scores[:, 1:] = _NEG  # one live beam at first: the others would only repeat it
    finished = start.new_full((B, k, n), pad_token_id)
    finished_scores = torch.full((B, k), _NEG, device=device)
    finished_lengths = torch.zeros((B, k), dtype=torch.long, device=device)
    is_finished = torch.zeros((B, k), dtype=torch.bool, device=device)
    improvable = torch.ones(B, dtype=torch.bool, device=device)  # can a running beam still beat the finished ones?
    rank_may_finish = torch.arange(2 * k, device=device) < k  # (2k,): only the first k candidates may finish
    for step in range(1, n + 1):
        flat = running.flatten(0, 1)  # (B k, t)
        log_probs = rules.apply(flat, decoder.logits(flat).log_softmax(-1))  # (B k, V)
        V = log_probs.shape[-1]
        totals = (log_probs.view(B, k, V) + running_scores[..., None]).flatten(1)  # (B, k V): sums of log-probabilities
        top_scores, top = totals.topk(2 * k, dim=-1)  # (B, 2k): twice k, so that k unfinished ones remain
        parent, token = top // V, top % V
        candidates = torch.cat(
            [running.gather(1, parent[..., None].expand(-1, -1, running.shape[-1])), token[..., None]], dim=-1
        )  # (B, 2k, t + 1)
        ends = (step == n) | (
            token == rules.eos_token_id if rules.eos_token_id is not None else torch.zeros_like(token, dtype=torch.bool)
        )
        # the best k candidates that do not end continue
        running_scores, keep = (top_scores + ends.float() * _NEG).topk(k, dim=-1)  # (B, k)
        running = candidates.gather(1, keep[..., None].expand(-1, -1, candidates.shape[-1]))
        decoder.reorder((parent.gather(1, keep) + torch.arange(B, device=device)[:, None] * k).flatten())
        # candidates that end join the finished ones if they rank among the first k and the source still takes them
        joins = ends & rank_may_finish
        normalised = top_scores / step**length_penalty
        normalised = normalised + (is_finished.all(-1, keepdim=True) & early_stopping).float() * _NEG
        normalised = normalised + (~improvable[:, None]).float() * _NEG
        normalised = normalised + (~joins).float() * _NEG
        finished_scores, best = torch.cat([finished_scores, normalised], dim=1).topk(k, dim=-1)  # (B, k)
        padded = F.pad(candidates[..., t0:], (0, n - step), value=pad_token_id)  # (B, 2k, n)
        finished = torch.cat([finished, padded], dim=1).gather(1, best[..., None].expand(-1, -1, n))
        finished_lengths = torch.cat([finished_lengths, torch.full_like(top, step)], dim=1).gather(1, best)
        is_finished = torch.cat([is_finished, joins], dim=1).gather(1, best)
        # Hugging Face's heuristic: the best running beam, scored at its current length, against the worst finished one
        worst = torch.where(is_finished, finished_scores.min(dim=-1, keepdim=True).values, _NEG)  # (B, k)
        improvable &= (running_scores[:, :1] / step**length_penalty > worst).any(dim=-1)
        if not improvable.any() or (bool(is_finished.all()) and early_stopping) or bool(ends.all()):
            break
    width = int(finished_lengths.max().clamp(min=1))  # the longest hypothesis
    return Beams(finished[..., :width], finished_lengths, finished_scores)


# ----------------------------------------------------------------------------------- entry points


@contextmanager
def _evaluating(model: object) -> Iterator[None]:
    """No dropout while decoding; the model's mode is restored afterwards."""
    if not isinstance(model, nn.Module):
        raise ValueError(f"model must be a torch.nn.Module, got a {type(model).__name__}")
    was_training = model.training
    model.eval()
    try:
        yield
    finally:
        model.train(was_training)


def _check(name: str, value: object, low: int, high: float = float("inf")) -> None:
    """Refuses ``value`` unless it is an integer in ``low .. high``, naming the argument."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")


@dataclass(frozen=True)
class GenerationConfig:
    """How :func:`generate` and :func:`beam_search` decode; each field is named and means what it does
    in Hugging Face's ``GenerationConfig``. Either function takes one (``config=``) and any field as a
    keyword (``generate(model, ids, max_new_tokens=50, do_sample=True)``), which overrides the config's.

    Greedy by default; ``do_sample`` draws each token (``temperature``, then the ``top_k`` and ``top_p``
    filters); ``num_beams > 1`` is beam search (``length_penalty``, ``early_stopping``). The rules: EOS
    is held back until ``min_new_tokens`` new tokens (and ``min_length`` in all, counting the prompt or
    the decoder's start token); no token may repeat an n-gram of ``no_repeat_ngram_size``; the first
    token of an encoder-decoder's answer (or after a one-token prompt) is ``forced_bos_token_id`` and
    the last one allowed ``forced_eos_token_id``. ``num_return_sequences`` answers per input (at most
    ``num_beams`` with beam search, any number when sampling). ``eos_token_id`` and ``pad_token_id``
    default to the encoder-decoder's; a decoder-only model has no EOS unless given one. ``use_cache=False``
    recomputes the whole prefix at each step and gives the same tokens; ``sliding`` (decoder-only) lets
    the sequence outgrow the context, each token predicted from the last ``block_size`` tokens.
    """

    max_new_tokens: int = 20
    do_sample: bool = False
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None
    num_beams: int = 1
    length_penalty: float = 1.0
    early_stopping: bool = False
    min_new_tokens: int = 0
    min_length: int = 0
    no_repeat_ngram_size: int = 0
    forced_bos_token_id: int | None = None
    forced_eos_token_id: int | None = None
    num_return_sequences: int = 1
    eos_token_id: int | None = None
    pad_token_id: int | None = None
    use_cache: bool = True
    sliding: bool = False

    def __post_init__(self) -> None:
        _check("max_new_tokens", self.max_new_tokens, 1)
        _check("min_new_tokens", self.min_new_tokens, 0)
        _check("min_length", self.min_length, 0)
        _check("no_repeat_ngram_size", self.no_repeat_ngram_size, 0)
        _check("num_beams", self.num_beams, 1)
        most = self.num_beams if self.num_beams > 1 else (float("inf") if self.do_sample else 1)
        _check("num_return_sequences", self.num_return_sequences, 1, most)
        if not isinstance(self.early_stopping, bool):
            raise ValueError(f"early_stopping must be True or False, got {self.early_stopping!r}")
        if self.do_sample:
            if not self.temperature > 0:
                raise ValueError(
                    "temperature must be > 0 when sampling, got "
                    f"{self.temperature} (greedy decoding is do_sample=False)"
                )
            if self.num_beams > 1:
                raise ValueError("do_sample: beam search here is deterministic (num_beams > 1 with do_sample=False)")
        elif (self.temperature, self.top_k, self.top_p) != (1.0, None, None):
            raise ValueError(
                "temperature, top_k and top_p shape sampling: pass "
                "do_sample=True (greedy decoding and beam search ignore them)"
            )

    def with_settings(self, settings: dict[str, Any]) -> GenerationConfig:
        """This config with ``settings`` (field names) replaced; an unknown name is refused, naming it."""
        unknown = sorted(set(settings) - {f.name for f in fields(self)})
        if unknown:
            raise TypeError(
                f"unknown generation setting(s) {', '.join(unknown)}: the settings are GenerationConfig's fields"
            )
        return replace(self, **settings)


def _prepare(
    model: DecoderOnlyLM | EncoderDecoderLM,
    input_ids: Tensor,
    attention_mask: Tensor | None,
    config: GenerationConfig,
    copies: int,
) -> tuple[_Decoder, Tensor, _Rules, int]:
    """Checks a request; returns the decoder, the starting sequences ``(B copies, t)``, the rules and the pad id."""
    if input_ids.ndim != 2 or input_ids.shape[1] == 0:
        raise ValueError(
            "input_ids must have shape (B, T) with T >= 1, got "
            f"{tuple(input_ids.shape)} (one sequence of ids: ids[None])"
        )
    eos: int | None
    pad: int | None
    if isinstance(model, EncoderDecoderLM):
        if config.sliding:
            raise ValueError(
                "sliding is for decoder-only models (an encoder-decoder's decoder has no context limit here)"
            )
        eos = model.eos_id if config.eos_token_id is None else config.eos_token_id
        pad = model.pad_id if config.pad_token_id is None else config.pad_token_id
        V = model.vocab_size
        memory = model.encode(input_ids, attention_mask).repeat_interleave(copies, dim=0)  # (B copies, S, d_model)
        mask = attention_mask.repeat_interleave(copies, dim=0) if attention_mask is not None else None
        decoder: _Decoder = _EncoderDecoder(model, memory, mask, config.use_cache)
        start = input_ids.new_full((input_ids.shape[0] * copies, 1), model.decoder_start_id)
    elif isinstance(model, DecoderOnlyLM) and isinstance(model, nn.Module):
        if attention_mask is not None and attention_mask.shape != input_ids.shape:
            raise ValueError(
                f"attention_mask must have input_ids' shape {tuple(input_ids.shape)}, got {tuple(attention_mask.shape)}"
            )
        if attention_mask is not None:
            check_padding_mask(attention_mask)
        block = model.config.block_size
        if input_ids.shape[1] + config.max_new_tokens > block and not config.sliding:
            raise ValueError(
                f"{input_ids.shape[1]} prompt tokens + {config.max_new_tokens} new ones exceed the context "
                f"of {block} (block_size); pass sliding=True to condition on the last {block} tokens only"
            )
        eos = config.eos_token_id
        pad = config.pad_token_id if config.pad_token_id is not None else eos
        V = model.config.vocab_size
        prompt_mask = None if attention_mask is None else attention_mask.repeat_interleave(copies, dim=0)
        decoder, start = _DecoderOnly(model, config.use_cache, prompt_mask), input_ids.repeat_interleave(copies, dim=0)
    else:
        raise ValueError(
            f"model: a {type(model).__name__} is neither a decoder-only model (forward, "
            "new_caches, config.block_size) nor an encoder-decoder (encode, decode, new_caches)"
        )
    tokens = (
        ("forced_bos_token_id", config.forced_bos_token_id),
        ("forced_eos_token_id", config.forced_eos_token_id),
        ("eos_token_id", eos),
        ("pad_token_id", pad),
    )
    for name, token in tokens:
        if token is not None:
            _check(name, token, 0, V - 1)
    if (config.min_new_tokens or config.min_length) and eos is None:
        raise ValueError("min_new_tokens and min_length need an eos_token_id (the token they hold back)")
    min_new = max(config.min_new_tokens, config.min_length - start.shape[1])
    rules = _Rules(
        start.shape[1],
        config.max_new_tokens,
        min_new,
        config.no_repeat_ngram_size,
        config.forced_bos_token_id,
        config.forced_eos_token_id,
        eos,
    )
    return decoder, start, rules, pad if pad is not None else 0


@torch.no_grad()
def generate(
    model: DecoderOnlyLM | EncoderDecoderLM,
    input_ids: Tensor,
    *,
    attention_mask: Tensor | None = None,
    generator: torch.Generator | None = None,
    config: GenerationConfig | None = None,
    **settings: Any,
) -> Tensor:
    """Continue each prompt (decoder-only) or answer each source (encoder-decoder) in ``input_ids (B, T)``,
    as ``config`` and ``settings`` (:class:`GenerationConfig`'s fields) say; sampling draws from ``generator``.

    Returns ``(B r, ...)``, the ``r = num_return_sequences`` answers of each input in a row: for a
    decoder-only model the prompt and at most ``max_new_tokens`` new tokens; for an encoder-decoder
    the new tokens only (Hugging Face's ``generate`` puts the start token first). A sequence is
    padded with ``pad_token_id`` after its EOS. ``num_beams > 1`` is :func:`beam_search`'s best answers.

    ``attention_mask (B, T)`` (1 = token, 0 = padding): an encoder-decoder's padded sources; a decoder-only
    model's prompts of different lengths, left-padded so that every prompt ends in the last column (the
    new tokens follow it): no token attends to padding, and positions count each row's real tokens.
    """
    config = (config or GenerationConfig()).with_settings(settings)
    r = config.num_return_sequences
    if config.num_beams > 1:
        beams = beam_search(model, input_ids, attention_mask=attention_mask, config=config)
        width = int(beams.lengths[:, :r].max())
        new = beams.tokens[:, :r, :width].flatten(0, 1)  # (B r, width)
        return (
            new
            if isinstance(model, EncoderDecoderLM)
            else torch.cat([input_ids.repeat_interleave(r, dim=0), new], dim=1)
        )
    with _evaluating(model):
        decoder, start, rules, pad = _prepare(model, input_ids, attention_mask, config, copies=r)
        temperature = config.temperature if config.do_sample else 0.0
        new = _sample(decoder, start, rules, temperature, config.top_k, config.top_p, generator, pad)
    return new if isinstance(model, EncoderDecoderLM) else torch.cat([start, new], dim=1)


@torch.no_grad()
def beam_search(
    model: DecoderOnlyLM | EncoderDecoderLM,
    input_ids: Tensor,
    *,
    attention_mask: Tensor | None = None,
    config: GenerationConfig | None = None,
    **settings: Any,
) -> Beams:
    """Beam search, with every hypothesis and its score (:func:`generate` with ``num_beams`` returns the
    best ones' tokens); ``config`` and ``settings`` as :func:`generate`'s, ``num_beams`` 4 unless set.

    Keep the ``k = num_beams`` best partial answers, scored by their sums of log-probabilities; extend
    each by every token and rank the ``k x V`` candidates. A candidate that ends with EOS (or reaches
    ``max_new_tokens``) is finished if it ranks among the first ``k``: it leaves the beam, is scored
    ``sum / length ** length_penalty`` (length: its new tokens, EOS included; ``length_penalty > 0``
    favours longer answers) and is never extended. The best ``2 k`` are ranked, so that ``k``
    unfinished ones remain to fill the beam. With ``early_stopping`` a source is done once ``k``
    hypotheses have finished; without, once its best running beam, scored at its current length,
    cannot beat the worst finished one. These are the rules of Hugging Face's ``generate(num_beams=...)``.
    """
    config = (config or GenerationConfig(num_beams=4)).with_settings(settings)
    k = config.num_beams
    with _evaluating(model):
        decoder, start, rules, pad = _prepare(model, input_ids, attention_mask, config, copies=k)
        return _beam_search(decoder, start[::k], rules, k, config.length_penalty, config.early_stopping, pad)
