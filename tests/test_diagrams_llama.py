"""Chapter 7's schematic of a GPT-2 block beside a Llama block is drawn from the blocks it is given: the
norms' class, the head counts, RoPE, the gate and the biases follow the block, every code label resolves in
it, a renamed submodule renames its box, labels stay apart and inside the figure, and blocks it cannot draw
are refused by name."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402
from test_diagrams_finetune_scaling import renamed, resolve  # noqa: E402
from torch import nn  # noqa: E402

from course_lib.blocks import BlockConfig, DecoderBlock, EncoderBlock  # noqa: E402
from course_lib.diagrams import decoder_blocks  # noqa: E402
from course_lib.gpt import GPT, GPTConfig  # noqa: E402
from course_lib.llama import Llama, LlamaConfig  # noqa: E402

from test_diagrams import close_figures, labels, layout_problems  # noqa: E402,F401  (close_figures: autouse)


def gpt_block() -> nn.Module:
    return GPT(GPTConfig(vocab_size=12, block_size=16, n_layers=1, n_heads=4, d_model=32)).blocks[0]


def llama_block(n_heads: int = 4, n_kv_heads: int = 2, d_ff: int = 86) -> nn.Module:
    config = LlamaConfig(
        vocab_size=12, block_size=16, n_layers=1, n_heads=n_heads, n_kv_heads=n_kv_heads, d_model=32, d_ff=d_ff
    )
    return Llama(config).layers[0]


def panels(fig: Figure) -> list[Axes]:
    return list(fig.axes)


def boxes(ax: Axes, gid: str) -> int:
    return sum(1 for p in ax.patches if isinstance(p, FancyBboxPatch) and p.get_gid() == gid)


def code_labels(ax: Axes) -> list[str]:
    return [t.get_text() for t in ax.texts if t.get_fontfamily() == ["monospace"]]


def test_each_panel_reads_its_block() -> None:
    fig = decoder_blocks({"GPT-2": gpt_block(), "Llama": llama_block()})
    gpt, llama = panels(fig)
    assert labels(gpt).count("LayerNorm") == 2 and "RMSNorm" not in labels(gpt)
    assert labels(llama).count("RMSNorm") == 2 and "LayerNorm" not in labels(llama)
    assert (boxes(gpt, "rope"), boxes(llama, "rope")) == (0, 2)  # queries and keys rotated, values not
    assert (boxes(gpt, "gate"), boxes(llama, "gate")) == (0, 1)
    assert labels(gpt).count("4 heads") == 3
    assert labels(llama).count("4 heads") == 1 and labels(llama).count("2 heads") == 2
    assert "each key/value head\nserves 2 query heads" in labels(llama)
    assert not any("key/value head" in s for s in labels(gpt))
    assert "biases in every linear map and norm" in labels(gpt) and "no biases" in labels(llama)
    assert "to 128" in labels(gpt) and labels(llama).count("to 86") == 2
    assert "GELU (tanh)" in labels(gpt) and "SiLU" in labels(llama)
    assert [ax.texts[-2].get_text() for ax in (gpt, llama)] == ["GPT-2", "Llama"]  # the titles, drawn last


@pytest.mark.parametrize("heads", [(4, 4), (4, 1), (8, 2)])
def test_heads_follow_the_block(heads: tuple[int, int]) -> None:
    n_heads, n_kv_heads = heads
    (ax,) = panels(decoder_blocks({"Llama": llama_block(n_heads, n_kv_heads)}))
    assert labels(ax).count(f"{n_kv_heads} heads") >= 2
    assert f"{n_heads} heads" in labels(ax)
    shared = [s for s in labels(ax) if "key/value head" in s]
    assert shared == (
        [] if n_heads == n_kv_heads else [f"each key/value head\nserves {n_heads // n_kv_heads} query heads"]
    )


@pytest.mark.parametrize("make", [gpt_block, llama_block])
def test_code_labels_resolve_in_the_block(make) -> None:  # type: ignore[no-untyped-def]
    block = make()
    (ax,) = panels(decoder_blocks({"block": block}))
    codes = code_labels(ax)
    assert len(codes) >= 9
    for code in codes:
        target = resolve(block, code) if "." in code else getattr(block, code, None) or resolve(block.self_attn, code)
        assert isinstance(target, nn.Module), code


def test_a_renamed_submodule_renames_its_box() -> None:
    block = llama_block()
    block.ff = renamed(block.ff, "linear_v", "gate_proj")
    twin = renamed(block, "norm1", "attention_norm")
    (ax,) = panels(decoder_blocks({"Llama": twin}))
    assert "ff.gate_proj" in code_labels(ax) and "ff.linear_v" not in code_labels(ax)
    assert "attention_norm" in code_labels(ax) and "norm1" not in code_labels(ax)


@pytest.mark.parametrize("n_blocks", [1, 2, 3])
def test_labels_stay_apart_and_inside(n_blocks: int) -> None:
    blocks = {f"block {i}": (gpt_block() if i % 2 else llama_block(8, 1)) for i in range(n_blocks)}
    fig = decoder_blocks(blocks)
    assert len(panels(fig)) == n_blocks
    assert layout_problems(fig) == []


def test_biases_are_named_as_the_block_has_them() -> None:
    rms_with_biased_maps = DecoderBlock(BlockConfig(32, 4, 64, norm="rms"), cross_attention=False)
    (ax,) = panels(decoder_blocks({"mixed": rms_with_biased_maps}))
    assert "some biases" in labels(ax)  # biased linear maps, RMSNorms without: neither "every" nor "no"


def test_blocks_it_cannot_draw_are_refused_by_name() -> None:
    config = BlockConfig(32, 4, 64)
    with pytest.raises(ValueError, match="empty"):
        decoder_blocks({})
    with pytest.raises(TypeError, match="DecoderBlock, got EncoderBlock"):
        decoder_blocks({"encoder": EncoderBlock(config)})
    with pytest.raises(ValueError, match="cross-attention"):
        decoder_blocks({"T5-like": DecoderBlock(config)})
    with pytest.raises(ValueError, match="pre-LN blocks, this one is post_ln"):
        decoder_blocks({"post-LN": DecoderBlock(BlockConfig(32, 4, 64, arrangement="post_ln"), cross_attention=False)})
