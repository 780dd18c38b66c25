"""The schematics of chapter 6 (LoRA, adapters) and of the appendix (DDP against FSDP, memory per rank)
are drawn from the library's objects: every code label resolves in the model it was drawn from, a
renamed submodule renames its label, the figures follow the models' sizes and training state, refuse
bad arguments, and keep their labels apart and inside the figure."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from torch import nn  # noqa: E402

from course_lib import diagrams  # noqa: E402
from course_lib.bert import Bert, BertConfig  # noqa: E402
from course_lib.distributed import World, wrap  # noqa: E402
from course_lib.finetune import (  # noqa: E402
    LoRALinear,
    SequenceClassifier,
    add_adapters,
    apply_lora,
    freeze,
    merge_lora,
    training_memory,
)
from course_lib.gpt import GPT, GPTConfig  # noqa: E402

from test_diagrams import close_figures, labels, layout_problems, texts, with_gid  # noqa: E402,F401  (close_figures: autouse)

TINY_BERT = BertConfig(vocab_size=20, block_size=16, n_layers=2, n_heads=2, d_model=32, d_ff=64)
TINY_GPT = GPTConfig(vocab_size=12, block_size=16, n_layers=2, n_heads=2, d_model=32)


def code_labels(fig: Figure) -> list[str]:
    """The labels set in the monospaced font: the library's names (and shapes)."""
    return [t.get_text() for t in texts(fig) if t.get_fontfamily() == ["monospace"]]


def resolve(root: nn.Module, path: str) -> object:
    """What ``path`` names in ``root``: attributes and indices, ``a.b[0].c`` or ``a.b.0.c``."""
    target: object = root
    for part in re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\d+", path):
        target = target[int(part)] if part.isdigit() else getattr(target, part)  # type: ignore[index]
    return target


def renamed(module: nn.Module, old: str, new: str) -> nn.Module:
    """A copy of ``module`` whose child module or parameter ``old`` is registered as ``new``, and that
    still computes the same: a subclass reads ``old`` through a property."""
    twin = copy.deepcopy(module)
    twin.__class__ = type(type(module).__name__, (type(module),), {old: property(lambda self: getattr(self, new))})
    store = twin._modules if old in twin._modules else twin._parameters
    items = [(new if key == old else key, value) for key, value in store.items()]
    store.clear()
    store.update(items)
    return twin


def state_patches(fig: Figure) -> dict[str, str]:
    """``code name -> training state`` for every box the figure draws for a submodule."""
    found = {}
    for patch in fig.findobj(FancyBboxPatch):
        gid = patch.get_gid() or ""
        if ":" in gid:
            state, code = gid.split(":", 1)
            found[code] = state
    return found


def classifier(seed: int = 0) -> SequenceClassifier:
    torch.manual_seed(seed)
    return SequenceClassifier(Bert(TINY_BERT), n_classes=2, pooling="mean")


# ----------------------------------------------------------------------------------------- LoRA


def lora_model(r: int = 4, alpha: float = 8.0, dropout: float = 0.0) -> SequenceClassifier:
    model = classifier()
    apply_lora(model, ["*.q_proj", "*.v_proj"], r=r, alpha=alpha, dropout=dropout)
    freeze(model, ["*lora_*", "head.*"])
    return model


def test_lora_linear_labels_are_the_layers_names_and_shapes() -> None:
    model = lora_model(r=4, alpha=8)
    name = "body.encoder.layers.1.self_attn.v_proj"
    layer = model.get_submodule(name)
    fig = diagrams.lora_linear(model, name)
    codes = code_labels(fig)
    assert codes[0] == f"{name}: a LoRALinear of rank r = 4"
    for label in codes[1:]:
        if label.startswith("("):  # a shape: (..., d_in)
            continue
        path = label.split(" ")[0]
        assert resolve(layer, path) is not None, label
    assert {
        "lora_A (4, 32)",
        "lora_B (32, 4)",
        "base (32 → 32)",
        "scale = 2",
        "base.weight",
        "lora_A",
        "lora_B",
    } <= set(codes)
    assert "base.weight += scale * lora_B @ lora_A" in codes
    assert tuple(layer.lora_A.shape) == (4, 32) and tuple(layer.lora_B.shape) == (32, 4) and layer.scale == 2
    drawn = labels(fig)
    assert "trained here: 256 numbers (lora_A and lora_B: r·(d_in + d_out) = 4 × 64);" in drawn
    assert "frozen: 1,056 (base.weight (32, 32) and its bias)" in drawn
    assert sum(p.numel() for p in layer.parameters() if p.requires_grad) == 256


def test_lora_linear_defaults_to_the_first_lora_layer() -> None:
    model = lora_model()
    first = next(n for n, m in model.named_modules() if isinstance(m, LoRALinear))
    assert code_labels(diagrams.lora_linear(model))[0].startswith(f"{first}: ")
    assert first == "body.encoder.layers.0.self_attn.q_proj"


def test_lora_linear_marks_what_trains_as_the_layer_says() -> None:
    model = lora_model()
    assert state_patches(diagrams.lora_linear(model)) == {"base": "frozen", "lora_A": "trained", "lora_B": "trained"}
    freeze(model, ["head.*"])  # the LoRA factors frozen too
    fig = diagrams.lora_linear(model)
    assert state_patches(fig) == {"base": "frozen", "lora_A": "frozen", "lora_B": "frozen"}
    assert all(m.get_hatch() is None for m in fig.findobj(Rectangle) if (m.get_gid() or "").startswith("matrix-"))


@pytest.mark.parametrize("d_in, d_out, r", [(6, 10, 1), (10, 6, 3), (32, 32, 32), (48, 12, 5)])
def test_lora_linear_follows_the_layer_sizes(d_in: int, d_out: int, r: int) -> None:
    layer = LoRALinear(nn.Linear(d_in, d_out), r=r, alpha=2.0 * r)
    fig = diagrams.lora_linear(nn.Sequential(layer), "0")
    codes = code_labels(fig)
    assert {
        f"lora_A ({r}, {d_in})",
        f"lora_B ({d_out}, {r})",
        f"(..., {d_in})",
        f"(..., {d_out})",
        f"base ({d_in} → {d_out})",
    } <= set(codes)
    assert f"(..., r={r})" in labels(fig)
    # The merge is drawn to scale: W0 is d_out x d_in, B is d_out x r, A is r x d_in.
    (W,), (B,), (A,) = (with_gid(fig, f"matrix-{m}") for m in ("W0", "B", "A"))
    unit = W.get_width() / d_in
    assert W.get_height() == pytest.approx(d_out * unit)
    assert B.get_height() == pytest.approx(d_out * unit) and A.get_width() == pytest.approx(d_in * unit)
    assert B.get_width() == pytest.approx(max(r * unit, 0.05)) and A.get_height() == pytest.approx(max(r * unit, 0.05))


def test_lora_linear_draws_dropout_only_where_the_layer_has_it() -> None:
    assert not any(label.startswith("drop") for label in code_labels(diagrams.lora_linear(lora_model())))
    fig = diagrams.lora_linear(lora_model(dropout=0.1))
    assert "drop (p=0.1)" in code_labels(fig)
    assert isinstance(lora_model(dropout=0.1).get_submodule("body.encoder.layers.0.self_attn.q_proj.drop"), nn.Dropout)


def test_lora_linear_shows_a_merged_layer_without_its_lora_path() -> None:
    model = lora_model()
    assert not any("not computed" in label for label in labels(diagrams.lora_linear(model)))
    merge_lora(model)
    fig = diagrams.lora_linear(model)
    assert "LoRA path not computed (merged: base.weight holds the update)" in labels(fig)
    dashed = [p for p in fig.findobj(FancyArrowPatch) if p.get_linestyle() == "--"]
    assert len(dashed) == 4  # into A, A to B, B to the scale, the scale to the sum


def test_lora_linear_takes_its_names_from_the_layer() -> None:
    layer = LoRALinear(nn.Linear(8, 8), r=2, alpha=4.0)
    twin = renamed(renamed(layer, "lora_A", "down"), "base", "frozen")
    x = torch.randn(3, 8)
    with torch.no_grad():
        twin.get_parameter("down").normal_()
        twin.get_parameter("lora_B").normal_()
        # the twin still computes LoRA
        assert torch.allclose(twin(x), twin.frozen(x) + twin.scale * x @ twin.down.T @ twin.lora_B.T)
    codes = code_labels(diagrams.lora_linear(nn.Sequential(twin)))
    assert {"down (2, 8)", "frozen (8 → 8)", "frozen.weight", "frozen.weight += scale * lora_B @ down"} <= set(codes)
    assert not any(c.startswith(("lora_A", "base")) for c in codes)


def test_lora_linear_refuses_what_it_cannot_draw() -> None:
    with pytest.raises(TypeError, match="model must be an nn.Module holding a LoRALinear, got Tensor"):
        diagrams.lora_linear(torch.zeros(2, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="SequenceClassifier holds no LoRALinear: wrap its layers"):
        diagrams.lora_linear(classifier())
    with pytest.raises(ValueError, match="'body.encoder.layers.0.self_attn.k_proj' is a Linear, not a LoRALinear"):
        diagrams.lora_linear(lora_model(), "body.encoder.layers.0.self_attn.k_proj")
    with pytest.raises(ValueError, match="SequenceClassifier has no submodule 'body.decoder'"):
        diagrams.lora_linear(lora_model(), "body.decoder")


# ------------------------------------------------------------------------------------- adapters


def adapter_model(
    targets: tuple[str, ...] = ("*.out_proj", "*.linear2"),
    bottleneck: int = 4,
    train: tuple[str, ...] = ("*.adapter.*", "*norm*", "head.*"),
) -> SequenceClassifier:
    model = classifier()
    add_adapters(model, list(targets), bottleneck=bottleneck)
    freeze(model, list(train))
    return model


def test_adapter_block_labels_resolve_in_the_block() -> None:
    model = adapter_model()
    fig = diagrams.adapter_block(model)
    codes = code_labels(fig)
    assert codes[0] == "body.encoder.layers.0: a post-LN EncoderBlock, one of 2, with adapters (bottleneck m = 4)"
    block = model.get_submodule("body.encoder.layers.0")
    adapter = block.get_submodule("self_attn.out_proj.adapter")
    for label in codes[1:]:
        path = label.split(" ")[0]
        if label.startswith("(") or label.startswith("x"):  # shapes and the adapter's formula
            continue
        target = adapter.get_submodule(path) if path in ("down", "up") else block.get_submodule(path)
        assert isinstance(target, nn.Module), label
    expected = {
        "self_attn",
        "self_attn.out_proj.base",
        "self_attn.out_proj.adapter",
        "norm1",
        "ff.linear1",
        "ff.linear2.base",
        "ff.linear2.adapter",
        "norm2",
        "down",
        "up",
    }
    assert set(state_patches(fig)) == expected
    assert {"x (B, T, 32)", "(B, T, 32)", "x + up(GELU(down(x)))"} <= set(codes)
    drawn = labels(fig)
    assert {"down-projection 32 → 4", "up-projection 4 → 32", "FFN in, gelu", "GELU"} <= set(drawn)
    assert drawn.count("+") == 3  # two residual sums and the adapter's own skip


@pytest.mark.parametrize(
    "train, states",
    [
        (
            ("*.adapter.*", "*norm*", "head.*"),
            {
                "self_attn": "frozen",
                "self_attn.out_proj.base": "frozen",
                "self_attn.out_proj.adapter": "trained",
                "norm1": "trained",
                "down": "trained",
                "up": "trained",
            },
        ),
        (
            ("*",),
            {
                "self_attn": "trained",
                "self_attn.out_proj.base": "trained",
                "self_attn.out_proj.adapter": "trained",
                "norm1": "trained",
                "down": "trained",
            },
        ),
        (
            ("*.bias",),
            {
                "self_attn": "partly trained",
                "self_attn.out_proj.base": "partly trained",
                "norm1": "partly trained",
                "down": "partly trained",
            },
        ),
        (
            ("*.adapter.up.*",),
            {"self_attn.out_proj.adapter": "partly trained", "down": "frozen", "up": "trained", "norm2": "frozen"},
        ),
    ],
)
def test_adapter_block_marks_what_trains_as_requires_grad_says(train: tuple[str, ...], states: dict[str, str]) -> None:
    model = adapter_model(train=train)
    drawn = state_patches(diagrams.adapter_block(model))
    assert {code: drawn[code] for code in states} == states
    block = model.get_submodule("body.encoder.layers.0")
    for code, state in drawn.items():  # every box agrees with the parameters it stands for
        if code in ("down", "up"):
            params = list(block.get_submodule(f"self_attn.out_proj.adapter.{code}").parameters())
        elif code == "self_attn":  # the projections before the output projection
            params = [p for n, p in block.self_attn.named_parameters() if not n.startswith("out_proj")]
        else:
            params = list(block.get_submodule(code).parameters())
        flags = {p.requires_grad for p in params}
        assert state == ("trained" if flags == {True} else "frozen" if flags == {False} else "partly trained"), code


def test_adapter_block_counts_the_trained_parameters_by_kind() -> None:
    model = adapter_model(bottleneck=4)
    line = next(label for label in labels(diagrams.adapter_block(model)) if label.startswith("in the whole model"))
    adapters = sum(p.numel() for n, p in model.named_parameters() if ".adapter." in n)
    norms = sum(p.numel() for n, p in model.named_parameters() if "norm" in n)
    frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
    assert f"4 adapters {adapters:,}" in line and f"5 LayerNorms {norms:,}" in line  # 2 per block, and embeddings.norm
    assert f"head {model.head.weight.numel() + model.head.bias.numel():,}" in line and f"Frozen: {frozen:,}." in line
    assert adapters == 4 * (32 * 4 + 4 + 4 * 32 + 32)


def test_adapter_block_follows_the_width_the_bottleneck_and_the_block() -> None:
    model = adapter_model(bottleneck=7)
    fig = diagrams.adapter_block(model, block=-1)
    assert code_labels(fig)[0].startswith("body.encoder.layers.1: ") and "(bottleneck m = 7)" in code_labels(fig)[0]
    assert {"down-projection 32 → 7", "up-projection 7 → 32"} <= set(labels(fig))


def test_adapter_block_draws_only_the_adapters_the_block_has() -> None:
    fig = diagrams.adapter_block(adapter_model(targets=("*.linear2",)))
    drawn = state_patches(fig)
    assert (
        "self_attn.out_proj" in drawn
        and "self_attn.out_proj.base" not in drawn
        and "self_attn.out_proj.adapter" not in drawn
    )
    assert "ff.linear2.adapter" in drawn
    assert "ff.linear2.adapter" in code_labels(fig)  # the adapter opened up is the block's only one


def test_adapter_block_takes_its_names_from_the_block() -> None:
    model = adapter_model()
    layers = model.get_submodule("body.encoder.layers")
    layers[0] = renamed(renamed(layers[0], "norm1", "ln_attn"), "ff", "mlp")
    out_proj = renamed(layers[0].self_attn.out_proj, "base", "frozen")  # an AdaptedLinear
    out_proj.adapter = renamed(out_proj.adapter, "down", "squeeze")
    layers[0].self_attn.out_proj = out_proj
    x = torch.randint(0, 20, (2, 5))
    assert model(x).shape == (2, 2)  # the renamed block still runs
    fig = diagrams.adapter_block(model)
    drawn = state_patches(fig)
    assert {
        "ln_attn",
        "mlp.linear1",
        "mlp.linear2.base",
        "mlp.linear2.adapter",
        "norm2",
        "self_attn.out_proj.frozen",
        "squeeze",
        "up",
    } <= set(drawn)
    assert "norm1" not in drawn and "down" not in drawn and "self_attn.out_proj.base" not in drawn
    assert not any(code.startswith("ff.") for code in drawn)
    assert "x + up(GELU(squeeze(x)))" in code_labels(fig)


def test_adapter_block_refuses_what_it_cannot_draw() -> None:
    with pytest.raises(TypeError, match="model must be an nn.Module, got str"):
        diagrams.adapter_block("bert")  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="layers.0 holds no adapter: wrap layers with course_lib.finetune.add_adapters"
    ):
        diagrams.adapter_block(classifier())
    with pytest.raises(ValueError, match="block 2 does not exist: body.encoder.layers holds 2 blocks"):
        diagrams.adapter_block(adapter_model(), block=2)
    with pytest.raises(TypeError, match="block must be an integer, got '0'"):
        diagrams.adapter_block(adapter_model(), block="0")  # type: ignore[arg-type]
    pre_ln = SequenceClassifier(
        Bert(BertConfig(vocab_size=20, block_size=16, n_layers=2, n_heads=2, d_model=32, arrangement="pre_ln")), 2
    )
    add_adapters(pre_ln, ["*.out_proj"], bottleneck=4)
    with pytest.raises(ValueError, match="adapter_block draws post-LN blocks .*; body.encoder.layers.0 is 'pre_ln'"):
        diagrams.adapter_block(pre_ln)
    with pytest.raises(ValueError, match=r"adapters after a branch's last layer .*\['self_attn.q_proj'\] is adapted"):
        diagrams.adapter_block(adapter_model(targets=("*.q_proj", "*.linear2")))
    with pytest.raises(ValueError, match="choose blocks by index only in a model with one stack of blocks"):
        diagrams.adapter_block(nn.Linear(2, 2))


# ------------------------------------------------------------------------------ DDP against FSDP


@pytest.fixture
def one_rank_group(tmp_path) -> Iterator[None]:  # noqa: ANN001
    """A gloo process group of one process: enough for fully_shard to group the parameters."""
    if dist.is_initialized():
        pytest.skip("a process group is running already")
    dist.init_process_group("gloo", store=dist.FileStore(str(tmp_path / "store"), 1), rank=0, world_size=1)
    yield
    dist.destroy_process_group()


@pytest.mark.parametrize("make", [lambda: GPT(TINY_GPT), lambda: Bert(TINY_BERT)], ids=["gpt", "bert"])
def test_fsdp_units_are_the_groups_wrap_gives_fully_shard(make: Callable[[], nn.Module], one_rank_group: None) -> None:
    from torch.distributed.fsdp import FSDPModule
    from torch.distributed.tensor import DTensor

    model = make()
    units = {unit.path: set(unit.parameters) for unit in diagrams.fsdp_units(model)}
    # size 2: wrap shards (over the one process there is)
    wrap(model, "fsdp", World(rank=0, size=2), torch.device("cpu"))
    groups = {}
    for path, module in model.named_modules():
        if isinstance(module, FSDPModule):
            module.unshard()  # only this unit's parameters become whole tensors
            groups[path] = {n for n, p in model.named_parameters() if not isinstance(p, DTensor)}
            module.reshard()
    assert groups == units
    assert len(units) == 2 + 1


def test_fsdp_units_label_the_root_by_the_children_holding_its_parameters() -> None:
    gpt, bert = diagrams.fsdp_units(GPT(TINY_GPT)), diagrams.fsdp_units(Bert(TINY_BERT))
    assert [u.label for u in gpt] == ["blocks[0]", "blocks[1]", "wte, wpe, ln_f"]  # lm_head is wte's weight, tied
    assert [u.label for u in bert] == ["encoder.layers[0]", "encoder.layers[1]", "embeddings, pooler"]


def section_labels(fig: Figure, parallel: str) -> list[Text]:
    """The texts of the DDP (upper) or FSDP (lower) half of the figure."""
    middle = fig.get_size_inches()[1] * fig.dpi / 2
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    upper = parallel == "ddp"
    return [t for t in texts(fig) if (t.get_window_extent(renderer).y0 > middle) == upper]


@pytest.mark.parametrize(
    "n_layers, rows",
    [
        (2, ["wte, wpe, ln_f", "blocks[0]", "blocks[1]"]),
        (4, ["wte, wpe, ln_f", "blocks[0]", "blocks[1]", "blocks[2]", "blocks[3]"]),
        (12, ["wte, wpe, ln_f", "blocks[0]", "blocks[1]", "blocks[11]"]),
    ],
)
@pytest.mark.parametrize("n_ranks", [1, 2, 4])
def test_ddp_fsdp_draws_every_rank_and_unit(n_layers: int, rows: list[str], n_ranks: int) -> None:
    model = GPT(GPTConfig(vocab_size=12, block_size=16, n_layers=n_layers, n_heads=2, d_model=16))
    fig = diagrams.ddp_fsdp(model, n_ranks)
    params = dict(model.named_parameters())
    for parallel in ("ddp", "fsdp"):
        drawn = [t.get_text() for t in section_labels(fig, parallel)]
        assert [label for label in drawn if label.startswith("rank ")] == [f"rank {r}" for r in range(n_ranks)]
        assert [label for label in drawn if label.startswith(("wte", "blocks"))] == rows
        assert ("..." in drawn) == (n_layers > 4)
        for row in rows:  # each row's count is its unit's parameters
            unit = next(u for u in diagrams.fsdp_units(model) if u.label == row)
            assert f"{sum(params[n].numel() for n in unit.parameters):,}" in drawn
    cells = 3 * len(rows) * n_ranks
    for key in ("weights", "gradients", "optimizer"):
        assert len(with_gid(fig, f"ddp-held-{key}")) == len(rows) * n_ranks and not with_gid(fig, f"ddp-empty-{key}")
        assert len(with_gid(fig, f"fsdp-held-{key}")) == len(rows) * n_ranks  # one chunk of n_ranks per cell
        assert len(with_gid(fig, f"fsdp-empty-{key}")) == len(rows) * n_ranks * (n_ranks - 1)
    assert len(with_gid(fig, "cell")) == 2 * cells
    exchanges = {gid: len(with_gid(fig, gid)) for gid in ("all-reduce", "all-gather", "reduce-scatter")}
    assert exchanges == (
        {"all-reduce": 0, "all-gather": 0, "reduce-scatter": 0}
        if n_ranks == 1
        else {"all-reduce": 1, "all-gather": 1, "reduce-scatter": 1}
    )


def test_ddp_fsdp_labels_resolve_in_the_model_and_titles_give_rank_memory() -> None:
    model = GPT(TINY_GPT)
    fig = diagrams.ddp_fsdp(model, 2)
    for label in code_labels(fig):
        for name in label.split(", "):
            assert isinstance(resolve(model, name), nn.Module), name
    drawn = labels(fig)
    ddp, fsdp = (diagrams.rank_memory(model, p, 2) for p in ("ddp", "fsdp"))
    ddp_mb, fsdp_mb = (m.weights + m.gradients + m.optimizer for m in (ddp, fsdp))
    assert f"DDP (DistributedDataParallel): every rank holds all of it, {ddp_mb / 1e6:.2f} MB per rank" in drawn
    assert (
        f"FSDP (fully_shard on each unit): rank r holds chunk r of every parameter, {fsdp_mb / 1e6:.2f} MB on rank 0"
        in drawn
    )
    assert "The root unit (wte, wpe, ln_f) stays gathered from its forward to its backward." in drawn


def test_ddp_fsdp_takes_its_names_from_the_model() -> None:
    model = renamed(renamed(GPT(TINY_GPT), "blocks", "layers"), "wte", "tok")
    assert model(torch.zeros(1, 4, dtype=torch.long)).shape == (1, 4, 12)  # still a working GPT
    codes = code_labels(diagrams.ddp_fsdp(model, 2))
    assert codes.count("tok, wpe, ln_f") == 2 and codes.count("layers[0]") == 2
    assert not any(c.startswith(("blocks", "wte")) for c in codes)


def test_ddp_fsdp_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="n_ranks must be from 1 to 4, got 5"):
        diagrams.ddp_fsdp(GPT(TINY_GPT), 5)
    with pytest.raises(TypeError, match="n_ranks must be an integer, got 2.0"):
        diagrams.ddp_fsdp(GPT(TINY_GPT), 2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="model must be an nn.Module, got GPTConfig"):
        diagrams.ddp_fsdp(TINY_GPT)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- memory per rank


def test_rank_memory_on_one_rank_is_training_memorys_count() -> None:
    model = GPT(TINY_GPT)
    idx = torch.randint(0, 12, (2, 8))
    single = training_memory(model, lambda: nn.functional.cross_entropy(model(idx).flatten(0, 1), idx.flatten()))
    for parallel in ("ddp", "fsdp"):
        assert diagrams.rank_memory(model, parallel, 1)[:3] == single[:3]
        assert diagrams.rank_memory(model, "ddp", 8)[:3] == single[:3]  # DDP: everything on every rank
    assert single.weights == 4 * sum(p.numel() for p in model.parameters()) and single.optimizer == 2 * single.gradients


@pytest.mark.parametrize("n_ranks", [2, 3, 4, 8, 64])
def test_rank_memory_under_fsdp_is_rank_zeros_chunk_of_every_parameter(n_ranks: int) -> None:
    model = GPT(TINY_GPT).to(torch.bfloat16)
    freeze(model, ["blocks.*"])  # frozen parameters have no gradient and no moments
    chunk = {n: p.chunk(n_ranks, dim=0)[0] for n, p in model.named_parameters()}  # FSDP splits as torch.chunk does
    weights = sum(c.numel() * 2 for c in chunk.values())
    gradients = sum(c.numel() * 2 for n, c in chunk.items() if n.startswith("blocks."))
    assert diagrams.rank_memory(model, "fsdp", n_ranks) == (weights, gradients, 2 * gradients, 0)


def test_rank_memory_keeps_ceil_rows_on_rank_zero() -> None:
    layer = nn.Linear(3, 5)  # weight (5, 3), bias (5,): 3 of 5 rows on rank 0 of 2
    assert diagrams.rank_memory(layer, "fsdp", 2) == (4 * (9 + 3), 4 * 12, 8 * 12, 0)
    assert diagrams.rank_memory(layer, "fsdp", 5) == (4 * (3 + 1), 4 * 4, 8 * 4, 0)
    with pytest.raises(ValueError, match="parallel must be one of \\('ddp', 'fsdp'\\), got 'zero3'"):
        diagrams.rank_memory(layer, "zero3", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_ranks must be at least 1, got 0"):
        diagrams.rank_memory(layer, "ddp", 0)


@pytest.mark.parametrize("ranks", [(1, 2, 4, 8), (2, 16), (1,)])
def test_memory_per_rank_bars_are_rank_memory(ranks: tuple[int, ...]) -> None:
    model = GPT(TINY_GPT)
    fig = diagrams.memory_per_rank(model, ranks)
    drawn = labels(fig)
    for n in ranks:
        assert ("1 process" if n == 1 else f"{n} ranks") in drawn
        for parallel in ("ddp", "fsdp"):
            held = diagrams.rank_memory(model, parallel, n)
            bottom = 0.0
            for key in ("weights", "gradients", "optimizer"):
                (bar,) = with_gid(fig, f"{parallel}-{n}-{key}")
                assert bar.get_height() == pytest.approx(getattr(held, key) / 1e9) and bar.get_y() == pytest.approx(
                    bottom
                )
                bottom += bar.get_height()
            assert f"{bottom:.2f}" in drawn
    hatches = {
        key: {bar.get_hatch() for bar in fig.findobj(Rectangle) if (bar.get_gid() or "").endswith(key)}
        for key in ("weights", "gradients", "optimizer")
    }
    assert len({frozenset(h) for h in hatches.values()}) == 3  # the kinds differ in greyscale too


def test_memory_per_rank_refuses_bad_ranks() -> None:
    model = GPT(TINY_GPT)
    with pytest.raises(TypeError, match="ranks must be a non-empty sequence of integers, got \\(\\)"):
        diagrams.memory_per_rank(model, ())
    with pytest.raises(TypeError, match="ranks must be a non-empty sequence of integers, got '1248'"):
        diagrams.memory_per_rank(model, "1248")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="each number of ranks must be at least 1, got 0"):
        diagrams.memory_per_rank(model, (0, 2))
    with pytest.raises(ValueError, match="ranks repeats a number: \\[2, 2\\]"):
        diagrams.memory_per_rank(model, (2, 2))


# --------------------------------------------------------------------------------- readability


def gpt_small_sizes() -> GPT:
    """GPT-2 small, its sizes without its memory (on the meta device: shapes and dtypes, no values)."""
    with torch.device("meta"):
        return GPT(GPTConfig(vocab_size=50257, block_size=1024, n_layers=12, n_heads=12, d_model=768))


FIGURES: list[tuple[str, Callable[[], Figure]]] = [
    ("lora_linear", lambda: diagrams.lora_linear(lora_model())),
    ("lora_linear, dropout", lambda: diagrams.lora_linear(lora_model(dropout=0.1))),
    ("lora_linear, merged", lambda: (lambda m: (merge_lora(m), diagrams.lora_linear(m))[1])(lora_model())),
    (
        "lora_linear, 1536 -> 384",
        lambda: diagrams.lora_linear(nn.Sequential(LoRALinear(nn.Linear(1536, 384), r=16, alpha=32))),
    ),
    (
        "lora_linear, 1536 -> 384, dropout",
        lambda: diagrams.lora_linear(nn.Sequential(LoRALinear(nn.Linear(1536, 384), r=16, alpha=32, dropout=0.1))),
    ),
    ("adapter_block", lambda: diagrams.adapter_block(adapter_model())),
    ("adapter_block, out_proj only", lambda: diagrams.adapter_block(adapter_model(targets=("*.out_proj",)))),
    ("adapter_block, MiniLM sizes", lambda: diagrams.adapter_block(adapter_model(bottleneck=64))),
    ("ddp_fsdp", lambda: diagrams.ddp_fsdp(GPT(TINY_GPT))),
    ("ddp_fsdp, one process", lambda: diagrams.ddp_fsdp(GPT(TINY_GPT), 1)),
    ("ddp_fsdp, 4 ranks, 12 blocks", lambda: diagrams.ddp_fsdp(gpt_small_sizes(), 4)),
    ("ddp_fsdp, bert", lambda: diagrams.ddp_fsdp(Bert(TINY_BERT), 3)),
    ("memory_per_rank", lambda: diagrams.memory_per_rank(gpt_small_sizes())),
    ("memory_per_rank, six groups", lambda: diagrams.memory_per_rank(GPT(TINY_GPT), (1, 2, 4, 8, 16, 32))),
]


def box_overlaps(fig: Figure) -> list[str]:
    """Pairs of drawn boxes (rounded boxes, the inner panels of hatched frames left out) that overlap."""
    boxes = [(p.get_gid(), p.get_bbox()) for p in fig.findobj(FancyBboxPatch) if p.get_gid() != "inner"]
    found = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            if (
                min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 0.01
                and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 0.01
            ):
                found.append(f"{a} overlaps {b}")
    return found


@pytest.mark.parametrize("make", [make for _, make in FIGURES], ids=[name for name, _ in FIGURES])
def test_labels_do_not_overlap_and_stay_inside_the_figure(make: Callable[[], Figure]) -> None:
    fig = make()
    fig.canvas.draw()  # places the axis labels and ticks of the bar chart
    assert layout_problems(fig) == []
    assert box_overlaps(fig) == []
    assert fig.get_size_inches()[0] <= 10.0  # drawn for the book's width
    assert min(float(t.get_fontsize()) for t in texts(fig)) >= 8  # readable at that width
    assert matplotlib.colors.to_hex(fig.get_facecolor()) == "#ffffff"  # white, whatever the backend's default


def test_every_figure_is_exported() -> None:
    for name in ("lora_linear", "adapter_block", "ddp_fsdp", "memory_per_rank", "rank_memory", "fsdp_units"):
        assert name in diagrams.__all__ and callable(getattr(diagrams, name))
