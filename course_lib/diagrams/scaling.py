"""DDP against FSDP as :func:`course_lib.distributed.wrap` sets them up (the appendix), drawn from a model.

:func:`rank_memory` counts what a rank holds between steps, by kind, the way
:func:`course_lib.finetune.training_memory` counts a single process's: the weights, the gradients of
the trained parameters and AdamW's two moments for each of them (``exp_avg``, ``exp_avg_sq``), each
in its parameter's own dtype. DDP keeps all of it on every rank. FSDP (``fully_shard``) cuts every
parameter along its first dimension into ``N`` chunks (``torch.chunk``, the last ones smaller or
empty) and rank ``r`` keeps chunk ``r`` of the parameter, its gradient and its moments; rank 0 holds
the largest chunks, ``ceil(rows / N)`` rows, and the others' chunks are padded to that size for the
collectives. Activations, DDP's gradient buckets and the unit FSDP gathers while it computes are
not counted.

:func:`fsdp_units` lists the groups ``wrap`` shards: each module held in an ``nn.ModuleList`` (a
block) is one, gathered and reduced on its own, and the root module's remaining parameters are the
last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle
from torch import nn

from ..distributed import Parallel
from ..finetune import TrainingMemory
from ._kit import FILL, INK, MUTED, SMALL, _canvas, _check_int, _text

__all__ = ["ROLES", "Unit", "ddp_fsdp", "fsdp_units", "memory_per_rank", "rank_memory"]

PARALLELS: tuple[Parallel, ...] = ("ddp", "fsdp")
# What a rank holds per parameter, in the order drawn: its fill, its hatch, and its header.
ROLES: dict[str, tuple[str, str | None, str]] = {
    "weights": (FILL["linear"], "..", "weights"),
    "gradients": (FILL["tensor"], "////", "grads"),
    "optimizer": (FILL["norm"], "xx", "m, v"),
}


@dataclass(frozen=True)
class Unit:
    """One group FSDP shards, gathers and reduces together: the module's path (``""`` for the root),
    how it is labelled (``blocks[0]``; the root by its children that hold parameters, ``wte, wpe,
    ln_f``) and the paths of the parameters it holds."""

    path: str
    label: str
    parameters: tuple[str, ...]


def _indexed(path: str) -> str:
    """``blocks.0`` written as Python reaches it, ``blocks[0]``."""
    out = ""
    for part in path.split("."):
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out


def fsdp_units(model: nn.Module) -> list[Unit]:
    """The units :func:`course_lib.distributed.wrap` gives ``fully_shard``, in its order: every module
    held in an ``nn.ModuleList`` (each block), then the root with the parameters left over (a
    parameter belongs to the first unit that holds it; tied weights count once)."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    taken: set[int] = set()
    units = []
    for list_path, container in model.named_modules():
        if not isinstance(container, nn.ModuleList):
            continue
        for i, block in enumerate(container):
            path = f"{list_path}.{i}" if list_path else str(i)
            names = tuple(f"{path}.{n}" for n, p in block.named_parameters() if id(p) not in taken)
            taken |= {id(p) for p in block.parameters()}
            units.append(Unit(path, _indexed(path), names))
    rest = tuple(n for n, p in model.named_parameters() if id(p) not in taken)
    holders = list(dict.fromkeys(n.split(".")[0] for n in rest))
    units.append(Unit("", ", ".join(holders) if holders else "(root)", rest))
    return units


def _check(parallel: str, n_ranks: int) -> None:
    if parallel not in PARALLELS:
        raise ValueError(f"parallel must be one of {PARALLELS}, got {parallel!r}")
    _check_int("n_ranks", n_ranks, 1)


def rank_memory(model: nn.Module, parallel: Parallel, n_ranks: int) -> TrainingMemory:
    """Bytes that rank 0 of ``n_ranks`` holds between steps when ``model`` trains with AdamW under
    ``parallel`` (``"ddp"`` or ``"fsdp"``): weights, gradients (of parameters that ``requires_grad``)
    and AdamW's two moments, with ``activations`` 0 (not counted). One rank holds everything; so does
    every DDP rank; an FSDP rank holds chunk 0 of each parameter, ``ceil(rows / n_ranks)`` rows."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    _check(parallel, n_ranks)
    sharded = parallel == "fsdp" and n_ranks > 1
    weights = gradients = 0
    for p in model.parameters():
        rows = p.shape[0] if p.dim() else 1
        kept = -(-rows // n_ranks) if sharded else rows
        size = kept * (p.numel() // max(rows, 1)) * p.element_size()
        weights += size
        gradients += size if p.requires_grad else 0
    return TrainingMemory(weights, gradients, 2 * gradients, 0)


def _gb(n: float) -> str:
    return f"{n / 1e9:.2f} GB" if n >= 1e8 else f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


# -------------------------------------------------------------------------- DDP against FSDP


def _shown(units: list[Unit], most: int = 5) -> list[Unit | None]:
    """The root first (it computes first and last), then the blocks; None stands for elided ones."""
    root, blocks = units[-1], units[:-1]
    if len(blocks) + 1 <= most:
        return [root, *blocks]
    return [root, blocks[0], blocks[1], None, blocks[-1]]


def _double_arrow(ax: Axes, x0: float, x1: float, y: float, gid: str) -> None:
    ax.add_patch(
        FancyArrowPatch(
            (x0, y),
            (x1, y),
            arrowstyle="<|-|>",
            mutation_scale=9,
            color=INK,
            linewidth=1.2,
            shrinkA=0,
            shrinkB=0,
            gid=gid,
        )
    )


def ddp_fsdp(model: nn.Module, n_ranks: int = 2) -> Figure:
    """What each of ``n_ranks`` ranks holds and exchanges when ``model`` trains under DDP (top) and
    under FSDP (bottom), as :func:`course_lib.distributed.wrap` wraps it.

    Each section is a grid: one row per FSDP unit of the model (:func:`fsdp_units`: the root's
    parameters, ``wte, wpe, ln_f`` for a GPT, then ``blocks[0]`` ... ``blocks[L-1]``, the middle ones
    elided when there are more than four), and per rank three cells, its weights, gradients and AdamW
    moments (``m, v``: ``exp_avg``, ``exp_avg_sq``). Under DDP every cell is full on every rank, and
    the ranks all-reduce the gradients during the backward pass (each ends with their mean), so every
    rank takes the same AdamW step on all the weights. Under FSDP each cell is cut into ``n_ranks``
    chunks along the parameters' first dimension and rank ``r`` fills only chunk ``r``; before a unit's
    forward, and again before its backward, the ranks all-gather its weights (then free them; the root
    unit stays gathered from its forward to its backward), after its backward they reduce-scatter its
    gradients (each rank keeps the mean of its own chunk), and each rank steps AdamW on its chunks.
    Each section's title gives rank 0's bytes (:func:`rank_memory`). Row labels are the model's own
    module names; the parameter counts are its own.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    _check_int("n_ranks", n_ranks, 1, 4)
    units = fsdp_units(model)
    params = dict(model.named_parameters())
    rows = _shown(units)
    row_h, label_w, width = 0.27, 1.95, 10.0
    section_h = 0.95 + row_h * len(rows) + 1.05
    fig, ax = _canvas(width, 2 * section_h + 0.35)
    fig.set_facecolor("white")
    col_w = min(2.5, (width - label_w - 0.1) / n_ranks)
    cell_w = (col_w - 0.35) / 3
    keys = list(ROLES)

    def cell_x(rank: int, role: int) -> float:
        return label_w + rank * col_w + role * (cell_w + 0.06)

    x = 0.15
    for key in keys:  # the legend, along the top
        fill, hatch, header = ROLES[key]
        ax.add_patch(
            Rectangle(
                (x, 2 * section_h + 0.1),
                0.24,
                0.15,
                facecolor=fill,
                hatch=hatch,
                edgecolor=INK,
                linewidth=0.8,
                gid="key",
            )
        )
        name = {
            "weights": "weights",
            "gradients": "gradients",
            "optimizer": "AdamW's moments (m, v: exp_avg, exp_avg_sq)",
        }[key]
        _text(ax, x + 0.32, 2 * section_h + 0.175, name, size=SMALL, ha="left")
        x += 0.32 + len(name) * 0.062 + 0.35
    _text(ax, width - 0.1, 2 * section_h + 0.175, "empty: held by another rank", size=SMALL, ha="right", colour=MUTED)

    for section, parallel in enumerate(PARALLELS):
        top = (1 - section) * section_h + section_h
        held = rank_memory(model, parallel, n_ranks)
        total = held.weights + held.gradients + held.optimizer
        if parallel == "ddp":
            title = f"DDP (DistributedDataParallel): every rank holds all of it, {_gb(total)} per rank"
        else:
            title = f"FSDP (fully_shard on each unit): rank r holds chunk r of every parameter, {_gb(total)} on rank 0"
        _text(ax, 0.15, top - 0.2, title, fontweight="bold", ha="left")
        _text(ax, 0.15, top - 0.62, "unit (parameters)", size=SMALL, ha="left", colour=MUTED)
        for rank in range(n_ranks):
            _text(ax, cell_x(rank, 0) + (3 * cell_w + 0.12) / 2, top - 0.45, f"rank {rank}", fontweight="bold")
            for role, key in enumerate(keys):
                _text(ax, cell_x(rank, role) + cell_w / 2, top - 0.67, ROLES[key][2], size=SMALL)
        y = top - 0.85
        for unit in rows:
            y -= row_h
            if unit is None:
                _text(ax, 0.15, y + row_h / 2, "...", ha="left")
                for rank in range(n_ranks):
                    for role in range(3):
                        _text(ax, cell_x(rank, role) + cell_w / 2, y + row_h / 2, "...", size=SMALL)
                continue
            count = sum(params[n].numel() for n in unit.parameters)
            _text(ax, 0.15, y + row_h / 2, unit.label, size=SMALL, code=True, ha="left")
            _text(
                ax,
                label_w - 0.12,
                y + row_h / 2,
                f"{count / 1e6:.2f}M" if count >= 1e6 else f"{count:,}",
                size=SMALL,
                ha="right",
                colour=MUTED,
            )
            for rank in range(n_ranks):
                for role, key in enumerate(keys):
                    fill, hatch, _ = ROLES[key]
                    x0, h = cell_x(rank, role), row_h - 0.07
                    chunks = n_ranks if parallel == "fsdp" else 1
                    for chunk in range(chunks):
                        mine = parallel == "ddp" or chunk == rank
                        ax.add_patch(
                            Rectangle(
                                (x0 + chunk * cell_w / chunks, y + 0.035), cell_w / chunks, h,
                                facecolor=fill if mine else "white", hatch=hatch if mine else None,
                                edgecolor=MUTED, linewidth=0.5, gid=f"{parallel}-{'held' if mine else 'empty'}-{key}",
                            )
                        )  # fmt: skip
                    ax.add_patch(
                        Rectangle(
                            (x0, y + 0.035), cell_w, h, facecolor="none", edgecolor=INK, linewidth=0.9, gid="cell"
                        )
                    )
        # What the ranks exchange, under the grid.
        first, last = cell_x(0, 0), cell_x(n_ranks - 1, 0)
        if n_ranks == 1:
            _text(
                ax,
                label_w,
                y - 0.3,
                "one process: wrap returns the model itself, and nothing is exchanged",
                size=SMALL,
                ha="left",
            )
        elif parallel == "ddp":
            g0, g1 = first + cell_w + 0.06 + cell_w / 2, last + cell_w + 0.06 + cell_w / 2
            _double_arrow(ax, g0, g1, y - 0.16, "all-reduce")
            _text(ax, 0.15, y - 0.16, "all-reduce: gradients", size=SMALL, ha="left")
            _text(
                ax,
                label_w,
                y - 0.55,
                "all-reduce of the gradients, bucket by bucket during "
                "the backward pass: every rank ends with their mean,",
                size=SMALL,
                ha="left",
            )
            _text(ax, label_w, y - 0.73, "then takes the same AdamW step on all of the weights", size=SMALL, ha="left")
        else:
            root = units[-1].label
            _double_arrow(ax, first + cell_w / 2, last + cell_w / 2, y - 0.16, "all-gather")
            _double_arrow(ax, first + 1.5 * cell_w + 0.06, last + 1.5 * cell_w + 0.06, y - 0.36, "reduce-scatter")
            _text(ax, 0.15, y - 0.16, "all-gather: weights", size=SMALL, ha="left")
            _text(ax, 0.15, y - 0.36, "reduce-scatter: gradients", size=SMALL, ha="left")
            _text(
                ax,
                label_w,
                y - 0.55,
                "per unit: all-gather its weights before its forward "
                "and again before its backward, freeing them after each;",
                size=SMALL,
                ha="left",
            )
            _text(
                ax,
                label_w,
                y - 0.73,
                "reduce-scatter its gradients after its backward; then each rank steps AdamW on its own chunks.",
                size=SMALL,
                ha="left",
            )
            _text(
                ax,
                label_w,
                y - 0.91,
                f"The root unit ({root}) stays gathered from its forward to its backward.",
                size=SMALL,
                ha="left",
            )
    return fig


# ------------------------------------------------------------------------ memory per rank


def memory_per_rank(model: nn.Module, ranks: Sequence[int] = (1, 2, 4, 8)) -> Figure:
    """A bar chart of what rank 0 holds (:func:`rank_memory`) when ``model`` trains on each number of
    ``ranks``: for each, a DDP bar and an FSDP bar stacked by kind (weights, gradients, AdamW's
    moments, hatched differently), with the total on top, in GB (10^9 bytes)."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.Module, got {type(model).__name__}")
    if isinstance(ranks, str | bytes) or not isinstance(ranks, Sequence) or not ranks:
        raise TypeError(f"ranks must be a non-empty sequence of integers, got {ranks!r}")
    for n in ranks:
        _check_int("each number of ranks", n, 1)
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"ranks repeats a number: {list(ranks)}")
    fig, ax = plt.subplots(figsize=(8.0, 3.7))
    fig.set_facecolor("white")
    width, offsets = 0.36, {"ddp": -0.2, "fsdp": 0.2}
    tops = 0.0
    for i, n in enumerate(ranks):
        for parallel in PARALLELS:
            held = rank_memory(model, parallel, n)
            bottom = 0.0
            for key in ROLES:
                fill, hatch, _ = ROLES[key]
                value = getattr(held, key) / 1e9
                ax.bar(
                    i + offsets[parallel],
                    value,
                    width,
                    bottom=bottom,
                    color=fill,
                    hatch=hatch,
                    edgecolor=INK,
                    linewidth=0.8,
                    gid=f"{parallel}-{n}-{key}",
                )
                bottom += value
            ax.text(i + offsets[parallel], bottom, f"{bottom:.2f}", ha="center", va="bottom", fontsize=SMALL)
            tops = max(tops, bottom)
    ax.set_xticks(
        [i + o for i in range(len(ranks)) for o in offsets.values()],
        labels=["DDP", "FSDP"] * len(ranks),
        fontsize=SMALL,
    )
    for i, n in enumerate(ranks):
        ax.text(
            i,
            -0.12,
            "1 process" if n == 1 else f"{n} ranks",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=9,
        )
    ax.set_ylabel("GB held by rank 0", fontsize=9)
    ax.set_ylim(0, tops * 1.1)
    ax.set_xlim(-0.6, len(ranks) - 0.4)
    ax.tick_params(axis="y", labelsize=SMALL)
    ax.spines[["top", "right"]].set_visible(False)
    handles = [
        Rectangle((0, 0), 1, 1, facecolor=ROLES[k][0], hatch=ROLES[k][1], edgecolor=INK, linewidth=0.8) for k in ROLES
    ]
    ax.legend(
        handles,
        ["weights", "gradients", "AdamW's two moments (exp_avg, exp_avg_sq)"],
        fontsize=SMALL,
        frameon=False,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncol=3,
    )
    fig.subplots_adjust(left=0.09, right=0.98, top=0.88, bottom=0.2)
    return fig
