"""The three block arrangements of :mod:`course_lib.blocks`: post-LN, pre-LN and parallel (chapter 2)."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..blocks import ARRANGEMENTS, Arrangement
from ._kit import (
    INK,
    SMALL,
    STREAM,
    Point,
    _arrow,
    _Box,
    _box,
    _dot,
    _figure,
    _panel,
    _plus,
    _text,
)

__all__ = ["STREAM_X", "block_arrangements"]

TITLE = {"post_ln": "post-LN", "pre_ln": "pre-LN", "parallel": "parallel"}
FORMULAS = {  # what course_lib.blocks computes, in the book's notation
    "post_ln": ("x = LN(x + Attn(x))", "x = LN(x + FFN(x))"),
    "pre_ln": ("x = x + Attn(LN(x))", "x = x + FFN(LN(x))"),
    "parallel": ("h = LN(x)", "x = x + Attn(h) + FFN(h)"),
}

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
