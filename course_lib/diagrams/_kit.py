"""The drawing kit every schematic of :mod:`course_lib.diagrams` shares: figures laid out in inches,
boxes filled by the kind of thing they stand for, arrows, "+" nodes, legend keys, labels and argument
checks. One data unit is one inch of the figure, so sizes and spacing hold whatever a figure's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import text_to_path

Point = tuple[float, float]

FONT = 9  # labels
SMALL = 8  # code names, shapes, notes
INK = "#2b2b2b"  # outlines, arrows, text
MUTED = "#6b6b6b"  # secondary text and guide lines
STREAM = "#1f4e79"  # the residual stream
_BACKING = {"facecolor": "white", "edgecolor": "none", "pad": 0.6}  # a label's own background, over a hatch
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


def _text(
    ax: Axes, x: float, y: float, s: str, *, size: float = FONT, code: bool = False, colour: str = INK, **kwargs: Any
) -> None:
    """A label centred on ``(x, y)`` unless ``ha``/``va`` say otherwise; ``code`` sets it monospaced."""
    kwargs = {"ha": "center", "va": "center", **kwargs}
    ax.text(x, y, s, fontsize=size, color=colour, family="monospace" if code else "sans-serif", **kwargs)


def _box(
    ax: Axes,
    x: float,
    y: float,
    w: float,
    h: float,
    label: str,
    *,
    kind: str,
    code: str | None = None,
    gid: str | None = None,
) -> _Box:
    """A rounded box centred on ``(x, y)``, filled by ``kind``, with a label and, below it, a code name."""
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2),
            w,
            h,
            boxstyle="round,pad=0,rounding_size=0.05",
            facecolor=FILL[kind],
            edgecolor=INK,
            linewidth=1.0,
            gid=gid or kind,
        )
    )
    if code is None:
        _text(ax, x, y, label)
    else:
        _text(ax, x, y + 0.075, label)
        _text(ax, x, y - 0.09, code, size=SMALL, code=True)
    return _Box(x, y, w, h)


def _arrow(
    ax: Axes, *points: Point, colour: str = INK, width: float = 1.2, dashed: bool = False, head: bool = True
) -> None:
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


def _text_width(s: str, size: float) -> float:
    """The width of ``s`` set in ``size``-point sans-serif, in inches."""
    width, _, _ = text_to_path.get_text_width_height_descent(
        s, FontProperties(family="sans-serif", size=size), ismath=False
    )
    return width / 72


def _code_width(s: str, size: float = SMALL) -> float:
    """The width of ``s`` set in ``size``-point monospace, in inches."""
    width, _, _ = text_to_path.get_text_width_height_descent(
        s, FontProperties(family="monospace", size=size), ismath=False
    )
    return width / 72
