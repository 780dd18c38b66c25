"""The shapes of the tensors inside multi-head attention (chapter 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ._kit import (
    FILL,
    FONT,
    HEAD_COLOURS,
    INK,
    MUTED,
    SMALL,
    _arrow,
    _Box,
    _canvas,
    _check_int,
    _text,
    _text_width,
)

__all__ = ["multi_head_shapes"]


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
        ax.add_patch(
            Rectangle(
                (x + head * step, y + head * step),
                w,
                h,
                facecolor=colour,
                edgecolor=INK,
                linewidth=0.9,
                gid="head-slice",
            )
        )
    return _Box(x + w / 2, y + h / 2, w, h)


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


def _next_column(
    left: float, width: float, label: _ShapeLabel, gap: float, next_width: float, next_label: _ShapeLabel
) -> float:
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
    _text(
        ax,
        0.15,
        2.88,
        f"B = {B},  T = {T},  d_model = {d_model},  h = n_heads = {h},  d_head = d_model / h = {d_head}",
        ha="left",
    )
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
