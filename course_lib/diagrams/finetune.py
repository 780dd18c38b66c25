"""LoRA and adapters as :mod:`course_lib.finetune` builds them (chapter 6), drawn from the layers themselves.

Each figure takes the model (or layer) the chapter wrapped and reads what it labels from it: the
submodules' and parameters' names, their shapes, LoRA's rank and scale, the adapters' width, and which
parameters ``requires_grad``. A box whose parameters all train is hatched, one whose parameters are all
frozen is plain (one that mixes both is dotted), so the figure reads the same in greyscale; the legend
says which is which.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle
from torch import nn

from ..attention import MultiHeadAttention
from ..blocks import ACTIVATIONS, FeedForward, LayerNorm, RMSNorm
from ..finetune import AdaptedLinear, Adapter, LoRALinear, blocks_of
from ._kit import FILL, INK, MUTED, SMALL, STREAM, _arrow, _Box, _canvas, _dot, _plus, _text

__all__ = ["adapter_block", "lora_linear"]

HATCH = {"trained": "////", "partly trained": "...", "frozen": None, "no parameters": None}
FRAME = 0.07  # the width of a hatched frame, inches


# ----------------------------------------------------------------------------- shared pieces


def _state(params: list[nn.Parameter]) -> str:
    """``"trained"`` when every one of ``params`` requires grad, ``"frozen"`` when none does,
    ``"partly trained"`` for a mix, ``"no parameters"`` when there are none."""
    flags = [p.requires_grad for p in params]
    if not flags:
        return "no parameters"
    return "trained" if all(flags) else "frozen" if not any(flags) else "partly trained"


def _part(ax: Axes, x: float, y: float, w: float, h: float, label: str, code: str, *, kind: str, state: str) -> _Box:
    """A box centred on ``(x, y)`` for one submodule, filled by ``kind``, with a label and, below it, its
    code name. A trained box has a hatched frame (dotted: partly trained), a frozen one a plain frame.
    Its gid is ``"<state>:<code name>"``."""
    style = "round,pad=0,rounding_size=0.05"
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2),
            w,
            h,
            boxstyle=style,
            facecolor=FILL[kind],
            edgecolor=INK,
            linewidth=1.0,
            hatch=HATCH[state],
            gid=f"{state}:{code.split(' ')[0]}",
        )
    )
    if HATCH[state]:  # the labels sit on a plain inner panel, clear of the hatching
        ax.add_patch(
            FancyBboxPatch(
                (x - w / 2 + FRAME, y - h / 2 + FRAME),
                w - 2 * FRAME,
                h - 2 * FRAME,
                boxstyle=style,
                facecolor=FILL[kind],
                edgecolor="none",
                gid="inner",
            )
        )
    _text(ax, x, y + 0.08, label)
    _text(ax, x, y - 0.1, code, size=SMALL, code=True)
    return _Box(x, y, w, h)


def _state_key(ax: Axes, x: float, y: float, state: str, label: str) -> None:
    """A legend entry: a small square hatched as ``state`` is, and its label to the right."""
    ax.add_patch(
        Rectangle(
            (x, y - 0.08), 0.24, 0.16, facecolor="white", edgecolor=INK, linewidth=0.8, hatch=HATCH[state], gid="key"
        )
    )
    _text(ax, x + 0.32, y, label, size=SMALL, ha="left")


def _count(n: int) -> str:
    return f"{n:,}"


# ------------------------------------------------------------------------------------- LoRA


@dataclass(frozen=True)
class _LoRAParts:
    """What a :class:`LoRALinear` holds, read from the instance: its frozen linear layer, the two
    factors (as the layer names them), its dropout if any, and its sizes."""

    base: str
    A: str
    B: str
    drop: str | None
    d_in: int
    d_out: int
    r: int


def _lora_parts(layer: LoRALinear) -> _LoRAParts:
    """The names and sizes of ``layer``'s pieces. The factors are its own two parameters: ``A`` maps
    ``d_in`` features to ``r`` (shape ``(r, d_in)``) and is registered first, ``B`` maps them back
    (``(d_out, r)``)."""
    linears = [(n, m) for n, m in layer.named_children() if isinstance(m, nn.Linear)]
    if len(linears) != 1:
        raise ValueError(f"a LoRALinear holds one nn.Linear, this one holds {len(linears)}")
    base_name, base = linears[0]
    own = list(layer.named_parameters(recurse=False))
    if len(own) != 2:
        raise ValueError(f"a LoRALinear has two parameters of its own (A and B), this one has {[n for n, _ in own]}")
    (a_name, A), (b_name, B) = own
    r = A.shape[0]
    if tuple(A.shape) != (r, base.in_features) or tuple(B.shape) != (base.out_features, r):
        raise ValueError(
            f"expected A (r, {base.in_features}) and B ({base.out_features}, "
            f"r), got {a_name} {tuple(A.shape)} and {b_name} {tuple(B.shape)}"
        )
    drops = [n for n, m in layer.named_children() if isinstance(m, nn.Dropout)]
    return _LoRAParts(base_name, a_name, b_name, drops[0] if drops else None, base.in_features, base.out_features, r)


def _matrix(
    ax: Axes, x: float, y: float, rows: int, cols: int, unit: float, least: float, *, kind: str, state: str, gid: str
) -> _Box:
    """A ``rows x cols`` matrix drawn to scale (``unit`` inches for the larger of the two sizes it is
    compared with, never thinner than ``least``), centred on ``(x, y)``."""
    w, h = max(cols * unit, least), max(rows * unit, least)
    ax.add_patch(
        Rectangle(
            (x - w / 2, y - h / 2),
            w,
            h,
            facecolor=FILL[kind],
            edgecolor=INK,
            linewidth=1.0,
            hatch=HATCH[state],
            gid=gid,
        )
    )
    return _Box(x, y, w, h)


def lora_linear(model: nn.Module, name: str | None = None) -> Figure:
    """One :class:`~course_lib.finetune.LoRALinear` of ``model`` (the one at attribute path ``name``,
    default the first), as it computes while training and after :meth:`~LoRALinear.merge`.

    Left, ``forward``: the input ``x (..., d_in)`` goes through the frozen linear layer (``base``,
    weight ``W0 (d_out, d_in)``) and, beside it, through ``A`` (``lora_A``, ``(r, d_in)``: down to
    ``r`` features), ``B`` (``lora_B``, ``(d_out, r)``, initialised to zero so that the wrapped model
    starts as the pretrained one) and the factor ``scale = alpha / r``; the two are added. A dropout on
    the LoRA path's input is drawn when the layer has one. While the layer is merged or disabled the
    LoRA path is not computed: it is drawn dashed. Right, ``merge()``: the update
    ``scale * B A``, drawn to scale, is added into ``base.weight``, after which the layer costs one
    product, the base's. The bottom line counts the numbers trained and frozen in the layer.
    Every name and size is the instance's own.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module holding a LoRALinear, got {type(model).__name__}")
    if name is None:
        found = [n for n, m in model.named_modules() if isinstance(m, LoRALinear)]
        if not found:
            raise ValueError(
                f"{type(model).__name__} holds no LoRALinear: wrap its layers with course_lib.finetune.apply_lora first"
            )
        name = found[0]
    try:
        layer = model.get_submodule(name)
    except AttributeError:
        raise ValueError(f"{type(model).__name__} has no submodule {name!r}") from None
    if not isinstance(layer, LoRALinear):
        raise ValueError(f"{name!r} is a {type(layer).__name__}, not a LoRALinear")
    parts = _lora_parts(layer)
    A, B, base = getattr(layer, parts.A), getattr(layer, parts.B), getattr(layer, parts.base)
    active = layer.enabled and not layer.merged

    fig, ax = _canvas(10.0, 4.15)
    fig.set_facecolor("white")
    title = name or type(layer).__name__
    _text(ax, 0.15, 3.95, f"{title}: a LoRALinear of rank r = {parts.r}", size=SMALL, code=True, ha="left")
    _text(ax, 0.15, 3.7, "training: forward(x)", fontweight="bold", ha="left")

    upper, lower, middle = 2.85, 1.45, 2.15  # the frozen path, the LoRA path, the input
    x_in = _box(ax, 0.62, middle, 1.05, 0.5, "input x", kind="data", code=f"(..., {parts.d_in})")
    split = x_in.right[0] + 0.18
    _arrow(ax, x_in.right, (split, middle), head=False)
    _dot(ax, split, middle, colour=INK)
    add = _plus(ax, 6.35, upper)
    w0 = _part(
        ax,
        3.45,
        upper,
        2.3,
        0.5,
        "frozen W₀x",
        f"{parts.base} ({parts.d_in} → {parts.d_out})",
        kind="linear",
        state=_state(list(base.parameters())),
    )
    _arrow(ax, (split, middle), (split, upper), w0.left)
    _arrow(ax, w0.right, add.left)
    path_colour = INK if active else MUTED
    cursor = split
    steps: list[tuple[str, str, str, float, str]] = []  # label, code, kind, width, state
    if parts.drop is not None:
        p = getattr(layer, parts.drop).p
        steps.append(("dropout", f"{parts.drop} (p={p:g})", "data", 1.0, "no parameters"))
    steps.append(("A: down to r", f"{parts.A} {tuple(A.shape)}", "linear", 1.4, _state([A])))
    steps.append(("B: starts at 0", f"{parts.B} {tuple(B.shape)}", "linear", 1.4, _state([B])))
    scale_w = 0.95
    # spread evenly up to the scale
    gap = (add.x - scale_w / 2 - split - sum(step[3] for step in steps)) / (len(steps) + 1)
    previous: _Box | None = None
    for label, code, kind, width, state in steps:
        box = _part(ax, cursor + gap + width / 2, lower, width, 0.5, label, code, kind=kind, state=state)
        if previous is None:
            _arrow(ax, (split, middle), (split, lower), box.left, colour=path_colour, dashed=not active)
        else:
            _arrow(ax, previous.right, box.left, colour=path_colour, dashed=not active)
        if previous is not None and label.startswith("B"):  # between A and B the LoRA path is r features wide
            _text(
                ax, (previous.right[0] + box.left[0]) / 2, lower + 0.36, f"(..., r={parts.r})", size=SMALL, colour=MUTED
            )
        previous, cursor = box, box.right[0]
    assert previous is not None
    scale = _box(ax, add.x, lower, scale_w, 0.5, "× α / r", kind="tensor", code=f"scale = {layer.scale:g}")
    _arrow(ax, previous.right, scale.left, colour=path_colour, dashed=not active)
    _arrow(ax, scale.top, add.bottom, colour=path_colour, dashed=not active)
    out = _box(ax, add.x, upper + 0.75, 1.25, 0.46, "output h", kind="data", code=f"(..., {parts.d_out})")
    _arrow(ax, add.top, out.bottom)
    if not active:
        why = "merged: base.weight holds the update" if layer.merged else "disabled: the base alone"
        _text(ax, (split + add.x) / 2, lower - 0.45, f"LoRA path not computed ({why})", size=SMALL, colour=MUTED)
    trained = sum(p.numel() for p in layer.parameters() if p.requires_grad)
    frozen = sum(p.numel() for p in layer.parameters() if not p.requires_grad)
    _text(
        ax,
        0.15,
        0.55,
        f"trained here: {_count(trained)} numbers ({parts.A} and {parts.B}: "
        f"r·(d_in + d_out) = {parts.r} × {parts.d_in + parts.d_out});",
        size=SMALL,
        ha="left",
    )
    _text(
        ax,
        0.15,
        0.35,
        f"frozen: {_count(frozen)} ({parts.base}.weight {tuple(base.weight.shape)}"
        + (" and its bias)" if base.bias is not None else ")"),
        size=SMALL,
        ha="left",
    )
    _state_key(ax, 0.15, 0.12, "trained", "trained (requires_grad)")
    _state_key(ax, 2.2, 0.12, "frozen", "frozen")

    # Right: merging, the matrices to scale.
    left = 7.1
    ax.plot([left - 0.2, left - 0.2], [0.1, 3.95], color="#dddddd", linewidth=0.8)
    _text(ax, left, 3.7, "after training: merge()", fontweight="bold", ha="left")
    biggest = max(parts.d_in, parts.d_out)
    unit, least, row = 0.8 / biggest, 0.05, 2.45
    W = _matrix(
        ax,
        left + 0.5,
        row,
        parts.d_out,
        parts.d_in,
        unit,
        least,
        kind="linear",
        state=_state(list(base.parameters())),
        gid="matrix-W0",
    )
    _text(ax, W.right[0] + 0.14, row, "+", size=11, fontweight="bold")
    _text(ax, W.right[0] + 0.4, row, f"{layer.scale:g} ×", size=SMALL)
    Bm = _matrix(
        ax, W.right[0] + 0.68, row, parts.d_out, parts.r, unit, least, kind="linear", state=_state([B]), gid="matrix-B"
    )
    Am = _matrix(
        ax,
        Bm.right[0] + 0.12 + max(parts.d_in * unit, least) / 2,
        row + W.h / 2 - max(parts.r * unit, least) / 2,
        parts.r,
        parts.d_in,
        unit,
        least,
        kind="linear",
        state=_state([A]),
        gid="matrix-A",
    )
    label_y = row - W.h / 2 - 0.16
    _text(ax, W.x, label_y, f"{parts.base}.weight", size=SMALL, code=True)
    _text(ax, W.x, label_y - 0.19, f"{tuple(base.weight.shape)}", size=SMALL, colour=MUTED)
    _text(ax, Bm.x, label_y, parts.B, size=SMALL, code=True)
    _text(ax, Bm.x, label_y - 0.19, f"{tuple(B.shape)}", size=SMALL, colour=MUTED)
    _text(ax, Am.x, Am.bottom[1] - 0.16, parts.A, size=SMALL, code=True)
    _text(ax, Am.x, Am.bottom[1] - 0.35, f"{tuple(A.shape)}", size=SMALL, colour=MUTED)
    _text(
        ax, left - 0.05, 1.35, f"{parts.base}.weight += scale * {parts.B} @ {parts.A}", size=SMALL, code=True, ha="left"
    )
    _text(
        ax,
        left - 0.05,
        1.1,
        f"the same shape {tuple(base.weight.shape)}: then h = {parts.base}(x),",
        size=SMALL,
        ha="left",
    )
    _text(ax, left - 0.05, 0.9, "one product, the cost of the original layer;", size=SMALL, ha="left")
    _text(ax, left - 0.05, 0.7, "unmerge() subtracts the update again", size=SMALL, ha="left")
    return fig


def _box(ax: Axes, x: float, y: float, w: float, h: float, label: str, *, kind: str, code: str | None) -> _Box:
    """A box with no parameters of its own (an input, a factor, a function): plain, with a label and a code line."""
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2),
            w,
            h,
            boxstyle="round,pad=0,rounding_size=0.05",
            facecolor=FILL[kind],
            edgecolor=INK,
            linewidth=1.0,
            gid=kind,
        )
    )
    if code is None:
        _text(ax, x, y, label)
        return _Box(x, y, w, h)
    _text(ax, x, y + 0.08, label)
    _text(ax, x, y - 0.1, code, size=SMALL, code=True)
    return _Box(x, y, w, h)


# ---------------------------------------------------------------------------------- adapters


@contextmanager
def _call_order(block: nn.Module) -> Iterator[list[str]]:
    """Inside, the names of ``block``'s submodules in the order a forward pass first calls them."""
    order: list[str] = []

    def record(name: str):  # noqa: ANN202
        return lambda module, args: None if name in order else order.append(name)

    hooks = [m.register_forward_pre_hook(record(n)) for n, m in block.named_modules() if n]
    try:
        yield order
    finally:
        for hook in hooks:
            hook.remove()


@dataclass(frozen=True)
class _Sublayer:
    """One residual branch of a post-LN block as drawn, every name as a forward pass calls it: the
    branch's module (``self_attn``, ``ff``), its first and last layers, the norm after the residual
    sum and, where the last layer is an :class:`AdaptedLinear`, its frozen linear layer
    (``....base``), its adapter (``....adapter``) and the adapter's two layers (``down``, ``up``)."""

    module: str
    first: str
    last: str
    norm: str
    base: str | None = None
    adapter: str | None = None
    inner: tuple[str, ...] = ()


def _children(order: list[str], parent: str) -> list[str]:
    """The direct children of ``parent`` among the called names, in the order they were called."""
    return [n for n in order if n.rpartition(".")[0] == parent]


def _sublayers(block: nn.Module) -> tuple[_Sublayer, _Sublayer]:
    """The attention and feed-forward branches of a post-LN block, named as a forward pass calls them."""
    attention = next((m for m in block.modules() if isinstance(m, MultiHeadAttention)), None)
    if attention is None:
        raise ValueError(f"{type(block).__name__} has no MultiHeadAttention")
    parameter = next(block.parameters())
    was_training = block.training
    block.eval()
    try:
        with _call_order(block) as order, torch.no_grad():
            block(torch.zeros(1, 2, attention.d_model, dtype=parameter.dtype, device=parameter.device))
    finally:
        block.train(was_training)
    modules = dict(block.named_modules())
    norms = [n for n in order if isinstance(modules[n], LayerNorm | RMSNorm)]
    branches = [n for n in order if isinstance(modules[n], MultiHeadAttention | FeedForward)]
    if len(branches) != 2 or len(norms) != 2:
        raise ValueError(f"expected one attention, one feed-forward and two norms, got {branches} and norms {norms}")
    drawn = []
    for branch, norm in zip(branches, norms, strict=True):
        layers = _children(order, branch)
        stray = [n for n in layers[:-1] if isinstance(modules[n], AdaptedLinear)]
        if stray:
            raise ValueError(
                "adapter_block draws adapters after a branch's last "
                f"layer (Houlsby et al.'s places); {stray} is adapted"
            )
        first, last = layers[0], layers[-1]
        if not isinstance(modules[last], AdaptedLinear):
            drawn.append(_Sublayer(branch, first, last, norm))
            continue
        inside = _children(order, last)
        base = next(n for n in inside if isinstance(modules[n], nn.Linear))
        adapter = next(n for n in inside if isinstance(modules[n], Adapter))
        inner = tuple(n.rpartition(".")[2] for n in _children(order, adapter) if isinstance(modules[n], nn.Linear))
        drawn.append(_Sublayer(branch, first, last, norm, base, adapter, inner))
    return drawn[0], drawn[1]


def _trained_by_kind(model: nn.Module) -> str:
    """The trained parameters of ``model`` counted by what holds them (adapters, norms, then the rest by
    top-level submodule, such as a head), with how many such modules; then the frozen count."""
    kinds: dict[str, tuple[set[str], list[int]]] = {}
    for name, module in model.named_modules():
        if isinstance(module, Adapter):
            kind = "adapters"
        elif isinstance(module, LayerNorm | RMSNorm):
            kind = type(module).__name__ + "s"
        else:
            continue
        trained = [p.numel() for p in module.parameters() if p.requires_grad]
        if trained:
            owners, sizes = kinds.setdefault(kind, (set(), []))
            owners.add(name)
            sizes.extend(trained)
    counted = {id(p) for m in model.modules() if isinstance(m, Adapter | LayerNorm | RMSNorm) for p in m.parameters()}
    for name, p in model.named_parameters():
        if p.requires_grad and id(p) not in counted:
            owners, sizes = kinds.setdefault(name.split(".")[0], (set(), []))
            sizes.append(p.numel())
    parts = [
        f"{len(owners)} {kind} {sum(sizes):,}" if owners else f"{kind} {sum(sizes):,}"
        for kind, (owners, sizes) in kinds.items()
    ]
    frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
    return "trained: " + "; ".join(parts) + f".  Frozen: {frozen:,}."


def adapter_block(model: nn.Module, block: int = 0) -> Figure:
    """Where :func:`~course_lib.finetune.add_adapters` put Houlsby adapters in one post-LN block of
    ``model`` (its ``block``-th in its one stack of blocks), and what trains.

    Left, the block as its forward pass runs (data flowing up the residual stream): the attention
    branch (``self_attn``'s projections and heads, then its output projection ``out_proj``, whose
    frozen linear layer is now ``out_proj.base`` and whose output goes through ``out_proj.adapter``),
    added to the stream, then the first norm (post-LN: on the stream); the feed-forward branch
    (``ff.linear1`` and its activation, ``ff.linear2.base``, ``ff.linear2.adapter``), added, then the
    second norm. Dropout, after each branch in training, is not drawn. Right, one adapter opened up:
    ``down`` (``d_model`` to the bottleneck ``m``), GELU, ``up`` (back to ``d_model``) and its own skip,
    ``x + up(GELU(down(x)))``, its weights drawn near zero so that it starts near the identity. Boxes
    are hatched where every parameter trains (``requires_grad``), plain where all are frozen; the
    bottom line counts the whole model's trained parameters by kind (adapters, norms, a head) and its
    frozen ones. The names are the model's own, as a forward pass calls them.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    stack, n_blocks = blocks_of(model)
    if isinstance(block, bool) or not isinstance(block, int):
        raise TypeError(f"block must be an integer, got {block!r}")
    if not -n_blocks <= block < n_blocks:
        raise ValueError(f"block {block} does not exist: {stack} holds {n_blocks} blocks")
    index = block % n_blocks
    module = model.get_submodule(stack).get_submodule(str(index))
    arrangement = getattr(module, "arrangement", None)
    if arrangement != "post_ln":
        raise ValueError(f"adapter_block draws post-LN blocks (BERT's, MiniLM's); {stack}.{index} is {arrangement!r}")
    attn, ff = _sublayers(module)
    if attn.adapter is None and ff.adapter is None:
        raise ValueError(f"{stack}.{index} holds no adapter: wrap layers with course_lib.finetune.add_adapters first")
    sub = dict(module.named_modules())
    attention = sub[attn.module]
    d_model = attention.d_model
    opened_branch = attn if attn.adapter is not None else ff
    assert opened_branch.adapter is not None
    first_adapter, (down_name, up_name) = opened_branch.adapter, opened_branch.inner
    down_layer, up_layer = sub[f"{first_adapter}.{down_name}"], sub[f"{first_adapter}.{up_name}"]
    m = down_layer.out_features
    activation = next(
        (name for name, fn in ACTIVATIONS.items() if fn is getattr(sub[ff.module], "activation", None)), "activation"
    )

    fig, ax = _canvas(10.0, 5.5)
    fig.set_facecolor("white")
    _text(
        ax,
        0.15,
        5.3,
        f"{stack}.{index}: a post-LN {type(module).__name__}, one of {n_blocks}, with adapters (bottleneck m = {m})",
        size=SMALL,
        code=True,
        ha="left",
    )
    sx, box_h = 0.55, 0.5  # the stream's x, a box's height
    _text(ax, sx, 0.7, f"x (B, T, {d_model})", size=SMALL, code=True, va="top", ha="left")
    y = 0.75
    opened: _Box | None = None
    for branch, (first_label, first_code, last_label) in (
        (attn, ("q, k, v, attention", attn.module, "output projection")),
        (ff, (f"FFN in, {activation}", ff.first, "FFN out")),
    ):
        split = y + 0.6 if branch is attn else y + 0.5
        _arrow(ax, (sx, y), (sx, split), colour=STREAM, width=2.0, head=False)
        _dot(ax, sx, split)
        # the first box stands for the attention's projections before its output (all but the last
        # layer), or for the feed-forward's first layer
        if branch is attn:
            first_params = [
                p
                for n, c in sub[attn.module].named_children()
                if f"{attn.module}.{n}" != attn.last
                for p in c.parameters()
            ]
        else:
            first_params = list(sub[ff.first].parameters())
        boxes = [
            _part(
                ax,
                1.45,
                split,
                1.45,
                box_h,
                first_label,
                first_code,
                kind="attention" if branch is attn else "ffn",
                state=_state(first_params),
            )
        ]
        base = branch.base or branch.last  # the frozen linear layer, wrapped or not
        boxes.append(
            _part(
                ax, 3.3, split, 1.9, box_h, last_label, base, kind="linear", state=_state(list(sub[base].parameters()))
            )
        )
        if branch.adapter is not None:
            boxes.append(
                _part(
                    ax,
                    5.38,
                    split,
                    2.1,
                    box_h,
                    "adapter",
                    branch.adapter,
                    kind="ffn",
                    state=_state(list(sub[branch.adapter].parameters())),
                )
            )
            if branch is opened_branch:
                opened = boxes[-1]
        _arrow(ax, (sx, split), boxes[0].left)
        for a, b in zip(boxes, boxes[1:]):
            _arrow(ax, a.right, b.left)
        plus = _plus(ax, sx, split + 0.62)
        _arrow(ax, boxes[-1].right, (boxes[-1].right[0] + 0.15, split), (boxes[-1].right[0] + 0.15, plus.y), plus.right)
        _arrow(ax, (sx, split), plus.bottom, colour=STREAM, width=2.0)
        norm = _part(
            ax,
            sx,
            plus.y + 0.55,
            0.8,
            0.44,
            "LN",
            branch.norm,
            kind="norm",
            state=_state(list(sub[branch.norm].parameters())),
        )
        _arrow(ax, plus.top, norm.bottom, colour=STREAM, width=2.0)
        y = norm.top[1]
    _arrow(ax, (sx, y), (sx, y + 0.3), colour=STREAM, width=2.0)
    _text(ax, sx + 0.12, y + 0.22, "output", ha="left")
    _text(ax, sx - 0.14, 1.0, "residual stream", size=SMALL, colour=STREAM, rotation=90)

    # Right: one adapter opened up, data flowing up.
    left, cx = 6.9, 8.55
    ax.plot([left - 0.1, left - 0.1], [0.65, 5.1], color="#dddddd", linewidth=0.8)
    _text(ax, left + 0.05, 4.9, "inside each adapter:", fontweight="bold", ha="left")
    _text(ax, left + 0.05, 4.67, f"{first_adapter}", size=SMALL, code=True, ha="left")
    _text(ax, cx, 1.08, f"(B, T, {d_model})", size=SMALL, code=True, va="top")
    skip_x, split = left + 0.35, 1.4
    _arrow(ax, (cx, 1.1), (cx, split), head=False)
    _dot(ax, cx, split, colour=INK)
    down = _part(
        ax,
        cx,
        1.95,
        2.05,
        box_h,
        f"down-projection {d_model} \u2192 {m}",
        down_name,
        kind="linear",
        state=_state(list(down_layer.parameters())),
    )
    gelu = _box(ax, cx, 2.65, 0.9, 0.36, "GELU", kind="ffn", code=None)
    up = _part(
        ax,
        cx,
        3.35,
        2.05,
        box_h,
        f"up-projection {m} \u2192 {d_model}",
        up_name,
        kind="linear",
        state=_state(list(up_layer.parameters())),
    )
    add = _plus(ax, cx, 4.0)
    _arrow(ax, (cx, split), down.bottom)
    _arrow(ax, down.top, gelu.bottom)
    _arrow(ax, gelu.top, up.bottom)
    _arrow(ax, up.top, add.bottom)
    _arrow(ax, (cx, split), (skip_x, split), (skip_x, add.y), add.left)
    _text(ax, skip_x - 0.12, 2.65, "its own skip", size=SMALL, rotation=90)
    _arrow(ax, add.top, (cx, 4.4))
    _text(ax, cx - 0.1, 4.3, f"x + {up_name}(GELU({down_name}(x)))", size=SMALL, code=True, ha="right")
    _text(ax, left + 0.05, 0.48, "weights drawn near 0 (N(0, 10\u207b\u00b3)), biases 0:", size=SMALL, ha="left")
    _text(ax, left + 0.05, 0.28, "each adapter starts near the identity", size=SMALL, ha="left")
    if opened is not None:
        for corner, end in (
            (opened.right, (left - 0.1, 5.1)),
            ((opened.right[0], opened.bottom[1]), (left - 0.1, 0.65)),
        ):
            _arrow(ax, corner, end, colour=MUTED, width=0.8, dashed=True, head=False)

    _text(ax, 0.15, 0.15, "in the whole model, " + _trained_by_kind(model), size=SMALL, ha="left")
    _state_key(ax, 2.3, 5.0, "trained", "trained (requires_grad)")
    _state_key(ax, 4.4, 5.0, "frozen", "frozen")
    return fig
