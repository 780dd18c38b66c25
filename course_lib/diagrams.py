"""Schematic figures drawn by code: the shapes through multi-head attention, the three block
arrangements, the GPT stack and the KV cache.

Each function returns a :class:`~matplotlib.figure.Figure` whose axes are laid out in inches (one
data unit is one inch of the figure), so the boxes, arrows and labels keep their sizes and spacing
whatever the arguments. Labels use the library's own names (``q_proj``, ``split_heads``, ``norm1``,
``wte``, ...) in a monospaced font, and the book's shape symbols (``(B, h, T, d_head)``).

Patches carry a ``gid`` naming what they stand for (``"head-slice"``, ``"cache-new"``, ...), which
is how the tests count them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import text_to_path

from .blocks import ARRANGEMENTS, Arrangement

__all__ = ["block_arrangements", "gpt_stack", "kv_cache_steps", "multi_head_shapes"]

Point = tuple[float, float]

FONT = 9  # labels
SMALL = 8  # code names, shapes, notes
INK = "#2b2b2b"  # outlines, arrows, text
MUTED = "#6b6b6b"  # secondary text and guide lines
STREAM = "#1f4e79"  # the residual stream
FILL = {
    "tensor": "#dbe9f6",
    "data": "#eeeeee",
    "linear": "#fde3c8",
    "norm": "#d5efcf",
    "attention": "#e6dbf2",
    "ffn": "#fff1b0",
    "embedding": "#f7d6e2",
    "new": "#f4a261",
    "query": "#c9e4de",
}
HEAD_COLOURS = ("#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#d9d9d9")
TITLE = {"post_ln": "post-LN", "pre_ln": "pre-LN", "parallel": "parallel"}
FORMULAS = {  # what course_lib.blocks computes, in the book's notation
    "post_ln": ("x = LN(x + Attn(x))", "x = LN(x + FFN(x))"),
    "pre_ln": ("x = x + Attn(LN(x))", "x = x + FFN(LN(x))"),
    "parallel": ("h = LN(x)", "x = x + Attn(h) + FFN(h)"),
}


# --------------------------------------------------------------------------------- drawing kit


@dataclass(frozen=True)
class _Box:
    """Where a drawn shape is, in inches: its centre and size. Arrows attach to its sides."""

    x: float
    y: float
    w: float
    h: float

    @property
    def left(self) -> Point:
        return (self.x - self.w / 2, self.y)

    @property
    def right(self) -> Point:
        return (self.x + self.w / 2, self.y)

    @property
    def top(self) -> Point:
        return (self.x, self.y + self.h / 2)

    @property
    def bottom(self) -> Point:
        return (self.x, self.y - self.h / 2)


def _figure(width: float, height: float) -> Figure:
    """An empty figure of ``width x height`` inches (through pyplot, so notebooks show it)."""
    return plt.figure(figsize=(width, height))


def _panel(fig: Figure, left: float, bottom: float, width: float, height: float) -> Axes:
    """Axes at ``(left, bottom)`` inches from the figure's lower left, measured in inches, no frame."""
    fig_w, fig_h = fig.get_size_inches()
    ax = fig.add_axes((left / fig_w, bottom / fig_h, width / fig_w, height / fig_h))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    return ax


def _canvas(width: float, height: float) -> tuple[Figure, Axes]:
    """A figure of ``width x height`` inches and one axes covering it, in inches."""
    fig = _figure(width, height)
    return fig, _panel(fig, 0, 0, width, height)


def _text(ax: Axes, x: float, y: float, s: str, *, size: float = FONT, code: bool = False, colour: str = INK, **kwargs: Any) -> None:
    """A label centred on ``(x, y)`` unless ``ha``/``va`` say otherwise; ``code`` sets it monospaced."""
    kwargs = {"ha": "center", "va": "center", **kwargs}
    ax.text(x, y, s, fontsize=size, color=colour, family="monospace" if code else "sans-serif", **kwargs)


def _box(ax: Axes, x: float, y: float, w: float, h: float, label: str, *, kind: str, code: str | None = None, gid: str | None = None) -> _Box:
    """A rounded box centred on ``(x, y)``, filled by ``kind``, with a label and, below it, a code name."""
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=0.05", facecolor=FILL[kind], edgecolor=INK, linewidth=1.0, gid=gid or kind))
    if code is None:
        _text(ax, x, y, label)
    else:
        _text(ax, x, y + 0.075, label)
        _text(ax, x, y - 0.09, code, size=SMALL, code=True)
    return _Box(x, y, w, h)


def _arrow(ax: Axes, *points: Point, colour: str = INK, width: float = 1.2, dashed: bool = False, head: bool = True) -> None:
    """A line through ``points`` (at least two), with an arrowhead at the last one if ``head``."""
    ax.add_patch(
        FancyArrowPatch(
            path=Path(list(points)),
            arrowstyle="-|>" if head else "-",
            mutation_scale=9,
            color=colour,
            linewidth=width,
            linestyle="--" if dashed else "-",
            shrinkA=0,
            shrinkB=0,
            joinstyle="miter",
        )
    )


def _plus(ax: Axes, x: float, y: float) -> _Box:
    """An addition node centred on ``(x, y)``: a circle with a "+" in it."""
    ax.add_patch(Circle((x, y), 0.12, facecolor="white", edgecolor=INK, linewidth=1.2, gid="add"))
    _text(ax, x, y, "+", size=11, fontweight="bold")
    return _Box(x, y, 0.24, 0.24)


def _dot(ax: Axes, x: float, y: float, colour: str = STREAM) -> None:
    """A branch point: where a line splits in two."""
    ax.add_patch(Circle((x, y), 0.035, facecolor=colour, edgecolor=colour, gid="branch"))


def _key(ax: Axes, x: float, y: float, fill: str, label: str) -> None:
    """A legend entry: a small filled square at ``(x, y)`` and its label to the right."""
    ax.add_patch(Rectangle((x, y - 0.07), 0.14, 0.14, facecolor=fill, edgecolor=INK, linewidth=0.8, gid="key"))
    _text(ax, x + 0.22, y, label, size=SMALL, ha="left")


def _check_int(name: str, value: int, low: int, high: int | None = None) -> None:
    """Raise TypeError unless ``value`` is an int, ValueError unless ``low <= value <= high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"at least {low}" if high is None else f"from {low} to {high}"
        raise ValueError(f"{name} must be {allowed}, got {value}")


# ------------------------------------------------------------------------ multi-head attention


def _sheet(ax: Axes, x: float, y: float, w: float, h: float, colours: Sequence[str]) -> None:
    """A tensor drawn as one sheet with lower left corner ``(x, y)``, in vertical bands of ``colours``
    (one band per head's features: ``split_heads`` gives head ``i`` the ``i``-th ``d_head`` of them)."""
    band = w / len(colours)
    for i, colour in enumerate(colours):
        ax.add_patch(Rectangle((x + i * band, y), band, h, facecolor=colour, edgecolor="none", gid="band"))
    ax.add_patch(Rectangle((x, y), w, h, facecolor="none", edgecolor=INK, linewidth=1.0, gid="tensor"))


def _stack(ax: Axes, x: float, y: float, w: float, h: float, n_heads: int, depth: float) -> _Box:
    """``n_heads`` slices of ``w x h`` inches, head 0 in front with lower left ``(x, y)`` and the others
    behind it, up and to the right. Returns the box of the front slice."""
    step = depth / (n_heads - 1) if n_heads > 1 else 0.0
    for head in reversed(range(n_heads)):
        colour = HEAD_COLOURS[head % len(HEAD_COLOURS)]
        ax.add_patch(Rectangle((x + head * step, y + head * step), w, h, facecolor=colour, edgecolor=INK, linewidth=0.9, gid="head-slice"))
    return _Box(x + w / 2, y + h / 2, w, h)


def _text_width(s: str, size: float) -> float:
    """The width of ``s`` set in ``size``-point sans-serif, in inches."""
    width, _, _ = text_to_path.get_text_width_height_descent(s, FontProperties(family="sans-serif", size=size), ismath=False)
    return width / 72


@dataclass(frozen=True)
class _ShapeLabel:
    """A tensor's name, its symbolic shape and its sizes: three lines centred under its drawing."""

    name: str
    symbols: str
    numbers: tuple[int, ...]

    @property
    def lines(self) -> tuple[tuple[str, float, str], ...]:
        sizes = "(" + ", ".join(map(str, self.numbers)) + ")"
        return ((self.name, FONT, INK), (self.symbols, SMALL, INK), (sizes, SMALL, MUTED))

    @property
    def width(self) -> float:
        return max(_text_width(line, size) for line, size, _ in self.lines)

    def draw(self, ax: Axes, x: float, top: float) -> None:
        for (line, size, colour), y in zip(self.lines, (top, top - 0.17, top - 0.32), strict=True):
            _text(ax, x, y, line, size=size, colour=colour, va="top")


def _next_column(left: float, width: float, label: _ShapeLabel, gap: float, next_width: float, next_label: _ShapeLabel) -> float:
    """The left edge of the drawing after the one at ``left``: at least ``gap`` after it (room for
    the arrow and its label), and far enough that the two shape labels keep 0.15 inch apart."""
    apart = left + width / 2 + (label.width + next_label.width) / 2 + 0.15 - next_width / 2
    return max(left + width + gap, apart)


def multi_head_shapes(B: int = 2, T: int = 5, d_model: int = 12, n_heads: int = 3) -> Figure:
    """The shapes of the tensors inside :class:`~course_lib.attention.MultiHeadAttention`.

    Left to right: ``x (B, T, d_model)``; ``q_proj``, ``k_proj``, ``v_proj`` give ``q, k, v`` of the
    same shape; ``split_heads`` cuts each into ``h`` slices ``(B, h, T, d_head)`` (drawn as stacked
    sheets, one colour per head, the colour of the feature band each head takes); the scores
    ``q k^T / sqrt(d_head)`` and their softmax, the weights, are ``(B, h, T, T)``; ``weights @ v`` is
    ``(B, h, T, d_head)``; ``merge_heads`` puts the heads' bands side by side again,
    ``(B, T, d_model)``, and ``out_proj`` mixes them. Each tensor is labelled with its symbolic shape
    and the sizes for the given arguments. Sheets are schematic, not to scale; the batch axis is not
    drawn.
    """
    for name, value in (("B", B), ("T", T), ("d_model", d_model)):
        _check_int(name, value, 1)
    _check_int("n_heads", n_heads, 1, 16)
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_head = d_model // n_heads
    h = n_heads
    full, tall = 0.55, 0.3  # d_model wide, T tall
    narrow, depth = full / h, min(0.07 * (h - 1), 0.16)  # d_head wide; how far the last head sits behind the first
    split, square = narrow + depth, tall + depth  # the widths of the per-head stacks
    wide = ("(B, T, d_model)", (B, T, d_model))
    labels = {
        "x": _ShapeLabel("x", *wide),
        "qkv": _ShapeLabel("q, k, v (each)", *wide),
        "heads": _ShapeLabel("per head (each)", "(B, h, T, d_head)", (B, h, T, d_head)),
        "scores": _ShapeLabel("scores", "(B, h, T, T)", (B, h, T, T)),
        "weights": _ShapeLabel("weights", "(B, h, T, T)", (B, h, T, T)),
        "out": _ShapeLabel("weights @ v", "(B, h, T, d_head)", (B, h, T, d_head)),
        "merged": _ShapeLabel("merged", *wide),
        "output": _ShapeLabel("output", *wide),
    }
    # Left edges of the drawings, left to right; labels side by side at the same height keep apart.
    x0 = max(0.2, labels["x"].width / 2 + 0.1 - full / 2)
    bus, c1 = x0 + full + 0.3, x0 + full + 0.95  # where x fans out to q, k, v; the q, k, v column
    c2 = _next_column(c1, full, labels["qkv"], 1.0, split, labels["heads"])
    c3 = c2 + split + 0.95
    c4 = _next_column(c3, square, labels["scores"], 0.65, square, labels["weights"])
    c5 = c4 + square + 0.45
    c6 = _next_column(c5, split, labels["out"], 0.88, full, labels["merged"])
    c7 = _next_column(c6, full, labels["merged"], 0.65, full, labels["output"])
    fig, ax = _canvas(c7 + full / 2 + max(full, labels["output"].width) / 2 + 0.1, 3.05)
    _text(ax, 0.15, 2.88, f"B = {B},  T = {T},  d_model = {d_model},  h = n_heads = {h},  d_head = d_model / h = {d_head}", ha="left")
    heads = [HEAD_COLOURS[i % len(HEAD_COLOURS)] for i in range(h)]
    lane = {"q": 2.25, "k": 1.55, "v": 0.85}  # centre heights of the q, k, v sheets
    main = (lane["q"] + lane["k"]) / 2  # scores and weights, where q and k meet
    under = 0.22  # from a sheet's centre to the top of its label

    # x -> q, k, v (one projection each)
    _sheet(ax, x0, lane["k"] - tall / 2, full, tall, [FILL["tensor"]])
    labels["x"].draw(ax, x0 + full / 2, lane["k"] - under)
    _arrow(ax, (x0 + full, lane["k"]), (bus, lane["k"]), head=False)
    _arrow(ax, (bus, lane["q"]), (bus, lane["v"]), head=False)
    for t, y in lane.items():
        _arrow(ax, (bus, y), (c1, y))
        _text(ax, (bus + c1) / 2, y + 0.1, f"{t}_proj", size=SMALL, code=True)
        _sheet(ax, c1, y - tall / 2, full, tall, heads)
        _text(ax, c1 - 0.03, y + tall / 2 + 0.1, t, ha="right", fontstyle="italic")
    labels["qkv"].draw(ax, c1 + full / 2, lane["v"] - under)

    # split_heads: (B, h, T, d_head) per tensor
    for t, y in lane.items():
        _arrow(ax, (c1 + full, y), (c2, y))
        _stack(ax, c2, y - tall / 2, narrow, tall, h, depth)
        _text(ax, c2 - 0.03, y + tall / 2 + 0.1, t, ha="right", fontstyle="italic")
    _text(ax, (c1 + full + c2) / 2 - 0.06, lane["q"] + 0.1, "split_heads", size=SMALL, code=True)
    labels["heads"].draw(ax, c2 + split / 2, lane["v"] - under)

    # scores and weights: (B, h, T, T)
    _stack(ax, c3, main - tall / 2, tall, tall, h, depth)
    for t, end in (("q", 0.06), ("k", -0.06)):
        _arrow(ax, (c2 + split, lane[t]), (c2 + split + 0.3, lane[t]), (c3, main + end))
    _text(ax, (c2 + split + c3) / 2, lane["q"] + 0.13, r"$q\,k^{\top} / \sqrt{d_{head}}$")
    labels["scores"].draw(ax, c3 + square / 2, main - under)
    weights = _stack(ax, c4, main - tall / 2, tall, tall, h, depth)
    _arrow(ax, (c3 + square, main), weights.left)
    _text(ax, (c3 + square + c4) / 2, main + 0.1, "softmax", size=SMALL, code=True)
    labels["weights"].draw(ax, c4 + square / 2, main - under)

    # weights @ v, merge_heads, out_proj: back to (B, T, d_model), on the v lane
    out = _stack(ax, c5, lane["v"] - tall / 2, narrow, tall, h, depth)
    _arrow(ax, (c4 + square, main), (out.x, main), (out.x, lane["v"] + tall / 2 + depth + 0.02))
    _arrow(ax, (c2 + split, lane["v"]), out.left)
    _text(ax, (c2 + split + c5) / 2, lane["v"] + 0.1, "v", fontstyle="italic")
    labels["out"].draw(ax, c5 + split / 2, lane["v"] - under)
    _arrow(ax, (c5 + split, lane["v"]), (c6, lane["v"]))
    _text(ax, (c5 + split + c6) / 2, lane["v"] + 0.1, "merge_heads", size=SMALL, code=True)
    _sheet(ax, c6, lane["v"] - tall / 2, full, tall, heads)
    labels["merged"].draw(ax, c6 + full / 2, lane["v"] - under)
    _arrow(ax, (c6 + full, lane["v"]), (c7, lane["v"]))
    _text(ax, (c6 + full + c7) / 2, lane["v"] + 0.1, "out_proj", size=SMALL, code=True)
    _sheet(ax, c7, lane["v"] - tall / 2, full, tall, [FILL["tensor"]])
    labels["output"].draw(ax, c7 + full / 2, lane["v"] - under)
    return fig


# ---------------------------------------------------------------------------- block arrangements

# One panel per arrangement, in inches: the residual stream runs up the left at STREAM_X, sub-layers
# sit on branches to its right.
PANEL_W, PANEL_H = 3.3, 4.8
STREAM_X, BRANCH_X, BRANCH2_X = 0.7, 1.75, 2.8
BOX_W, BOX_H = 0.9, 0.36
SUBLAYER = {"attn": ("Attn", "self_attn", "attention"), "ffn": ("FFN", "ff", "ffn")}  # label, code name, kind


def _stream(ax: Axes, y0: float, y1: float, *, head: bool = True) -> None:
    """The residual stream from height ``y0`` up to ``y1``."""
    _arrow(ax, (STREAM_X, y0), (STREAM_X, y1), colour=STREAM, width=2.0, head=head)


def _branch_out(ax: Axes, y: float) -> None:
    """A branch point on the stream at height ``y`` and the line out to the branch column."""
    _dot(ax, STREAM_X, y)
    _arrow(ax, (STREAM_X, y), (BRANCH_X, y), head=False)


def _sublayer(ax: Axes, x: float, y: float, which: str) -> _Box:
    """The attention (``which="attn"``) or feed-forward (``"ffn"``) sub-layer's box, centred on ``(x, y)``."""
    label, code, kind = SUBLAYER[which]
    return _box(ax, x, y, BOX_W, BOX_H, label, kind=kind, code=code)


def _norm(ax: Axes, x: float, y: float, code: str) -> _Box:
    """A LayerNorm's box, centred on ``(x, y)``, with the block's name for it (``norm1``, ...)."""
    return _box(ax, x, y, BOX_W, BOX_H, "LN", kind="norm", code=code)


def _add_back(ax: Axes, top: Point, plus: _Box) -> None:
    """A branch's output, from the top of its last box up and left into the right of the "+" node."""
    _arrow(ax, top, (top[0], plus.y), plus.right)


def _post_ln(ax: Axes) -> float:
    """``x = LN(x + Attn(x))``, ``x = LN(x + FFN(x))``: the norms sit on the stream. Returns the top."""
    y = 0.6
    for which, norm in (("attn", "norm1"), ("ffn", "norm2")):
        _branch_out(ax, y)
        sub = _sublayer(ax, BRANCH_X, y + 0.36, which)
        _arrow(ax, (BRANCH_X, y), sub.bottom)
        plus = _plus(ax, STREAM_X, sub.y + 0.42)
        _stream(ax, y, plus.bottom[1])
        _add_back(ax, sub.top, plus)
        ln = _norm(ax, STREAM_X, plus.y + 0.42, norm)
        _stream(ax, plus.top[1], ln.bottom[1])
        y = ln.top[1] + 0.2
        _stream(ax, ln.top[1], y, head=False)
    return y


def _pre_ln(ax: Axes) -> float:
    """``x = x + Attn(LN(x))``, ``x = x + FFN(LN(x))``: the stream is never normalised. Returns the top."""
    y = 0.6
    for which, norm in (("attn", "norm1"), ("ffn", "norm2")):
        _branch_out(ax, y)
        ln = _norm(ax, BRANCH_X, y + 0.38, norm)
        _arrow(ax, (BRANCH_X, y), ln.bottom)
        sub = _sublayer(ax, BRANCH_X, ln.y + 0.5, which)
        _arrow(ax, ln.top, sub.bottom)
        plus = _plus(ax, STREAM_X, sub.y + 0.42)
        _stream(ax, y, plus.bottom[1])
        _add_back(ax, sub.top, plus)
        y = plus.top[1] + 0.2
        _stream(ax, plus.top[1], y, head=False)
    return y


def _parallel(ax: Axes) -> float:
    """``x = x + Attn(LN(x)) + FFN(LN(x))`` with one LN (``norm1``) feeding both branches: two
    additions onto the stream. Returns the top."""
    y = 0.6
    _branch_out(ax, y)
    ln = _norm(ax, BRANCH_X, y + 0.38, "norm1")
    _arrow(ax, (BRANCH_X, y), ln.bottom)
    split = ln.top[1] + 0.14
    attn = _sublayer(ax, BRANCH_X, split + 0.36, "attn")
    ffn = _sublayer(ax, BRANCH2_X, split + 0.36, "ffn")
    _arrow(ax, ln.top, attn.bottom)
    _dot(ax, BRANCH_X, split, colour=INK)
    _arrow(ax, (BRANCH_X, split), (BRANCH2_X, split), ffn.bottom)
    first = _plus(ax, STREAM_X, attn.y + 0.42)
    second = _plus(ax, STREAM_X, first.y + 0.45)
    _stream(ax, y, first.bottom[1])
    _add_back(ax, attn.top, first)
    _stream(ax, first.top[1], second.bottom[1])
    _add_back(ax, ffn.top, second)
    top = second.top[1] + 0.2
    _stream(ax, second.top[1], top, head=False)
    return top


def block_arrangements(arrangements: Sequence[Arrangement] = ARRANGEMENTS) -> Figure:
    """The block arrangements of :mod:`course_lib.blocks` side by side, one panel each, data flowing up.

    The residual stream (thick, blue) runs up the left of each panel from the input ``x``; each
    sub-layer sits on a branch and its output is added back at a "+" node, the skip connection being
    the stream itself. **post-LN** adds ``Attn(x)`` then normalises the stream (``norm1``), then the
    same with ``FFN`` and ``norm2``. **pre-LN** normalises only the branch's input, so the stream goes
    straight from input to output through the two additions. **parallel** normalises once (``norm1``)
    and feeds the result to attention and the feed-forward network side by side; both are added to
    the stream (``x + attn(h) + ff(h)``: two additions). Boxes name the ``EncoderBlock``/``DecoderBlock``
    submodules (``self_attn``, ``ff``, ``norm1``, ``norm2``); each panel's title gives its formula.
    """
    if not arrangements:
        raise ValueError("arrangements is empty: name at least one of " + ", ".join(ARRANGEMENTS))
    for arrangement in arrangements:
        if arrangement not in ARRANGEMENTS:
            raise ValueError(f"arrangement must be one of {ARRANGEMENTS}, got {arrangement!r}")
    draw = {"post_ln": _post_ln, "pre_ln": _pre_ln, "parallel": _parallel}
    fig = _figure(PANEL_W * len(arrangements), PANEL_H)
    for i, arrangement in enumerate(arrangements):
        ax = _panel(fig, i * PANEL_W, 0, PANEL_W, PANEL_H)
        _text(ax, STREAM_X, 0.38, "x", fontstyle="italic", va="top")
        _text(ax, STREAM_X - 0.14, 0.95, "residual", size=SMALL, colour=STREAM, rotation=90)
        _stream(ax, 0.4, 0.6, head=False)
        top = draw[arrangement](ax)
        _arrow(ax, (STREAM_X, top - 0.01), (STREAM_X, top + 0.15), colour=STREAM, width=2.0)
        _text(ax, STREAM_X + 0.1, top + 0.1, "output", ha="left")
        _text(ax, 0.15, PANEL_H - 0.2, TITLE[arrangement], size=10, fontweight="bold", ha="left")
        for line, formula in enumerate(FORMULAS[arrangement]):
            _text(ax, 0.15, PANEL_H - 0.45 - 0.17 * line, formula, size=SMALL, code=True, ha="left")
    return fig


# ------------------------------------------------------------------------------------ GPT stack


def gpt_stack(n_layers_shown: int = 3, n_layers: int | None = None) -> Figure:
    """The GPT of :mod:`course_lib.gpt`, left to right, with one block opened up below.

    Token ids ``idx (B, T)`` are embedded by ``wte`` (a ``(V, d_model)`` table) and the learned
    position embeddings ``wpe`` are added; the ``L`` blocks ``blocks[0] .. blocks[L-1]`` follow
    (``n_layers_shown`` of them drawn, with "..." for the rest when ``n_layers`` is None or larger),
    then the final LayerNorm ``ln_f`` and the LM head ``lm_head``, which gives the logits
    ``(B, T, V)``. A dashed line joins ``lm_head`` to ``wte``: the head has no weights of its own but
    uses the embedding matrix, transposed (weight tying). Below, the inside of each block: a pre-LN
    ``DecoderBlock`` without cross-attention (``norm1``, causal ``self_attn``, ``norm2``, ``ff``,
    each branch added to the residual stream). Dropout (``drop``) is not drawn.
    """
    _check_int("n_layers_shown", n_layers_shown, 1, 3)
    if n_layers is not None:
        _check_int("n_layers", n_layers, n_layers_shown)
    last = "L-1" if n_layers is None else str(n_layers - 1)
    shown = [f"blocks[{i}]" for i in range(n_layers_shown - 1)] + [f"blocks[{last}]"]
    elided = n_layers is None or n_layers > n_layers_shown
    if n_layers_shown == 1 and n_layers != 1:  # one box stands for every block
        shown, elided = ["blocks[i]"], False
    fig, ax = _canvas(10.0, 4.3)
    row, h, gap = 2.75, 0.5, 0.2  # the stack's centre line, its boxes' height, the arrows' length

    idx = _box(ax, 0.45, row, 0.75, h, "token ids", kind="data", code="idx (B, T)")
    wte = _box(ax, idx.right[0] + gap + 0.7, row, 1.4, h, "token embedding", kind="embedding", code="wte (V, d_model)")
    _arrow(ax, idx.right, wte.left)
    wpe = _box(ax, wte.x, row - 0.85, 1.4, h, "position embedding", kind="embedding", code="wpe")
    _text(ax, wpe.x, wpe.bottom[1] - 0.08, "positions 0 .. T-1", size=SMALL, colour=MUTED, va="top")
    plus = _plus(ax, wte.right[0] + 0.3, row)
    _arrow(ax, wte.right, plus.left)
    _arrow(ax, wpe.right, (plus.x, wpe.y), plus.bottom)

    x = plus.right[0]  # the right edge of what is drawn so far
    drawn: list[_Box] = []
    for i, name in enumerate(shown):
        if elided and i == len(shown) - 1:
            _arrow(ax, (x, row), (x + 0.1, row), head=False)
            _text(ax, x + 0.25, row, "...", size=11)
            x += 0.4
        block = _box(ax, x + gap + 0.44, row, 0.88, h, "block", kind="attention", code=name, gid="block")
        _arrow(ax, (x, row), block.left)
        drawn.append(block)
        x = block.right[0]
    count = "L = n_layers" if n_layers is None else f"L = n_layers = {n_layers}"
    if n_layers != 1:
        count = f"{count} blocks" if len(shown) > 1 else f"each of the {count} blocks"
    _text(ax, (drawn[0].left[0] + x) / 2, row + h / 2 + 0.15, count, size=SMALL, colour=MUTED)
    ln_f = _box(ax, x + gap + 0.4, row, 0.8, h, "final LN", kind="norm", code="ln_f")
    _arrow(ax, (x, row), ln_f.left)
    head = _box(ax, ln_f.right[0] + gap + 0.45, row, 0.9, h, "LM head", kind="linear", code="lm_head")
    _arrow(ax, ln_f.right, head.left)
    logits = _box(ax, head.right[0] + gap + 0.45, row, 0.9, h, "logits", kind="data", code="(B, T, V)")
    _arrow(ax, head.right, logits.left)

    tie = row + 0.85  # the dashed line joining the tied matrices
    _arrow(ax, wte.top, (wte.x, tie), (head.x, tie), head.top, colour=MUTED, dashed=True, head=False)
    _text(ax, (wte.x + head.x) / 2, tie + 0.25, "same matrix (weight tying): lm_head.weight is wte.weight,", size=SMALL, va="bottom")
    _text(ax, (wte.x + head.x) / 2, tie + 0.08, "used transposed: logits = x @ wte.weight.T", size=SMALL, va="bottom")

    # One block opened up, its stream left to right: pre-LN, causal self-attention, no cross-attention.
    left, bottom, top = wpe.right[0] + 0.45, 0.1, 1.85
    stream, branch = 1.2, 0.55  # heights of the residual stream and of the branches
    _text(ax, left + 0.12, top - 0.17, "inside each block: a pre-LN DecoderBlock, no cross-attention", size=SMALL, ha="left")
    _text(ax, left + 0.15, stream, "x", fontstyle="italic")
    xs = left + 0.25
    for norm, label, code, kind, width in (("norm1", "causal attention", "self_attn", "attention", 1.15), ("norm2", "FFN", "ff", "ffn", 0.8)):
        split = xs + 0.2
        _arrow(ax, (xs, stream), (split, stream), colour=STREAM, width=2.0, head=False)
        _dot(ax, split, stream)
        ln = _box(ax, split + 0.25 + 0.35, branch, 0.7, 0.4, "LN", kind="norm", code=norm)
        _arrow(ax, (split, stream), (split, branch), ln.left)
        sub = _box(ax, ln.right[0] + 0.18 + width / 2, branch, width, 0.4, label, kind=kind, code=code)
        _arrow(ax, ln.right, sub.left)
        add = _plus(ax, sub.right[0] + 0.28, stream)
        _arrow(ax, sub.right, (add.x, branch), add.bottom)
        _arrow(ax, (split, stream), add.left, colour=STREAM, width=2.0)
        xs = add.right[0]
    _arrow(ax, (xs, stream), (xs + 0.3, stream), colour=STREAM, width=2.0)
    _text(ax, xs + 0.36, stream, "output", ha="left")
    right = xs + 0.95
    ax.add_patch(FancyBboxPatch((left, bottom), right - left, top - bottom, boxstyle="round,pad=0,rounding_size=0.08", facecolor="#f7f7fb", edgecolor=MUTED, linewidth=1.0, zorder=0.5, gid="detail"))
    for corner, end in ((drawn[0].left[0], left), (drawn[0].right[0], right)):
        _arrow(ax, (corner, row - h / 2), (end, top), colour=MUTED, width=0.8, dashed=True, head=False)
    return fig


# ------------------------------------------------------------------------------------- KV cache


def kv_cache_steps(n_steps: int = 4, prompt_len: int = 3) -> Figure:
    """A :class:`~course_lib.attention.KVCache` growing while GPT generates, one row per forward pass.

    Row 0 feeds the prompt's ``prompt_len`` positions at once: their keys ``k_j`` and values ``v_j``
    fill the empty cache, and each of their queries attends causally (to its own and earlier
    positions). Each of the ``n_steps`` rows after it feeds one token, the one sampled at the step
    before: one new key and value are appended (highlighted) after the ``P - 1`` held ones
    (``KVCache.append``, along the time axis), and the single new query attends to all ``P`` of them.
    The right of each row gives the cache's shape ``(B, h, P, d_head)`` with ``P`` after the row,
    ``prompt_len + s`` after step ``s``.
    """
    _check_int("n_steps", n_steps, 1)
    _check_int("prompt_len", prompt_len, 1)
    most = prompt_len + n_steps
    if most > 12:
        raise ValueError(f"prompt_len + n_steps must be at most 12 (the positions a row has room for), got {most}")
    width, row_h, key_h = 10.0, 1.1, 0.42
    fig = _figure(width, row_h * (n_steps + 1) + key_h)
    cells_left, pitch = 1.85, min(0.7, 5.4 / most)  # where position 0 is drawn; one position's width
    cell = pitch - 0.08
    legend = _panel(fig, 0, row_h * (n_steps + 1), width, key_h)
    _key(legend, 0.15, 0.2, FILL["tensor"], "held in the cache (computed at an earlier pass)")
    _key(legend, 3.65, 0.2, FILL["new"], "new this pass: computed, then appended by KVCache.append")
    _key(legend, 7.6, 0.2, FILL["query"], "query of a position fed this pass")
    for step in range(n_steps + 1):
        ax = _panel(fig, 0, row_h * (n_steps - step), width, row_h)
        fed = range(prompt_len) if step == 0 else range(prompt_len + step - 1, prompt_len + step)
        P = prompt_len + step
        if step == 0:
            _text(ax, 0.15, 0.66, "prompt", fontweight="bold", ha="left")
            _text(ax, 0.15, 0.46, f"feeds positions 0 .. {prompt_len - 1}", size=SMALL, ha="left")
        else:
            _text(ax, 0.15, 0.66, f"step {step}", fontweight="bold", ha="left")
            _text(ax, 0.15, 0.46, f"feeds position {P - 1}", size=SMALL, ha="left")
        for j in range(P):  # key k_j above value v_j; gids "cache-new", "cache-new-v", "cache-held", ...
            x = cells_left + j * pitch
            state = "new" if j in fed else "held"
            for name, y, suffix in (("k", 0.3, ""), ("v", 0.08, "-v")):
                ax.add_patch(Rectangle((x, y), cell, 0.2, facecolor=FILL["new" if j in fed else "tensor"], edgecolor=INK, linewidth=0.9, gid=f"cache-{state}{suffix}"))
                _text(ax, x + cell / 2, y + 0.1, f"${name}_{{{j}}}$", size=SMALL)
        for i in fed:
            q = _box(ax, cells_left + i * pitch + cell / 2, 0.95, min(cell, 0.45), 0.22, f"$q_{{{i}}}$", kind="query", gid="query")
            # causal: position i attends to positions 0 .. i; the arrows from different queries meet
            # each key at different points along its top
            at = (i - fed[0] + 1) / (len(fed) + 1)
            for j in range(i + 1):
                _arrow(ax, q.bottom, (cells_left + j * pitch + at * cell, 0.5), colour=MUTED if step == 0 else INK, width=0.7)
        queries = f"queries (B, h, {prompt_len}, d_head)" if step == 0 else "query (B, h, 1, d_head)"
        _text(ax, 7.55, 0.66, f"k, v: (B, h, P, d_head), P = {P}", size=SMALL, ha="left")
        _text(ax, 7.55, 0.46, queries, size=SMALL, ha="left", colour=MUTED)
        if step < n_steps:
            ax.axhline(0.0, xmin=0.015, xmax=0.985, color="#dddddd", linewidth=0.8)
    return fig
