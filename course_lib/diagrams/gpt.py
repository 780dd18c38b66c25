"""The GPT stack of :mod:`course_lib.gpt` and its KV cache growing during generation (chapter 3)."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from ._kit import (
    FILL,
    INK,
    MUTED,
    SMALL,
    STREAM,
    _arrow,
    _Box,
    _box,
    _canvas,
    _check_int,
    _dot,
    _figure,
    _key,
    _panel,
    _plus,
    _text,
)

__all__ = ["gpt_stack", "kv_cache_steps"]


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
    _text(
        ax,
        (wte.x + head.x) / 2,
        tie + 0.25,
        "same matrix (weight tying): lm_head.weight is wte.weight,",
        size=SMALL,
        va="bottom",
    )
    _text(ax, (wte.x + head.x) / 2, tie + 0.08, "used transposed: logits = x @ wte.weight.T", size=SMALL, va="bottom")

    # One block opened up, its stream left to right: pre-LN, causal self-attention, no cross-attention.
    left, bottom, top = wpe.right[0] + 0.45, 0.1, 1.85
    stream, branch = 1.2, 0.55  # heights of the residual stream and of the branches
    _text(
        ax,
        left + 0.12,
        top - 0.17,
        "inside each block: a pre-LN DecoderBlock, no cross-attention",
        size=SMALL,
        ha="left",
    )
    _text(ax, left + 0.15, stream, "x", fontstyle="italic")
    xs = left + 0.25
    for norm, label, code, kind, width in (
        ("norm1", "causal attention", "self_attn", "attention", 1.15),
        ("norm2", "FFN", "ff", "ffn", 0.8),
    ):
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
    ax.add_patch(
        FancyBboxPatch(
            (left, bottom),
            right - left,
            top - bottom,
            boxstyle="round,pad=0,rounding_size=0.08",
            facecolor="#f7f7fb",
            edgecolor=MUTED,
            linewidth=1.0,
            zorder=0.5,
            gid="detail",
        )
    )
    for corner, end in ((drawn[0].left[0], left), (drawn[0].right[0], right)):
        _arrow(ax, (corner, row - h / 2), (end, top), colour=MUTED, width=0.8, dashed=True, head=False)
    return fig


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
                ax.add_patch(
                    Rectangle(
                        (x, y),
                        cell,
                        0.2,
                        facecolor=FILL["new" if j in fed else "tensor"],
                        edgecolor=INK,
                        linewidth=0.9,
                        gid=f"cache-{state}{suffix}",
                    )
                )
                _text(ax, x + cell / 2, y + 0.1, f"${name}_{{{j}}}$", size=SMALL)
        for i in fed:
            q = _box(
                ax,
                cells_left + i * pitch + cell / 2,
                0.95,
                min(cell, 0.45),
                0.22,
                f"$q_{{{i}}}$",
                kind="query",
                gid="query",
            )
            # causal: position i attends to positions 0 .. i; the arrows from different queries meet
            # each key at different points along its top
            at = (i - fed[0] + 1) / (len(fed) + 1)
            for j in range(i + 1):
                _arrow(
                    ax,
                    q.bottom,
                    (cells_left + j * pitch + at * cell, 0.5),
                    colour=MUTED if step == 0 else INK,
                    width=0.7,
                )
        queries = f"queries (B, h, {prompt_len}, d_head)" if step == 0 else "query (B, h, 1, d_head)"
        _text(ax, 7.55, 0.66, f"k, v: (B, h, P, d_head), P = {P}", size=SMALL, ha="left")
        _text(ax, 7.55, 0.46, queries, size=SMALL, ha="left", colour=MUTED)
        if step < n_steps:
            ax.axhline(0.0, xmin=0.015, xmax=0.985, color="#dddddd", linewidth=0.8)
    return fig
