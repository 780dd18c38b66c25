"""GPT: a decoder-only language model built from :mod:`course_lib.blocks`.

The GPT-2 arrangement (Radford et al. 2019): token and learned position embeddings, ``n_layers``
pre-LN decoder blocks without cross-attention, a final LayerNorm, and an LM head that shares its
weight with the token embedding. GPT-1 (Radford et al. 2018) is the same stack with post-LN blocks
and no final norm. Shapes: ``B`` batch, ``T`` tokens, ``V`` vocabulary size, ``d_model`` width,
``L = n_layers`` blocks, ``h = n_heads`` heads.

Hugging Face's ``GPT2LMHeadModel`` stores the same parameters under other names, with the query,
key and value projections fused into one ``c_attn`` and every linear map as a ``Conv1D`` (weight
``(in, out)``, the transpose of ``nn.Linear``'s): :func:`from_hf_state_dict` and
:func:`to_hf_state_dict` convert, so published GPT-2 checkpoints load (``GPT.from_hf``). One
difference shows in training only: with ``dropout > 0`` the feed-forward also drops inside, after its
activation (as ``nn.TransformerEncoderLayer`` does), where GPT-2 drops at the branch's output only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import KVCache
from .blocks import Activation, Arrangement, DecoderBlock, LayerNorm, LearnedPositions, fuse_norms, init_normal
from .convert import check_names, check_shapes

__all__ = ["GPT", "GPTClassifier", "GPTConfig", "PRESETS", "PUBLISHED_PARAMETERS", "check_gpt2_compatible", "from_hf_state_dict", "generate", "lm_loss", "next_token", "pair_input", "to_hf_state_dict", "top_k_filter", "top_p_filter"]


@dataclass(frozen=True)
class GPTConfig:
    """The shape of a :class:`GPT` (default: GPT-2 small) and its arrangement of each block."""

    vocab_size: int = 50257
    block_size: int = 1024  # the context: the most positions the model can see
    n_layers: int = 12
    n_heads: int = 12
    d_model: int = 768
    d_ff: int = 0  # 0 means 4 * d_model
    dropout: float = 0.0
    arrangement: Arrangement = "pre_ln"
    activation: Activation = "gelu_tanh"

    @property
    def ff_width(self) -> int:
        """The feed-forward's hidden width: ``d_ff``, or ``4 * d_model`` where ``d_ff`` is 0."""
        return self.d_ff or 4 * self.d_model

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layers", "n_heads", "d_model"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        if self.d_ff < 0 or not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"d_ff must be >= 0 and dropout in [0, 1), got {self.d_ff} and {self.dropout}")


# The published models. GPT-1's vocabulary is its 40,478 BPE tokens (Radford et al. 2018).
PRESETS: dict[str, GPTConfig] = {
    "gpt1": GPTConfig(vocab_size=40478, block_size=512, arrangement="post_ln"),
    "gpt2": GPTConfig(),
    "gpt2-medium": GPTConfig(n_layers=24, n_heads=16, d_model=1024),
    "gpt2-large": GPTConfig(n_layers=36, n_heads=20, d_model=1280),
    "gpt2-xl": GPTConfig(n_layers=48, n_heads=25, d_model=1600),
}
# The sizes the papers state. GPT-2's were counted differently from the released checkpoints
# (whose true counts, with tied embeddings, are 124M, 355M, 774M and 1558M): see chapter 3.
PUBLISHED_PARAMETERS = {"gpt1": 117e6, "gpt2": 117e6, "gpt2-medium": 345e6, "gpt2-large": 762e6, "gpt2-xl": 1542e6}


class GPT(nn.Module):
    """``forward(idx (B, T)) -> logits (B, T, V)``; see the module docstring."""

    def __init__(self, config: GPTConfig) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.wpe = LearnedPositions(config.block_size, config.d_model)
        self.drop = nn.Dropout(config.dropout)
        self.blocks: list[DecoderBlock] = nn.ModuleList(  # type: ignore[assignment]
            DecoderBlock(config.d_model, config.n_heads, config.ff_width, config.arrangement, config.activation, config.dropout, cross_attention=False)
            for _ in range(config.n_layers)
        )
        self.ln_f = LayerNorm(config.d_model) if config.arrangement != "post_ln" else None
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # tied: one matrix embeds tokens and scores them
        fuse_norms(self)  # chapter 2 wrote LayerNorm out; here it runs as one kernel
        self.apply(init_normal)  # GPT-2's initialisation
        # GPT-2: each residual branch's last projection scaled by 1/sqrt(2 n_layers), so that the
        # residual stream's variance does not grow with depth (two branches per block). GPT-1
        # (post-LN, whose norms rescale the stream after every branch) did not scale.
        if config.arrangement != "post_ln":
            for block in self.blocks:
                for projection in (block.self_attn.out_proj, block.ff.linear2):
                    nn.init.normal_(projection.weight, std=0.02 / math.sqrt(2 * config.n_layers))

    def num_parameters(self) -> int:
        """Parameters counted once each (the tied LM head is the token embedding)."""
        return sum(p.numel() for p in self.parameters())

    def training_flops_per_token(self, context: int | None = None) -> float:
        """Floating-point operations to train on one token with ``context`` tokens of context (default
        ``block_size``): ``6 N`` for the weights' products (forward 2, backward 4 per weight; ``N``
        without the position table, which is looked up, not multiplied) plus ``12 L d_model T`` for the
        attention's scores and weighted sums, as Chowdhery et al. (2022, appendix B) count; the
        model FLOPs utilisation (MFU) is ``tokens/s * this / the device's peak``."""
        T = context or self.config.block_size
        n = self.num_parameters() - self.wpe.embedding.weight.numel()
        return 6 * n + 12 * self.config.n_layers * self.config.d_model * T

    def forward(self, idx: Tensor, caches: list[KVCache] | None = None) -> Tensor:
        """Logits ``(B, T, V)`` for token ids ``idx (B, T)``.

        With ``caches`` (one :class:`KVCache` per block, as :meth:`new_caches` makes), ``idx`` are the
        positions after those the caches hold, and their keys and values are added to them.
        """
        return self.lm_head(self.hidden_states(idx, caches))  # (B, T, V)

    def hidden_states(self, idx: Tensor, caches: list[KVCache] | None = None) -> Tensor:
        """The last block's output (after the final norm) ``(B, T, d_model)``: what the LM head
        scores, and what a classification head reads."""
        if idx.ndim != 2:
            raise ValueError(f"idx must have shape (B, T), got {tuple(idx.shape)}")
        if idx.numel() and not torch.compiler.is_compiling() and not 0 <= int(idx.min()) <= int(idx.max()) < self.config.vocab_size:
            raise ValueError(f"token ids must be in 0 .. {self.config.vocab_size - 1} (vocab_size), got ids from {int(idx.min())} to {int(idx.max())}")
        past = caches[0].length if caches else 0
        if past + idx.shape[1] > self.config.block_size:
            raise ValueError(f"{past + idx.shape[1]} positions do not fit in the context of {self.config.block_size} (block_size)")
        if caches is not None and len(caches) != len(self.blocks):
            raise ValueError(f"expected one cache per block ({len(self.blocks)}), got {len(caches)}")
        x = self.drop(self.wpe(self.wte(idx), offset=past))  # (B, T, d_model)
        for i, block in enumerate(self.blocks):
            x = block(x, cache=caches[i] if caches is not None else None)
        return self.ln_f(x) if self.ln_f is not None else x

    def new_caches(self) -> list[KVCache]:
        """One empty :class:`KVCache` per block, for :meth:`forward` while generating."""
        return [KVCache() for _ in self.blocks]

    def add_tokens(self, n: int) -> list[int]:
        """Grow the vocabulary by ``n`` tokens (GPT-1's [START], [DELIM], [EXTRACT]); return their ids.

        The old embeddings are kept; the new rows are initialised as the others were, and the LM
        head stays tied to the embedding.
        """
        old = self.wte.weight
        grown = nn.Embedding(old.shape[0] + n, old.shape[1], device=old.device, dtype=old.dtype)
        nn.init.normal_(grown.weight, std=0.02)
        with torch.no_grad():
            grown.weight[: old.shape[0]] = old
        self.wte = grown
        self.lm_head = nn.Linear(old.shape[1], grown.num_embeddings, bias=False, device=old.device, dtype=old.dtype)
        self.lm_head.weight = self.wte.weight
        self.config = replace(self.config, vocab_size=grown.num_embeddings)
        return list(range(old.shape[0], grown.num_embeddings))

    @classmethod
    def from_hf(cls, state_dict: Mapping[str, Tensor], config: GPTConfig) -> GPT:
        """A model with the weights of a Hugging Face ``GPT2LMHeadModel`` state dict."""
        check_gpt2_compatible(config)
        model = cls(config)
        ours = from_hf_state_dict(state_dict, config.n_layers)
        check_shapes(ours, {name: tensor.shape for name, tensor in model.state_dict().items()}, what=f"a GPT of width {config.d_model}, vocabulary {config.vocab_size} and context {config.block_size}")
        model.load_state_dict(ours)
        return model


class GPTClassifier(nn.Module):
    """GPT-1's fine-tuning for classification (Radford et al. 2018): the input is one sequence,
    ``[START] text [EXTRACT]`` or, for a pair, ``[START] premise [DELIM] hypothesis [EXTRACT]``
    (:func:`pair_input`), and a linear head reads the hidden state at the [EXTRACT] token.

    ``forward(idx (B, T)) -> (class logits (B, n_classes), LM logits (B, T, V))``: GPT-1 adds the
    LM loss on the same inputs as an auxiliary objective (weight 0.5).
    """

    def __init__(self, gpt: GPT, n_classes: int, extract_id: int) -> None:
        super().__init__()
        self.gpt, self.extract_id = gpt, extract_id
        self.head = nn.Linear(gpt.config.d_model, n_classes)

    def forward(self, idx: Tensor) -> tuple[Tensor, Tensor]:
        """Class logits ``(B, n_classes)`` read at each row's [EXTRACT] token, and the LM logits
        ``(B, T, V)`` of ``idx (B, T)``."""
        at = idx == self.extract_id  # (B, T)
        if not torch.all(at.sum(dim=1) == 1):
            raise ValueError("each input must hold exactly one [EXTRACT] token (padding goes after it)")
        hidden = self.gpt.hidden_states(idx)  # (B, T, d_model)
        extract = hidden[at]  # (B, d_model): one row per input, in order
        return self.head(extract), self.gpt.lm_head(hidden)


def pair_input(premise: list[int], hypothesis: list[int], start: int, delim: int, extract: int) -> list[int]:
    """``[START] premise [DELIM] hypothesis [EXTRACT]`` as token ids."""
    return [start, *premise, delim, *hypothesis, extract]


def lm_loss(logits: Tensor, idx: Tensor) -> Tensor:
    """Next-token cross-entropy of ``logits (B, T, V)`` computed from ``idx (B, T)``: position ``t``
    predicts ``idx[:, t + 1]``, so the last position has no target and is dropped.

    The shift happens here, on one sequence. :func:`course_lib.train.lm_loss_fn` takes the other
    convention, inputs and targets already shifted (as :func:`course_lib.data.lm_batch` makes them).
    """
    if logits.ndim != 3 or idx.shape != logits.shape[:2]:
        raise ValueError(f"logits must be (B, T, V) and idx (B, T), got {tuple(logits.shape)} and {tuple(idx.shape)}")
    if idx.shape[1] < 2:
        raise ValueError(f"a sequence of {idx.shape[1]} token(s) has no next token to predict: T must be at least 2")
    return F.cross_entropy(logits[:, :-1].flatten(0, 1), idx[:, 1:].flatten())


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
    probabilities sum to at least ``p``, the rest set to -inf. Rows ``(..., V)``."""
    if not 0.0 < p <= 1.0:
        raise ValueError(f"top_p must be in (0, 1], got {p}")
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = sorted_logits.softmax(dim=-1)
    before = F.pad(probs.cumsum(dim=-1)[..., :-1], (1, 0))  # probability of the tokens ranked above each one
    drop_sorted = before >= p  # already reached p without this token
    drop = drop_sorted.scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))


def next_token(logits: Tensor, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None, generator: torch.Generator | None = None) -> Tensor:
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


@torch.no_grad()
def generate(
    model: GPT,
    idx: Tensor,
    max_new_tokens: int,
    *,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: torch.Generator | None = None,
    use_cache: bool = True,
    sliding: bool = False,
) -> Tensor:
    """``idx (B, T)`` followed by ``max_new_tokens`` sampled tokens: ``(B, T + max_new_tokens)``.

    With ``use_cache`` each step feeds only the newest token and reuses the keys and values of the
    earlier ones; without, each step recomputes the whole prefix. Both give the same tokens.

    A sequence longer than the context is refused, unless ``sliding``: then, once the sequence fills
    the context, each next token is predicted from the last ``block_size`` tokens only (the cache
    is rebuilt from that window, since the positions of its tokens have changed).
    """
    if idx.ndim != 2 or idx.shape[1] == 0:
        raise ValueError(f"the prompt idx must have shape (B, T) with T >= 1, got {tuple(idx.shape)} (one sequence of ids: idx[None])")
    if max_new_tokens < 0:
        raise ValueError(f"max_new_tokens must be >= 0, got {max_new_tokens}")
    block = model.config.block_size
    if idx.shape[1] + max_new_tokens > block and not sliding:
        raise ValueError(f"{idx.shape[1]} prompt tokens + {max_new_tokens} new ones exceed the context of {block} (block_size); pass sliding=True to condition on the last {block} tokens only")
    was_training = model.training
    model.eval()  # no dropout while generating; the mode is restored at the end
    try:
        caches = model.new_caches() if use_cache else None
        feed = idx[:, -block:]
        for _ in range(max_new_tokens):
            if caches is not None and caches[0].length + feed.shape[1] > block:
                caches, feed = model.new_caches(), idx[:, -block:]  # the window moved: start it afresh
            logits = model(feed, caches)[:, -1]  # (B, V): the next token's distribution
            token = next_token(logits, temperature, top_k, top_p, generator)  # (B, 1)
            idx = torch.cat([idx, token], dim=1)
            feed = token if caches is not None else idx[:, -block:]
    finally:
        model.train(was_training)
    return idx


# ------------------------------------------------------------------------ Hugging Face weights


def _hf_names(n_layers: int) -> list[tuple[str, str, str]]:
    """(our name, HF name, how): ``copy``, ``transpose`` (Conv1D) or ``q``/``k``/``v`` (a third of c_attn)."""
    names = [("wte.weight", "transformer.wte.weight", "copy"), ("wpe.embedding.weight", "transformer.wpe.weight", "copy")]
    for i in range(n_layers):
        ours, theirs = f"blocks.{i}.", f"transformer.h.{i}."
        for part in ("weight", "bias"):
            names += [
                (f"{ours}norm1.{part}", f"{theirs}ln_1.{part}", "copy"),
                (f"{ours}norm2.{part}", f"{theirs}ln_2.{part}", "copy"),
                (f"{ours}self_attn.q_proj.{part}", f"{theirs}attn.c_attn.{part}", "q"),
                (f"{ours}self_attn.k_proj.{part}", f"{theirs}attn.c_attn.{part}", "k"),
                (f"{ours}self_attn.v_proj.{part}", f"{theirs}attn.c_attn.{part}", "v"),
                (f"{ours}self_attn.out_proj.{part}", f"{theirs}attn.c_proj.{part}", "transpose"),
                (f"{ours}ff.linear1.{part}", f"{theirs}mlp.c_fc.{part}", "transpose"),
                (f"{ours}ff.linear2.{part}", f"{theirs}mlp.c_proj.{part}", "transpose"),
            ]
    return names + [("ln_f.weight", "transformer.ln_f.weight", "copy"), ("ln_f.bias", "transformer.ln_f.bias", "copy")]


def from_hf_state_dict(hf: Mapping[str, Tensor], n_layers: int) -> dict[str, Tensor]:
    """Our state dict from a ``GPT2LMHeadModel`` (or ``GPT2Model``, names without ``transformer.``) one.

    Refuses, by name, a state dict with names missing or left over (another depth, another model)
    and an LM head that is not the token embedding (GPT-2 ties them)."""
    if not any(k.startswith("transformer.") for k in hf):  # a GPT2Model's names: add its prefix
        hf = {(k if k.startswith("lm_head.") else f"transformer.{k}"): v for k, v in hf.items()}
    table = _hf_names(n_layers)
    check_names(hf, {hf_name for _, hf_name, _ in table}, ignorable=_hf_buffer_or_tied_head, what=f"a GPT-2 with {n_layers} layers")
    if "lm_head.weight" in hf and not torch.equal(hf["lm_head.weight"], hf["transformer.wte.weight"]):
        raise ValueError("lm_head.weight differs from transformer.wte.weight: this GPT ties its LM head to the token embedding")
    ours: dict[str, Tensor] = {}
    for name, hf_name, how in table:
        tensor = hf[hf_name]
        if how in ("q", "k", "v"):
            tensor = tensor.chunk(3, dim=-1)["qkv".index(how)]  # c_attn's columns: q | k | v
        if how != "copy" and tensor.ndim == 2:
            tensor = tensor.t()  # Conv1D (in, out) -> Linear (out, in)
        ours[name] = tensor.contiguous()
    ours["lm_head.weight"] = ours["wte.weight"]  # tied
    return ours


def _hf_buffer_or_tied_head(name: str) -> bool:
    """Names a GPT-2 state dict may hold that carry no weights of their own: the causal-mask buffers
    older checkpoints save (``attn.bias``, ``attn.masked_bias``) and the tied LM head."""
    return name == "lm_head.weight" or name.endswith((".attn.bias", ".attn.masked_bias"))


def check_gpt2_compatible(config: GPTConfig) -> None:
    """Refuse a configuration that a ``GPT2LMHeadModel`` would compute differently: GPT-2 is pre-LN
    with the tanh GELU."""
    if config.arrangement != "pre_ln" or config.activation != "gelu_tanh":
        raise ValueError(f"only GPT-2's arrangement and activation (pre_ln, gelu_tanh) match a GPT2LMHeadModel, got {config.arrangement}, {config.activation}")


def to_hf_state_dict(model: GPT) -> dict[str, Tensor]:
    """The ``GPT2LMHeadModel`` state dict of ``model`` (pre-LN with a final norm, as GPT-2)."""
    check_gpt2_compatible(model.config)
    ours = model.state_dict()
    hf: dict[str, Tensor] = {}
    fused: dict[str, dict[str, Tensor]] = {}
    for name, hf_name, how in _hf_names(model.config.n_layers):
        tensor = ours[name].t() if ours[name].ndim == 2 and how != "copy" else ours[name]
        if how in ("q", "k", "v"):
            fused.setdefault(hf_name, {})[how] = tensor
        else:
            hf[hf_name] = tensor.contiguous()
    for hf_name, parts in fused.items():
        hf[hf_name] = torch.cat([parts["q"], parts["k"], parts["v"]], dim=-1).contiguous()
    hf["lm_head.weight"] = hf["transformer.wte.weight"]
    return hf
