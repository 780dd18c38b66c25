"""A GPT-2 block beside a Llama block (chapter 7), each drawn from the block it is given.

Each panel reads what it labels from a :class:`~course_lib.blocks.DecoderBlock`: the norms' class
(``LayerNorm`` or ``RMSNorm``) and whether they have a bias, the attention's query and key/value heads and
whether it rotates queries and keys (:class:`~course_lib.attention.RotaryEmbedding`), the feed-forward
network's activation, width and gate, and whether any linear map has a bias. The submodules' names come
from the block, so a renamed layer renames its box.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import nn

from ..attention import MultiHeadAttention
from ..blocks import ACTIVATIONS, DecoderBlock, FeedForward, LayerNorm, RMSNorm
from ._kit import MUTED, SMALL, STREAM, _arrow, _Box, _box, _dot, _figure, _panel, _plus, _text

__all__ = ["decoder_blocks"]

PANEL_W = 4.7
STREAM_X, BRANCH_X = 0.55, 2.55  # the residual stream's column; the centre of the branches
BOX_H = 0.36
ACTIVATION_NAMES = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "silu": "SiLU"}


@dataclass(frozen=True)
class _BlockParts:
    """What a pre-LN decoder block without cross-attention holds, read from the instance."""

    norms: tuple[str, str]  # the names of the attention's and the feed-forward network's norms
    norm_kind: str  # "LayerNorm", "LayerNorm, no bias" or "RMSNorm"
    attn: str
    n_heads: int
    n_kv_heads: int
    rotary: bool
    projections: tuple[str, str, str, str]  # the query, key, value and output maps' names
    ff: str
    linears: tuple[str, str | None, str]  # the feed-forward network's first map, its gate's, its second
    activation: str  # as the book writes it: GELU, SiLU, ...
    d_ff: int
    biases: str  # "biases in every linear map and norm", "no biases" or "some biases"


def _child(block: nn.Module, kind: type[nn.Module] | tuple[type[nn.Module], ...], what: str) -> list[str]:
    """The names of ``block``'s direct children that are instances of ``kind``."""
    names = [n for n, m in block.named_children() if isinstance(m, kind)]
    if not names:
        raise ValueError(f"the block holds no {what}")
    return names


def _norm_kind(norm: nn.Module) -> str:
    if isinstance(norm, RMSNorm):
        return "RMSNorm"
    return "LayerNorm" if isinstance(norm, LayerNorm) and norm.bias is not None else "LayerNorm, no bias"


def _parts(block: nn.Module) -> _BlockParts:
    """The names and sizes of ``block``'s pieces; ValueError for a block this figure cannot draw."""
    if not isinstance(block, DecoderBlock):
        raise TypeError(f"expected a course_lib.blocks.DecoderBlock, got {type(block).__name__}")
    if block.arrangement != "pre_ln":
        raise ValueError(f"the figure draws pre-LN blocks, this one is {block.arrangement}")
    if block.cross_attn is not None:
        raise ValueError("the figure draws decoder-only blocks, this one has cross-attention")
    attn_names = _child(block, MultiHeadAttention, "attention")
    ff_names = _child(block, FeedForward, "feed-forward network")
    norms = _child(block, (LayerNorm, RMSNorm), "norm")
    if len(norms) != 2:
        raise ValueError(f"a pre-LN decoder-only block holds two norms, this one holds {norms}")
    attn: MultiHeadAttention = getattr(block, attn_names[0])
    ff: FeedForward = getattr(block, ff_names[0])
    names = {id(m): n for n, m in attn.named_children()}
    projections = tuple(names[id(m)] for m in (attn.q_proj, attn.k_proj, attn.v_proj, attn.out_proj))
    ff_children = {id(m): n for n, m in ff.named_children()}
    gate = ff_children[id(ff.linear_v)] if ff.linear_v is not None else None
    activation = next((k for k, f in ACTIVATIONS.items() if f is ff.activation), "activation")
    activation = ACTIVATION_NAMES.get(activation, activation)  # as the book writes it
    # whether each linear map and norm carries a bias (an RMSNorm never does)
    kinds = (nn.Linear, LayerNorm, RMSNorm)
    biased = [getattr(m, "bias", None) is not None for m in block.modules() if isinstance(m, kinds)]
    biases = "biases in every linear map and norm" if all(biased) else "no biases" if not any(biased) else "some biases"
    return _BlockParts(
        norms=(norms[0], norms[1]),
        norm_kind=_norm_kind(getattr(block, norms[0])),
        attn=attn_names[0],
        n_heads=attn.n_heads,
        n_kv_heads=attn.n_kv_heads,
        rotary=attn.rotary is not None,
        projections=projections,  # type: ignore[arg-type]
        ff=ff_names[0],
        linears=(ff_children[id(ff.linear1)], gate, ff_children[id(ff.linear2)]),
        activation=activation,
        d_ff=ff.linear1.out_features,
        biases=biases,
    )


def _attention_branch(ax: Axes, y: float, parts: _BlockParts) -> _Box:
    """norm -> q/k/v maps (RoPE on q and k) -> causal attention -> out map, from height ``y``. Returns the
    out map's box."""
    norm = _box(ax, BRANCH_X, y + 0.45, 1.5, BOX_H, parts.norm_kind, kind="norm", code=parts.norms[0])
    _arrow(ax, (STREAM_X, y), (BRANCH_X, y), norm.bottom)
    row = norm.y + 0.7
    q_name, k_name, v_name, out_name = parts.projections
    heads = (f"{parts.n_heads} heads", f"{parts.n_kv_heads} heads", f"{parts.n_kv_heads} heads")
    maps = []
    for dx, label, code in zip((-0.9, 0.0, 0.9), heads, (q_name, k_name, v_name), strict=True):
        box = _box(ax, BRANCH_X + dx, row, 0.82, BOX_H, label, kind="linear", code=code, gid=f"map:{code}")
        _arrow(ax, norm.top, (norm.x, norm.top[1] + 0.12), (box.x, norm.top[1] + 0.12), box.bottom)
        maps.append(box)
    attention_y = row + (1.25 if parts.rotary else 0.75)
    attention = _box(ax, BRANCH_X, attention_y, 2.6, BOX_H, "causal attention", kind="attention", code=parts.attn)
    for i, box in enumerate(maps):
        if parts.rotary and i < 2:
            rope = _box(ax, box.x, box.y + 0.5, 0.7, 0.28, "RoPE", kind="embedding", gid="rope")
            _arrow(ax, box.top, rope.bottom)
            _arrow(ax, rope.top, (rope.x, attention.bottom[1]))
        else:
            _arrow(ax, box.top, (box.x, attention.bottom[1]))
    out = _box(ax, BRANCH_X, attention.y + 0.75, 1.2, BOX_H, "out map", kind="linear", code=out_name)
    if parts.n_kv_heads < parts.n_heads:  # beside the out map, clear of the arrows
        note = f"each key/value head\nserves {parts.n_heads // parts.n_kv_heads} query heads"
        _text(ax, out.right[0] + 0.1, out.y, note, size=SMALL, colour=MUTED, ha="left", gid="gqa")
    _arrow(ax, attention.top, out.bottom)
    return out


def _feed_forward_branch(ax: Axes, y: float, parts: _BlockParts) -> _Box:
    """norm -> first map (and the gate's) -> activation (times the gate) -> second map, from height ``y``.
    Returns the second map's box."""
    norm = _box(ax, BRANCH_X, y + 0.45, 1.5, BOX_H, parts.norm_kind, kind="norm", code=parts.norms[1])
    _arrow(ax, (STREAM_X, y), (BRANCH_X, y), norm.bottom)
    first, gate, second = parts.linears
    row = norm.y + 0.65
    width = f"to {parts.d_ff}"
    up_x = BRANCH_X if gate is None else BRANCH_X - 0.7  # a gated network's two maps sit side by side
    up = _box(ax, up_x, row, 1.2, BOX_H, width, kind="linear", code=f"{parts.ff}.{first}")
    ups = [up]
    if gate is not None:
        ups.append(_box(ax, BRANCH_X + 0.7, row, 1.2, BOX_H, width, kind="linear", code=f"{parts.ff}.{gate}"))
    for box in ups:
        _arrow(ax, norm.top, (norm.x, norm.top[1] + 0.1), (box.x, norm.top[1] + 0.1), box.bottom)
    act = _box(ax, up.x, row + 0.55, 1.0, 0.3, parts.activation, kind="ffn", gid="activation")
    _arrow(ax, up.top, act.bottom)
    top = act.top
    if gate is not None:  # SwiGLU: the activation's output times the gate's map
        times = _box(ax, BRANCH_X, act.y + 0.45, 0.3, 0.3, "×", kind="ffn", gid="gate")
        _arrow(ax, act.top, (act.x, times.y), times.left)
        _arrow(ax, ups[1].top, (ups[1].x, times.y), times.right)
        top = times.top
    down = _box(ax, BRANCH_X, top[1] + 0.45, 1.2, BOX_H, "back to d_model", kind="linear", code=f"{parts.ff}.{second}")
    _arrow(ax, top, down.bottom)
    return down


def _block(ax: Axes, parts: _BlockParts) -> float:
    """Draw one block, bottom up, on ``ax``; returns the height its drawing reaches, in inches."""
    _text(ax, STREAM_X, 0.2, "x", fontstyle="italic")
    _text(ax, STREAM_X - 0.16, 0.9, "residual", size=SMALL, colour=STREAM, rotation=90)
    y = 0.4
    for branch in (_attention_branch, _feed_forward_branch):
        _dot(ax, STREAM_X, y)
        out = branch(ax, y, parts)
        plus = _plus(ax, STREAM_X, out.top[1] + 0.25)
        _arrow(ax, (STREAM_X, y), plus.bottom, colour=STREAM, width=2.0)
        _arrow(ax, out.top, (out.x, plus.y), plus.right)
        y = plus.top[1] + 0.2
        _arrow(ax, plus.top, (STREAM_X, y), colour=STREAM, width=2.0, head=False)
    _arrow(ax, (STREAM_X, y), (STREAM_X, y + 0.15), colour=STREAM, width=2.0)
    _text(ax, STREAM_X, y + 0.27, "output", ha="center")
    return y + 0.45


def _title(ax: Axes, height: float, title: str, parts: _BlockParts) -> None:
    """The panel's title and, below it, whether the block has biases, at the top of a panel ``height`` tall."""
    _text(ax, PANEL_W / 2, height - 0.2, title, fontweight="bold")
    _text(ax, PANEL_W / 2, height - 0.42, parts.biases, size=SMALL, colour=MUTED, gid="biases")


def decoder_blocks(blocks: Mapping[str, nn.Module]) -> Figure:
    """Pre-LN decoder-only blocks side by side, one panel each (keyed by its title), data flowing up.

    Each panel is read from its :class:`~course_lib.blocks.DecoderBlock`: the residual stream runs up the
    left; the attention branch normalises (the norm's class named), maps to queries, keys and values (with
    their head counts; "RoPE" boxes rotate queries and keys when the attention holds a rotary embedding),
    attends causally and maps back; the feed-forward branch normalises, widens to ``d_ff`` (two maps and a
    product when it is gated, as SwiGLU is), applies its activation and maps back to ``d_model``. A note
    under the title says whether the block has biases. Boxes carry the block's own submodule names.
    TypeError for a block that is not a DecoderBlock; ValueError for an empty mapping, a block with
    cross-attention or one that is not pre-LN.
    """
    if not blocks:
        raise ValueError("blocks is empty: give at least one titled DecoderBlock")
    parts = {title: _parts(block) for title, block in blocks.items()}
    fig = _figure(PANEL_W * len(parts), 1.0)
    axes = [_panel(fig, i * PANEL_W, 0, PANEL_W, 1.0) for i in range(len(parts))]
    height = max(_block(ax, part) for ax, part in zip(axes, parts.values(), strict=True)) + 0.6
    fig.set_size_inches(PANEL_W * len(parts), height)  # every panel as tall as the tallest, one inch a unit
    for ax, (title, part) in zip(axes, parts.items(), strict=True):
        ax.set_ylim(0, height)
        _title(ax, height, title, part)
    return fig
