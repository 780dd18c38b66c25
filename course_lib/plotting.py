"""Figures the book draws more than once: attention heatmaps with token labels, and rows of tokens
with some of them highlighted (what a noise function did to a text)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["plot_attention", "plot_attention_heads", "plot_token_rows"]


def _as_matrix(weights: torch.Tensor | np.ndarray) -> np.ndarray:
    matrix = weights.detach().cpu().numpy() if isinstance(weights, torch.Tensor) else np.asarray(weights)
    if matrix.ndim != 2:
        raise ValueError(f"expected attention weights of shape (T_q, T_k), got {matrix.shape}")
    return matrix


def plot_attention(
    weights: torch.Tensor | np.ndarray,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    *,
    ax: Axes | None = None,
    title: str | None = None,
    colorbar: bool = True,
    annotate: bool = False,
) -> Axes:
    """Heatmap of one attention matrix ``(T_q, T_k)``: row = query, column = key.

    Labels, if given, name the tokens along each axis (``len(query_labels) == T_q``,
    ``len(key_labels) == T_k``). ``annotate`` writes each weight in its cell (small matrices only).
    Returns the axes drawn on.
    """
    matrix = _as_matrix(weights)
    T_q, T_k = matrix.shape
    for name, labels, size in (("query_labels", query_labels, T_q), ("key_labels", key_labels, T_k)):
        if labels is not None and len(labels) != size:
            raise ValueError(f"{name} has {len(labels)} labels for {size} positions")
    if ax is None:
        _, ax = plt.subplots(figsize=(0.45 * T_k + 2.0, 0.45 * T_q + 1.2))
    image = ax.imshow(matrix, cmap="viridis", vmin=0.0, vmax=max(1e-9, float(matrix.max())), aspect="auto")
    x_labels = list(key_labels) if key_labels is not None else [str(j) for j in range(T_k)]
    y_labels = list(query_labels) if query_labels is not None else [str(i) for i in range(T_q)]
    ax.set_xticks(range(T_k), labels=x_labels, rotation=60, ha="right")
    ax.set_yticks(range(T_q), labels=y_labels)
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    if annotate:
        for i in range(T_q):
            for j in range(T_k):
                ax.text(
                    j,
                    i,
                    f"{matrix[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if matrix[i, j] < 0.6 * matrix.max() else "black",
                )
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax


def plot_attention_heads(
    weights: torch.Tensor | np.ndarray,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    *,
    ncols: int = 4,
    title: str | None = None,
) -> Figure:
    """One heatmap per head for weights of shape ``(h, T_q, T_k)``, in a grid of ``ncols`` columns."""
    stack = weights.detach().cpu().numpy() if isinstance(weights, torch.Tensor) else np.asarray(weights)
    if stack.ndim != 3:
        raise ValueError(f"expected per-head weights of shape (h, T_q, T_k), got {stack.shape}")
    n_heads = stack.shape[0]
    ncols = min(ncols, n_heads)
    nrows = -(-n_heads // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 3.0 * nrows), squeeze=False, layout="constrained")
    for head, ax in enumerate(axes.flat):
        if head >= n_heads:
            ax.axis("off")
            continue
        plot_attention(stack[head], query_labels, key_labels, ax=ax, title=f"head {head}", colorbar=False)
    if title:
        fig.suptitle(title)
    return fig


def plot_token_rows(
    rows: Sequence[tuple[str, Sequence[str], Sequence[int]]], *, width: int = 16, title: str | None = None
) -> Figure:
    """Sequences of tokens drawn as rows of boxes, one labelled row per sequence, wrapped every
    ``width`` tokens. Each row is ``(label, tokens, colours)``: ``colours[i]`` 0 draws token ``i``
    plain, 1, 2, ... in the colours of matplotlib's ``tab10`` cycle (e.g. a span's colour, the same
    in the input and in the target)."""
    for label, tokens, colours in rows:
        if len(tokens) != len(colours):
            raise ValueError(f"row {label!r}: {len(tokens)} tokens but {len(colours)} colours")
    lines = [
        (label if k == 0 else "", tokens[k : k + width], colours[k : k + width])
        for label, tokens, colours in rows
        for k in range(0, max(len(tokens), 1), width)
    ]
    fig, ax = plt.subplots(figsize=(0.62 * width + 1.6, 0.36 * len(lines) + 0.4))
    palette = plt.get_cmap("tab10")(range(10))
    for y, (label, tokens, colours) in enumerate(lines):
        ax.text(-0.3, -y, label, ha="right", va="center", fontsize=8, fontweight="bold")
        for x, (token, colour) in enumerate(zip(tokens, colours)):
            face = "white" if colour == 0 else palette[(colour - 1) % len(palette)]
            ax.text(
                x + 0.5,
                -y,
                token,
                ha="center",
                va="center",
                fontsize=7,
                bbox={
                    "boxstyle": "round,pad=0.25",
                    "facecolor": face,
                    "alpha": 0.45 if colour else 1.0,
                    "edgecolor": "0.6",
                },
            )
    ax.set_xlim(-0.2, width + 0.2)
    ax.set_ylim(-len(lines) + 0.5, 0.5)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig
