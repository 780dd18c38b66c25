"""The encoder-decoder of chapter 5: T5's data flow under span corruption, and the decoder's two caches
during generation, drawn from the model.

As in :mod:`course_lib.diagrams.bert`, each figure runs the model it is given on the example it draws,
with a hook on every submodule, and labels what the code called: the submodules' names, the caches'
lengths, which tensors are computed once and reused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import cast

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle
from torch import Tensor, nn

from ..attention import KVCache, MultiHeadAttention
from ..blocks import Decoder, DecoderBlock, Encoder, EncoderBlock, LayerNorm, RelativePositionBias, RMSNorm
from ..seq2seq import EncoderDecoderLM, seq2seq_loss, shift_right
from ..t5 import T5, span_corruption
from ._kit import (
    _BACKING,
    FILL,
    FONT,
    INK,
    MUTED,
    SMALL,
    _arrow,
    _Box,
    _box,
    _canvas,
    _check_int,
    _code_width,
    _figure,
    _panel,
    _text,
    _text_width,
)
from ._trace import _Call, _calls, _children, _shape, _shown

__all__ = ["decoder_caches", "t5_data_flow"]

TOKEN_FILLS = {"word": "#eeeeee", "sentinel": FILL["new"], "eos": "#bdbdbd", "start": FILL["query"]}
NORMS = (LayerNorm, RMSNorm, nn.LayerNorm)


# ------------------------------------------------------------------------------------ data flow


@dataclass(frozen=True)
class _Sublayer:
    """One residual branch of a block: its norm's name, its module's name, what it is."""

    norm: str | None
    name: str
    kind: str  # "self-attention", "cross-attention", "feed-forward"


@dataclass(frozen=True)
class _Stack:
    """An encoder or decoder stack as the trace found it: names in the model."""

    name: str
    first: str  # its first block
    last: str  # its last block
    sublayers: tuple[_Sublayer, ...]  # of its first block, in the order they ran
    norm: str | None  # its final norm
    bias: str | None  # the relative position bias its self-attention adds


def _sublayers(calls: list[_Call], block: str) -> tuple[_Sublayer, ...]:
    """The branches of ``block`` in the order they ran: each norm followed by the module it feeds."""
    out, norm = [], None
    for call in _children(calls, block):
        if isinstance(call.module, NORMS):
            norm = call.name
        elif isinstance(call.module, MultiHeadAttention):
            cross = (
                len(call.args) > 1
                and isinstance(call.args[1], Tensor)
                or isinstance(call.kwargs.get("context"), Tensor)
            )
            out.append(_Sublayer(norm, call.name, "cross-attention" if cross else "self-attention"))
            norm = None
        elif not isinstance(call.module, nn.Dropout):
            out.append(_Sublayer(norm, call.name, "feed-forward"))
            norm = None
    return tuple(out)


def _stack(calls: list[_Call], kind: type[nn.Module], block_kind: type[nn.Module]) -> tuple[_Call, _Stack]:
    """The call of the first stack of type ``kind`` and what it is made of."""
    call = next((c for c in _children(calls, "") if isinstance(c.module, kind)), None)
    if call is None:
        raise ValueError(f"the model called no {kind.__name__}: this figure draws T5's encoder-decoder")
    blocks = [c.name for c in _children(calls, call.name) if isinstance(c.module, block_kind)]
    norm = next((c.name for c in _children(calls, call.name) if isinstance(c.module, NORMS)), None)
    biases = [c for c in _children(calls, "") if isinstance(c.module, RelativePositionBias)]
    passed = [*call.args, *call.kwargs.values()]
    bias = next((b.name for b in biases if any(a is b.output for a in passed)), None)
    return call, _Stack(call.name, blocks[0], blocks[-1], _sublayers(calls, blocks[0]), norm, bias)


def _kinds(strings: Sequence[str]) -> list[str]:
    return [
        "sentinel"
        if s.startswith("<extra_id_")
        else "eos"
        if s == "</s>"
        else "start"
        if s in ("<pad>", "<start>")
        else "word"
        for s in strings
    ]


def _token_row(ax: Axes, x: float, y: float, strings: Sequence[str], widths: Sequence[float]) -> list[_Box]:
    """Tokens left to right from ``x``, each in a box of its width filled by its kind (word,
    sentinel, EOS, start)."""
    boxes = []
    for s, kind, w in zip(strings, _kinds(strings), widths, strict=True):
        box = _box(ax, x + w / 2, y, w, 0.3, "", kind="data", gid=f"token-{kind}")
        ax.patches[-1].set_facecolor(TOKEN_FILLS[kind])
        _text(ax, box.x, y, s, size=SMALL, code=True)
        boxes.append(box)
        x += w + 0.07
    return boxes


def _branch(sub: _Sublayer, attention: str) -> tuple[str, str, float]:
    """A residual branch's title, its norm and module by name, and the width of its box."""
    code = (
        sub.name.rsplit(".", 1)[1]
        if sub.norm is None
        else f"{sub.norm.rsplit('.', 1)[1]}, {sub.name.rsplit('.', 1)[1]}"
    )
    title = {
        "self-attention": f"{attention} self-attention",
        "cross-attention": "cross-attention",
        "feed-forward": "feed-forward",
    }[sub.kind]
    return title, code, max(_code_width(code), _text_width(title, FONT)) + 0.16


def _branches(ax: Axes, left: float, right: float, y: float, stack: _Stack, attention: str) -> dict[str, _Box]:
    """A stack's branches spread evenly between ``left`` and ``right``: the boxes by kind."""
    labels = [_branch(sub, attention) for sub in stack.sublayers]
    gap = (right - left - sum(w for _, _, w in labels)) / (len(labels) + 1)
    boxes, x = {}, left + gap
    for sub, (title, code, w) in zip(stack.sublayers, labels, strict=True):
        boxes[sub.kind] = _box(
            ax,
            x + w / 2,
            y,
            w,
            0.5,
            title,
            kind="ffn" if sub.kind == "feed-forward" else "attention",
            code=code,
            gid=sub.kind,
        )
        x += w + gap
    return boxes


def _words_ids(model: T5, words: Sequence[str], noise: Sequence[bool] | Tensor) -> tuple[Tensor, Tensor, int]:
    """Stand-in ids for ``words`` (one per word, none special) and the noise mask, checked."""
    if isinstance(words, str) or not words or not all(isinstance(w, str) and w for w in words):
        raise TypeError(f"words must be a non-empty sequence of non-empty strings, got {words!r}")
    mask = noise if isinstance(noise, Tensor) else torch.tensor(list(noise))
    if mask.dtype != torch.bool or mask.shape != (len(words),):
        raise ValueError(
            f"noise must be a boolean mask with one entry per word ({len(words)}), got {mask.dtype} {tuple(mask.shape)}"
        )
    if not bool(mask.any()) or bool(mask.all()):
        raise ValueError("noise must hide some words and keep others")
    n_spans = int((mask & ~torch.cat([torch.tensor([False]), mask[:-1]])).sum())
    first = max(model.pad_id, model.eos_id, model.decoder_start_id) + 1
    if first + len(words) > model.vocab_size - n_spans:
        raise ValueError(
            f"{len(words)} words and {n_spans} sentinels do not fit in the model's vocabulary of {model.vocab_size}"
        )
    return torch.arange(first, first + len(words)), mask, n_spans


def t5_data_flow(model: T5, words: Sequence[str], noise: Sequence[bool] | Tensor) -> Figure:
    """One pretraining example of span corruption through ``model``, as the code computes it.

    ``words`` (one token each) lose the spans where ``noise`` is True: :func:`~course_lib.t5.span_corruption`
    makes the encoder's ``input_ids`` (each span replaced by a sentinel ``<extra_id_i>``, then EOS
    ``</s>``) and the ``labels`` (each sentinel followed by its span, then EOS), and
    :func:`~course_lib.seq2seq.shift_right` the decoder's input (the decoder's start token, then the
    labels but the last). The model is run on them; the figure names what it called: the shared token
    embedding, the encoder's blocks (self-attention with its relative position bias, feed-forward)
    and final norm giving the memory ``(B, S, d_model)``; the decoder's blocks (causal self-attention
    with its own bias, cross-attention whose keys and values come from the memory, feed-forward), its
    final norm, the rescaling of a tied head (measured: the head's input over the decoder's output)
    and the LM head, whose logits ``(B, T, V)`` are scored against the labels position by position.
    Dropout is not drawn.
    """
    if not isinstance(model, T5):
        raise TypeError(f"model must be a course_lib.t5.T5, got {type(model).__name__}")
    ids, mask, n_spans = _words_ids(model, words, noise)
    V = model.vocab_size
    inputs, labels = span_corruption(ids, mask, V, eos_id=model.eos_id, num_sentinels=n_spans)
    decoder_inputs = shift_right(labels[None], model.decoder_start_id, model.pad_id)[0]
    start = (
        "<pad>"
        if model.decoder_start_id == model.pad_id
        else "</s>"
        if model.decoder_start_id == model.eos_id
        else "<start>"
    )

    def shown(i: int) -> str:
        """The token an id stands for here: a word, EOS or a sentinel (numbered down from the top)."""
        return (
            words[i - int(ids[0])]
            if int(ids[0]) <= i <= int(ids[-1])
            else "</s>"
            if i == model.eos_id
            else f"<extra_id_{V - 1 - i}>"
        )

    source = [shown(i) for i in inputs.tolist()]
    target = [shown(i) for i in labels.tolist()]
    read = [start] + [shown(i) for i in decoder_inputs[1:].tolist()]  # the start token, then the labels but the last
    S, T = len(source), len(target)
    if S > 16 or T > 10:
        raise ValueError(
            f"the corrupted input ({S} tokens) and the target ({T}) must be "
            "at most 16 and 10 tokens long to be drawn: give fewer words"
        )
    calls, _ = _calls(model, lambda: model(inputs[None], decoder_inputs[None]))
    top = _children(calls, "")
    embed_src = next(c for c in top if isinstance(c.module, nn.Embedding) and c.args[0].shape == (1, S))
    embed_tgt = next(
        c for c in top if isinstance(c.module, nn.Embedding) and c.args[0].shape == (1, T) and c is not embed_src
    )
    enc_call, enc = _stack(calls, Encoder, EncoderBlock)
    dec_call, dec = _stack(calls, Decoder, DecoderBlock)
    head = next(c for c in top if isinstance(c.output, Tensor) and c.output.shape[-1] == V)
    memory = enc_call.output
    scale = float(head.args[0].norm() / dec_call.output.norm())
    tied = getattr(head.module, "weight", None) is embed_tgt.module.weight
    d_model = memory.shape[-1]

    widths = [_code_width(s) + 0.14 for s in source]
    # the decoder's positions
    columns = [max(_code_width(a), _code_width(b)) + 0.14 for a, b in zip(read, target, strict=True)]
    if 1.45 + sum(widths) + 0.07 * S > 9.9 or 1.45 + sum(columns) + 0.07 * T > 9.9:
        raise ValueError("the tokens are too wide to be drawn on one line: give fewer or shorter words")
    fig, ax = _canvas(10.0, 6.3)

    # the legend
    key_y = 6.1
    legend = ((0.1, "sentinel", "<extra_id_i>: a sentinel, standing for one hidden span"),
              (4.1, "eos", "</s>: EOS, the end of a sequence"),
              (6.55, "start", f"{start}: the decoder's start token"))  # fmt: skip
    for x, kind, what in legend:
        ax.add_patch(
            Rectangle(
                (x, key_y - 0.08), 0.16, 0.16, facecolor=TOKEN_FILLS[kind], edgecolor=INK, linewidth=0.8, gid="key"
            )
        )
        _text(ax, x + 0.24, key_y, what, size=SMALL, ha="left")

    # the encoder's side
    y_src, y_enc = 5.55, 4.3
    _text(ax, 0.1, y_src + 0.07, "input_ids", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, y_src - 0.09, f"(B, S) = (1, {S})", size=SMALL, ha="left", colour=MUTED)
    _token_row(ax, 1.45, y_src, source, widths)
    emb = _box(ax, 0.55, y_enc, 0.8, 0.5, "embed", kind="embedding", code=_shown(embed_src.name), gid="embedding")
    _arrow(ax, (0.55, y_src - 0.22), emb.top)
    left = emb.right[0] + 0.25
    need = [sum(_branch(sub, "causal")[2] + 0.12 for sub in stack.sublayers) + 0.12 for stack in (enc, dec)]
    right = _frame(
        ax, left, left + max(need), y_enc, f"{_shown(enc.first)} .. {_shown(enc.last)}", _arrangement(model, enc.first)
    )
    boxes = _branches(ax, left, right, y_enc, enc, "bidirectional")
    _arrow(ax, emb.right, (left, y_enc))
    x = right
    if enc.norm is not None:
        norm = _box(ax, x + 0.25 + 0.5, y_enc, 1.0, 0.5, "final norm", kind="norm", code=_shown(enc.norm), gid="norm")
        _arrow(ax, (x, y_enc), norm.left)
        x = norm.right[0]
    shape = f"(B, S, d_model) = {_shape(memory)}"
    w = _code_width(shape) + 0.16
    mem = _box(ax, x + 0.25 + w / 2, y_enc, w, 0.5, "memory", kind="tensor", code=shape, gid="memory")
    _arrow(ax, (x, y_enc), mem.left)
    if enc.bias is not None:
        _bias(ax, boxes["self-attention"], enc.bias)

    # the decoder's side
    y_dec, y_read, y_labels = 2.45, 1.2, 0.55
    demb = _box(ax, 0.55, y_dec, 0.8, 0.5, "embed", kind="embedding", code=_shown(embed_tgt.name), gid="embedding")
    dright = _frame(
        ax, left, left + max(need), y_dec, f"{_shown(dec.first)} .. {_shown(dec.last)}", _arrangement(model, dec.first)
    )
    dboxes = _branches(ax, left, dright, y_dec, dec, "causal")
    _arrow(ax, demb.right, (left, y_dec))
    x = dright
    chain: list[tuple[str, str, str]] = []
    if dec.norm is not None:
        chain.append(("final norm", _shown(dec.norm), "norm"))
    if abs(scale - 1) > 1e-4:
        symbol = f"d_model**-0.5 = {scale:.3f}" if abs(scale - d_model**-0.5) < 1e-4 else f"{scale:.3g}"
        chain.append(("rescale", symbol, "data"))
    chain.append(("LM head", _shown(head.name), "linear"))
    for title, code, kind in chain:
        w = max(_code_width(code), _text_width(title, FONT)) + 0.16
        b = _box(ax, x + 0.22 + w / 2, y_dec, w, 0.5, title, kind=kind, code=code, gid=kind)
        _arrow(ax, (x, y_dec), b.left)
        x = b.right[0]
    if dec.bias is not None:
        _bias(ax, dboxes["self-attention"], dec.bias)
    cross = dboxes["cross-attention"]
    y_mem = (y_enc + y_dec) / 2 - 0.05
    _arrow(ax, mem.bottom, (mem.x, y_mem), (cross.x, y_mem), cross.top, colour=INK, width=1.2)
    _text(
        ax,
        (mem.x + cross.x) / 2,
        y_mem + 0.12,
        "keys and values of every block's cross-attention: the memory",
        size=SMALL,
        bbox=_BACKING,
    )
    logits = f"logits (B, T, V) = {_shape(head.output)}"
    if tied:
        logits += f"; {_shown(head.name)}.weight is {_shown(embed_tgt.name)}.weight"
    _text(ax, 9.9, y_dec - 0.42, logits, size=SMALL, ha="right", va="top", colour=MUTED)

    # what the decoder reads, and what it is scored against
    _text(ax, 0.1, y_read + 0.07, "decoder_input_ids", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, y_read - 0.09, f"(B, T) = (1, {T})", size=SMALL, ha="left", colour=MUTED)
    _text(ax, 0.1, y_labels + 0.07, "labels", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, y_labels - 0.09, "loss targets", size=SMALL, ha="left", colour=MUTED)
    read_boxes = _token_row(ax, 1.45, y_read, read, columns)
    label_boxes = _token_row(ax, 1.45, y_labels, target, columns)
    _arrow(ax, (0.55, y_read + 0.15), demb.bottom)
    for a, b in zip(label_boxes[:-1], read_boxes[1:], strict=True):
        _arrow(ax, (a.x + 0.08, a.top[1]), (b.x - 0.08, b.bottom[1]), colour=MUTED, width=0.7)
    notes = (
        f"{shift_right.__name__}(labels): the start token, then every label but the last",
        f"{seq2seq_loss.__name__}: the logits at position t against labels[t]",
    )
    x_note = label_boxes[-1].right[0] + 0.2
    if x_note + max(_text_width(n, SMALL) for n in notes) > 9.9:  # no room to the right: under the rows
        _text(ax, 1.45, y_labels - 0.3, f"{notes[0]}; {notes[1]}", size=SMALL, ha="left", va="top", colour=MUTED)
    else:
        for y, note in zip((y_read, y_labels), notes, strict=True):
            _text(ax, x_note, y, note, size=SMALL, ha="left", colour=MUTED)
    return fig


def _arrangement(model: nn.Module, block: str) -> str:
    """How ``block`` adds its branches to the stream, from its ``arrangement`` ("" if it has none)."""
    arrangement = getattr(model.get_submodule(block), "arrangement", None)
    return {"pre_ln": "pre-LN: x + branch(norm(x))", "post_ln": "post-LN: norm(x + branch(x))"}.get(
        str(arrangement), ""
    )


def _frame(ax: Axes, left: float, right: float, y: float, blocks: str, arrangement: str) -> float:
    """The frame around a block's branches from ``left``, named by its first and last block and its
    arrangement, at least as wide as those; returns its right side."""
    right = max(right, left + _code_width(blocks) + _text_width(arrangement, SMALL) + 0.4)
    ax.add_patch(
        FancyBboxPatch(
            (left, y - 0.42),
            right - left,
            0.84,
            boxstyle="round,pad=0,rounding_size=0.06",
            facecolor="#f7f7fb",
            edgecolor=MUTED,
            linewidth=1.0,
            zorder=0.5,
            gid="blocks",
        )
    )
    _text(ax, left + 0.08, y - 0.335, blocks, size=SMALL, code=True, ha="left")
    _text(ax, right - 0.08, y - 0.335, arrangement, size=SMALL, ha="right", colour=MUTED)
    return right


def _bias(ax: Axes, box: _Box, name: str) -> None:
    """The relative position bias added to a self-attention's scores, above its box."""
    y = box.top[1] + 0.48
    _text(ax, box.left[0], y + 0.08, f"+ {_shown(name)}", size=SMALL, code=True, ha="left")
    _text(ax, box.left[0], y - 0.09, "added to its scores", size=SMALL, ha="left", colour=MUTED)
    _arrow(ax, (box.x, y - 0.19), (box.x, box.top[1] + 0.08), width=0.9)


# -------------------------------------------------------------------------------------- caches


@dataclass(frozen=True)
class _Step:
    """The caches of the first decoder block after one generation step."""

    self_shape: tuple[int, ...]  # its self-attention cache's keys, (B, h, P, d_head)
    cross_shape: tuple[int, ...]  # its cross-attention cache's keys, (B, h, S, d_head)
    cross_reused: bool  # the cross-attention keys and values are the very tensors of step 0
    projected: bool  # the cross-attention projected the memory (k_proj and v_proj ran) this step


def _generation(model: EncoderDecoderLM, S: int, n_steps: int) -> tuple[list[_Step], str, str, str, str]:
    """Decode greedily for ``n_steps + 1`` steps with the caches of ``model.new_caches()``, after
    encoding a source of ``S`` tokens; return what the first block's caches held after each step, the types of the two
    caches, and the names of the attentions that used them."""
    source = (torch.arange(S) % model.vocab_size)[None]
    module = cast(nn.Module, model)
    _, memory = _calls(module, partial(model.encode, source))
    caches = model.new_caches()
    self_cache, cross_cache = caches[0]
    token = torch.tensor([[model.decoder_start_id]])
    steps: list[_Step] = []
    users: dict[int, str] = {}
    first_k: Tensor | None = None
    for _ in range(n_steps + 1):
        calls, logits = _calls(module, partial(model.decode, token, memory, None, caches))
        token = logits[:, -1:].argmax(-1)  # (1, 1): the greedy choice, fed at the next step
        for call in calls:
            cache = call.kwargs.get("cache")
            if isinstance(call.module, MultiHeadAttention) and isinstance(cache, KVCache):
                users.setdefault(id(cache), call.name)
        cross_name = users.get(id(cross_cache), "")
        projected = any(c.name == f"{cross_name}.k_proj" for c in calls)
        if first_k is None:
            first_k = cross_cache.k
        assert self_cache.k is not None and cross_cache.k is not None
        steps.append(_Step(tuple(self_cache.k.shape), tuple(cross_cache.k.shape), cross_cache.k is first_k, projected))
    if id(self_cache) not in users or id(cross_cache) not in users:
        raise ValueError("the model's decoder did not use the caches of new_caches(): cannot draw them")
    return steps, _cache_repr(self_cache), _cache_repr(cross_cache), users[id(self_cache)], users[id(cross_cache)]


def _cache_repr(cache: KVCache) -> str:
    return f"{type(cache).__name__}(fixed=True)" if cache.fixed else f"{type(cache).__name__}()"


def _any_block(name: str) -> str:
    """``decoder.layers.0.self_attn`` as every block's: ``decoder.layers[i].self_attn``."""
    return _shown(name.replace(".0.", ".i.", 1)).replace(".i.", "[i].")


def decoder_caches(model: EncoderDecoderLM, source_len: int = 5, n_steps: int = 4) -> Figure:
    """The decoder's two caches while an encoder-decoder generates, one row per step, drawn from a run.

    ``model`` (:class:`~course_lib.t5.T5` or :class:`~course_lib.bart.Bart`) encodes a source of
    ``source_len`` tokens, then decodes ``n_steps + 1`` steps with the caches of its ``new_caches()``,
    feeding one token a step (the start token, then each step's greedy choice). For its first block,
    each row shows the self-attention cache (left), which grows by the key and value of the position
    fed (hatched: new this step), and the cross-attention cache (right), whose keys and values of
    the ``S`` source positions are projected from the encoder's memory at step 0 and reused, the
    same tensors, at every later step. Each cache's type, the attention that uses it, and its shape
    ``(B, h, P, d_head)`` or ``(B, h, S, d_head)`` after each step are read from the run.
    """
    if not isinstance(model, nn.Module) or not all(
        callable(getattr(model, m, None)) for m in ("encode", "decode", "new_caches")
    ):
        raise TypeError(
            f"model must be an encoder-decoder of course_lib (encode, decode, new_caches), got {type(model).__name__}"
        )
    _check_int("source_len", source_len, 1, 7)
    _check_int("n_steps", n_steps, 1, 6)
    steps, self_kind, cross_kind, self_user, cross_user = _generation(model, source_len, n_steps)
    width, row_h, head_h = 10.0, 1.25, 1.15
    fig = _figure(width, row_h * (n_steps + 1) + head_h)
    pitch = 0.5
    self_left = 1.45
    headers = [
        f"{kind}, used by {_any_block(user)}" for kind, user in ((self_kind, self_user), (cross_kind, cross_user))
    ]
    cross_left = self_left + max((n_steps + 1) * pitch, 1.1 * _code_width(headers[0]), 2.5) + 0.35
    cell = pitch - 0.07

    top = _panel(fig, 0, row_h * (n_steps + 1), width, head_h)
    keys = ((0.1, FILL["new"], "////", "computed this step and stored (KVCache.append)"),
            (3.55, FILL["tensor"], None, "held: computed at an earlier step"),
            (6.25, FILL["query"], None, "query of the position fed this step"))  # fmt: skip
    for x, fill, hatch, what in keys:
        top.add_patch(
            Rectangle((x, 0.92), 0.16, 0.16, facecolor=fill, edgecolor=INK, linewidth=0.8, hatch=hatch, gid="key")
        )
        _text(top, x + 0.24, 1.0, what, size=SMALL, ha="left")
    for x, title, user, what in (
        (self_left, "self-attention cache", self_user, "grows by one position per step"),
        (cross_left, "cross-attention cache", cross_user, "the source's keys and values"),
    ):
        _text(
            top,
            x,
            0.62,
            f"{title}: caches[i][{0 if user == self_user else 1}]",
            size=SMALL,
            ha="left",
            fontweight="bold",
        )
        _text(top, x, 0.44, headers[0 if user == self_user else 1], size=SMALL, code=True, ha="left")
        _text(top, x, 0.26, what, size=SMALL, ha="left")
    for step, record in enumerate(steps):
        ax = _panel(fig, 0, row_h * (n_steps - step), width, row_h)
        _text(ax, 0.1, 0.98, f"step {step}", fontweight="bold", ha="left")
        _text(ax, 0.1, 0.78, f"feeds position {step}:", size=SMALL, ha="left")
        _text(ax, 0.1, 0.61, "the start token" if step == 0 else f"the token of step {step - 1}", size=SMALL, ha="left")
        P, S = record.self_shape[2], record.cross_shape[2]
        for group, left, n, new in (
            ("self", self_left, P, {P - 1}),
            ("cross", cross_left, S, set(range(S)) if record.projected else set()),
        ):
            for j in range(n):
                state = "new" if j in new else "held"
                x = left + j * pitch
                for name, y, suffix in (("k", 0.6, ""), ("v", 0.39, "-v")):
                    ax.add_patch(Rectangle((x, y), cell, 0.19, facecolor=FILL["new" if state == "new" else "tensor"],
                                           edgecolor=INK, linewidth=0.9, hatch="////" if state == "new" else None,
                                           gid=f"{group}-{state}{suffix}"))  # fmt: skip
                    _text(
                        ax,
                        x + cell / 2,
                        y + 0.095,
                        f"${name}_{{{j}}}$",
                        size=SMALL,
                        bbox=_BACKING if state == "new" else None,
                    )
            qx = left + (P - 1) * pitch + cell / 2 if group == "self" else left + (n * pitch - 0.07) / 2
            q = _box(ax, qx, 1.06, 0.42, 0.2, f"$q_{{{step}}}$", kind="query", gid="query")
            for j in range(n):
                _arrow(ax, q.bottom, (left + j * pitch + cell / 2, 0.79), colour=INK, width=0.6)
        shape = f"k, v: (B, h, P, d_head) = {record.self_shape}"
        _text(ax, self_left, 0.25, shape, size=SMALL, ha="left")
        status = (
            f"projected from the memory by {_any_block(cross_user)}.k_proj, .v_proj"
            if record.projected
            else "reused: the tensors of step 0, not projected again"
            if record.cross_reused
            else "replaced"
        )
        _text(ax, cross_left, 0.25, f"k, v: (B, h, S, d_head) = {record.cross_shape}", size=SMALL, ha="left")
        _text(ax, cross_left, 0.09, status, size=SMALL, ha="left", colour=MUTED)
        if step < n_steps:
            ax.axhline(0.0, xmin=0.01, xmax=0.99, color="#dddddd", linewidth=0.8)
    return fig
