"""course_lib.diagrams: each schematic names the library's own modules and shapes, follows its
arguments, refuses bad ones, and keeps every label readable: apart from the others and inside the
figure."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from course_lib import attention, diagrams  # noqa: E402
from course_lib.attention import KVCache, MultiHeadAttention  # noqa: E402
from course_lib.blocks import ARRANGEMENTS, Arrangement, BlockConfig, EncoderBlock, LayerNorm  # noqa: E402
from course_lib.diagrams import (  # noqa: E402
    block_arrangements,
    gpt_stack,
    kv_cache_steps,
    multi_head_shapes,
)
from course_lib.gpt import GPT, GPTConfig  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def texts(where: Figure | Axes) -> list[Text]:
    """The visible, non-empty text artists of a figure or of one axes."""
    return [t for t in where.findobj(Text) if isinstance(t, Text) and t.get_visible() and t.get_text().strip()]


def labels(where: Figure | Axes) -> list[str]:
    return [t.get_text() for t in texts(where)]


def with_gid(where: Figure | Axes, gid: str) -> list[Artist]:
    return where.findobj(lambda artist: artist.get_gid() == gid)


def arrows(ax: Axes) -> list[FancyArrowPatch]:
    return [p for p in ax.patches if isinstance(p, FancyArrowPatch)]


def layout_problems(fig: Figure, tolerance: float = 0.5) -> list[str]:
    """Pairs of labels whose rendered extents overlap, and labels reaching outside the figure (pixels)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    placed = [(t.get_text(), t.get_window_extent(renderer)) for t in texts(fig)]
    problems = []
    for i, (a, box_a) in enumerate(placed):
        if (
            box_a.x0 < -tolerance
            or box_a.y0 < -tolerance
            or box_a.x1 > fig.bbox.x1 + tolerance
            or box_a.y1 > fig.bbox.y1 + tolerance
        ):
            problems.append(f"{a!r} reaches outside the figure: {box_a.bounds}")
        for b, box_b in placed[i + 1 :]:
            overlap_x = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            overlap_y = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if overlap_x > tolerance and overlap_y > tolerance:
                problems.append(f"{a!r} overlaps {b!r}")
    return problems


# ------------------------------------------------------------------------ multi-head attention


def test_multi_head_shapes_labels_each_tensor_with_its_shape_and_sizes() -> None:
    fig = multi_head_shapes(B=2, T=5, d_model=12, n_heads=3)
    assert isinstance(fig, Figure)
    drawn = labels(fig)
    for symbols in ("(B, T, d_model)", "(B, h, T, d_head)", "(B, h, T, T)"):
        assert symbols in drawn
    for sizes in ("(2, 5, 12)", "(2, 3, 5, 4)", "(2, 3, 5, 5)"):
        assert sizes in drawn
    assert "d_head = d_model / h = 4" in drawn[0]
    for name in ("x", "scores", "weights", "weights @ v", "merged", "output", "softmax"):
        assert name in drawn


def test_multi_head_shapes_uses_the_library_names() -> None:
    drawn = labels(multi_head_shapes())
    mha = MultiHeadAttention(8, 2)
    for projection in ("q_proj", "k_proj", "v_proj", "out_proj"):
        assert projection in drawn and isinstance(getattr(mha, projection), torch.nn.Linear)
    for function in ("split_heads", "merge_heads"):
        assert function in drawn and callable(getattr(attention, function))


@pytest.mark.parametrize("n_heads, d_head", [(1, 12), (2, 6), (4, 3), (6, 2)])
def test_multi_head_shapes_draws_one_slice_per_head(n_heads: int, d_head: int) -> None:
    fig = multi_head_shapes(B=2, T=5, d_model=12, n_heads=n_heads)
    # Six per-head tensors: q, k, v after split_heads, the scores, the weights, weights @ v.
    assert len(with_gid(fig, "head-slice")) == 6 * n_heads
    # q, k, v and merged show one feature band per head; x and the output (mixed by out_proj) one band.
    assert len(with_gid(fig, "band")) == 4 * n_heads + 2
    drawn = labels(fig)
    assert f"(2, {n_heads}, 5, {d_head})" in drawn and f"(2, {n_heads}, 5, 5)" in drawn


def test_multi_head_shapes_follows_batch_and_length() -> None:
    drawn = labels(multi_head_shapes(B=4, T=7, d_model=8, n_heads=2))
    assert {"(4, 7, 8)", "(4, 2, 7, 4)", "(4, 2, 7, 7)"} <= set(drawn)
    assert "(2, 5, 12)" not in drawn


@pytest.mark.parametrize(
    "kwargs, message",
    [({"T": 2.5}, "T must be an integer, got 2.5"), ({"d_model": True}, "d_model must be an integer, got True")],
)
def test_multi_head_shapes_rejects_sizes_that_are_not_integers(kwargs: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        multi_head_shapes(**kwargs)


# ---------------------------------------------------------------------------- block arrangements


def test_block_arrangements_draws_one_panel_per_arrangement_with_two_additions() -> None:
    fig = block_arrangements()
    assert len(fig.axes) == len(ARRANGEMENTS) == 3
    for ax, title in zip(fig.axes, ("post-LN", "pre-LN", "parallel"), strict=True):
        drawn = labels(ax)
        assert title in drawn
        # Two residual additions per block, parallel included: x + attn(h) + ff(h).
        assert drawn.count("+") == 2 and len(with_gid(ax, "add")) == 2
        assert {"self_attn", "ff", "Attn", "FFN", "x", "output"} <= set(drawn)


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_block_arrangements_draw_the_norms_the_library_has(arrangement: Arrangement) -> None:
    (ax,) = block_arrangements([arrangement]).axes
    block = EncoderBlock(BlockConfig(8, 2, 16, arrangement=arrangement))
    norms = {name for name, module in block.named_modules() if isinstance(module, LayerNorm)}
    drawn = labels(ax)
    assert {label for label in drawn if label.startswith("norm")} == norms
    assert drawn.count("LN") == len(norms) == (1 if arrangement == "parallel" else 2)


def test_block_arrangements_put_the_norms_on_the_stream_only_in_post_ln() -> None:
    fig = block_arrangements()
    for ax, on_stream in zip(fig.axes, (True, False, False), strict=True):
        centres = [box.get_x() + box.get_width() / 2 for box in with_gid(ax, "norm") if isinstance(box, FancyBboxPatch)]
        assert centres and all((abs(c - diagrams.STREAM_X) < 1e-9) == on_stream for c in centres)


def test_block_arrangements_rejects_unknown_or_no_arrangements() -> None:
    with pytest.raises(ValueError, match=r"arrangement must be one of .*, got 'sandwich'"):
        block_arrangements(["pre_ln", "sandwich"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="arrangements is empty"):
        block_arrangements([])


# ------------------------------------------------------------------------------------ GPT stack


def test_gpt_stack_names_the_model_attributes_and_the_tied_head() -> None:
    drawn = labels(gpt_stack())
    model = GPT(GPTConfig(vocab_size=11, block_size=8, n_layers=2, n_heads=2, d_model=8))
    for attribute in ("wte", "wpe", "ln_f", "lm_head"):
        assert any(label.split()[0] == attribute for label in drawn), attribute
        assert hasattr(model, attribute)
    assert model.lm_head.weight is model.wte.weight  # what the dashed line says
    tying = " ".join(drawn)
    assert "weight tying" in tying and "lm_head.weight is wte.weight" in tying and "transposed" in tying
    assert {"idx (B, T)", "wte (V, d_model)", "(B, T, V)"} <= set(drawn)
    # The opened block: pre-LN, causal self-attention, its submodules as DecoderBlock names them.
    block = model.blocks[0]
    assert {"norm1", "self_attn", "norm2", "ff", "causal attention"} <= set(drawn)
    assert all(hasattr(block, name) for name in ("norm1", "self_attn", "norm2", "ff"))
    assert drawn.count("+") == 3  # token + position embeddings, then the block's two additions


@pytest.mark.parametrize(
    "kwargs, names, elided, count",
    [
        ({}, ["blocks[0]", "blocks[1]", "blocks[L-1]"], True, "L = n_layers blocks"),
        ({"n_layers_shown": 2}, ["blocks[0]", "blocks[L-1]"], True, "L = n_layers blocks"),
        ({"n_layers_shown": 1}, ["blocks[i]"], False, "each of the L = n_layers blocks"),
        (
            {"n_layers_shown": 3, "n_layers": 12},
            ["blocks[0]", "blocks[1]", "blocks[11]"],
            True,
            "L = n_layers = 12 blocks",
        ),
        (
            {"n_layers_shown": 3, "n_layers": 3},
            ["blocks[0]", "blocks[1]", "blocks[2]"],
            False,
            "L = n_layers = 3 blocks",
        ),
        ({"n_layers_shown": 1, "n_layers": 5}, ["blocks[i]"], False, "each of the L = n_layers = 5 blocks"),
        ({"n_layers_shown": 1, "n_layers": 1}, ["blocks[0]"], False, "L = n_layers = 1"),
    ],
)
def test_gpt_stack_draws_the_blocks_asked_for(kwargs: dict, names: list[str], elided: bool, count: str) -> None:
    fig = gpt_stack(**kwargs)
    drawn = labels(fig)
    assert len(with_gid(fig, "block")) == len(names)
    assert [label for label in drawn if label.startswith("blocks[")] == names
    assert ("..." in drawn) == elided
    assert count in drawn


# ------------------------------------------------------------------------------------- KV cache


@pytest.mark.parametrize("n_steps, prompt_len", [(4, 3), (2, 5), (1, 1), (5, 7)])
def test_kv_cache_steps_grow_the_cache_as_kvcache_does(n_steps: int, prompt_len: int) -> None:
    fig = kv_cache_steps(n_steps=n_steps, prompt_len=prompt_len)
    legend, *rows = fig.axes
    assert "held in the cache (computed at an earlier pass)" in labels(legend)
    assert len(rows) == n_steps + 1
    cache, h, d_head = KVCache(), 2, 4
    for step, ax in enumerate(rows):
        fed = prompt_len if step == 0 else 1
        cache.append(torch.zeros(1, h, fed, d_head), torch.zeros(1, h, fed, d_head))
        P = cache.length
        assert P == prompt_len + step
        held, new = len(with_gid(ax, "cache-held")), len(with_gid(ax, "cache-new"))
        assert (held + new, new) == (P, fed)
        assert len(with_gid(ax, "cache-held-v")) + len(with_gid(ax, "cache-new-v")) == P
        drawn = labels(ax)
        assert f"k, v: (B, h, P, d_head), P = {P}" in drawn
        assert [f"$k_{{{j}}}$" for j in range(P)] == [label for label in drawn if label.startswith("$k_")]
        queries = [label for label in drawn if label.startswith("$q_")]
        assert queries == [f"$q_{{{i}}}$" for i in range(P - fed, P)]
        # Causal: query i attends keys 0 .. i, so the one new query attends to all P cached keys.
        assert len(arrows(ax)) == (P * (P + 1) // 2 if step == 0 else P)
        assert (f"queries (B, h, {prompt_len}, d_head)" if step == 0 else "query (B, h, 1, d_head)") in drawn


# ------------------------------------------------------------------------------------ bad arguments


@pytest.mark.parametrize(
    "draw, kwargs, message",
    [
        (multi_head_shapes, {"d_model": 10, "n_heads": 3}, "d_model=10 is not divisible by n_heads=3"),
        (multi_head_shapes, {"n_heads": 0}, "n_heads must be from 1 to 16, got 0"),
        (multi_head_shapes, {"d_model": 68, "n_heads": 17}, "n_heads must be from 1 to 16, got 17"),
        (multi_head_shapes, {"B": 0}, "B must be at least 1, got 0"),
        (gpt_stack, {"n_layers_shown": 0}, "n_layers_shown must be from 1 to 3, got 0"),
        (gpt_stack, {"n_layers_shown": 4}, "n_layers_shown must be from 1 to 3, got 4"),
        (gpt_stack, {"n_layers_shown": 3, "n_layers": 2}, "n_layers must be at least 3, got 2"),
        (kv_cache_steps, {"n_steps": 0}, "n_steps must be at least 1, got 0"),
        (kv_cache_steps, {"prompt_len": 0}, "prompt_len must be at least 1, got 0"),
        (kv_cache_steps, {"n_steps": 6, "prompt_len": 7}, "prompt_len \\+ n_steps must be at most 12"),
    ],
    ids=lambda value: value.__name__ if callable(value) else None,
)
def test_figures_reject_bad_arguments(draw: Callable[..., Figure], kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw(**kwargs)


# --------------------------------------------------------------------------------- readability

FIGURES: list[tuple[str, Callable[[], Figure]]] = [
    ("multi_head_shapes", multi_head_shapes),
    ("multi_head_shapes, one head", lambda: multi_head_shapes(n_heads=1)),
    ("multi_head_shapes, GPT-2 sizes", lambda: multi_head_shapes(B=16, T=1024, d_model=768, n_heads=12)),
    ("multi_head_shapes, 16 heads", lambda: multi_head_shapes(d_model=64, n_heads=16)),
    ("block_arrangements", block_arrangements),
    ("block_arrangements, pre-LN", lambda: block_arrangements(["pre_ln"])),
    ("gpt_stack", gpt_stack),
    ("gpt_stack, one block", lambda: gpt_stack(n_layers_shown=1)),
    ("gpt_stack, 48 blocks", lambda: gpt_stack(n_layers_shown=3, n_layers=48)),
    ("kv_cache_steps", kv_cache_steps),
    ("kv_cache_steps, full rows", lambda: kv_cache_steps(n_steps=5, prompt_len=7)),
    ("kv_cache_steps, one step", lambda: kv_cache_steps(n_steps=1, prompt_len=1)),
]


@pytest.mark.parametrize("make", [make for _, make in FIGURES], ids=[name for name, _ in FIGURES])
def test_labels_do_not_overlap_and_stay_inside_the_figure(make: Callable[[], Figure]) -> None:
    fig = make()
    assert layout_problems(fig) == []
    assert fig.get_size_inches()[0] <= 10.0  # drawn for the book's width
    assert min(float(t.get_fontsize()) for t in texts(fig)) >= 8  # readable at that width


def test_layout_problems_catches_overlapping_and_clipped_labels() -> None:
    fig = plt.figure(figsize=(4, 2))
    fig.text(0.5, 0.5, "scores (B, h, T, T)", ha="center")
    fig.text(0.52, 0.51, "weights (B, h, T, T)", ha="center")
    fig.text(0.99, 0.1, "cut off at the edge")
    problems = layout_problems(fig)
    assert "'scores (B, h, T, T)' overlaps 'weights (B, h, T, T)'" in problems
    assert any(problem.startswith("'cut off at the edge' reaches outside the figure") for problem in problems)
    assert len(problems) == 2
