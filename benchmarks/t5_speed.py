"""Speed of course_lib's T5 beside Hugging Face's: training tokens/s and peak memory at a small
configuration, and decoding (greedy and beam search) with and without the decoder caches.

    python benchmarks/t5_speed.py [--device auto|cpu|cuda] [--quick] [--threads N] [--profile]

Training (target: course_lib at least 1.0x Hugging Face's tokens/s): 4 encoder and 4 decoder
blocks, 8 heads of width ``d_kv`` 32, ``d_model`` 256, ``d_ff`` 1024 (ReLU, T5 v1.0, tied head),
vocabulary 8,192, batch 16 of 128 source and 32 target tokens, dropout 0.1. The sources are padded
to 128 from 96..128 tokens and the targets to 32 from 24..32 (label -100 on the padding), as a
collated batch is. course_lib's :class:`course_lib.t5.T5` takes its loss with
:func:`course_lib.seq2seq.teacher_forcing_loss`; ``transformers.T5ForConditionalGeneration`` with
``labels`` (it shifts them right itself). Both start from the same weights (copied with
:func:`course_lib.t5.to_hf_state_dict`, the config through :func:`course_lib.t5.hf_config_kwargs`),
read the same batch and take the same step: forward, loss, backward, gradient clipping at norm 1,
torch's fused AdamW (course_lib's ``make_optimizer``), in bf16 autocast on CUDA as course_lib's
``train`` runs. Before timing, the two losses are checked to agree in eval mode (fp32). Tokens/s
counts source and target positions (``16 x (128 + 32)`` per step).

Speeds are measured in one process with the models taking turns, each round in a rotated order; a
model's time is its best round (other work on the machine only ever slows a round down). Peak
memory is measured in a fresh process per model, as in ``bert_speed.py``: the growth over the built
model and optimizer during three training steps (two with ``--quick``), ``max_memory_allocated`` on
CUDA, the peak resident set (``VmHWM``, reset through ``/proc/self/clear_refs``) on CPU.

Decoding: the same course_lib model (eval mode), a batch of 8 sources of 128 tokens, 128 new tokens
by :func:`course_lib.generation.generate` (greedy) and by
:func:`course_lib.generation.beam_search` (``num_beams=4``), each with ``use_cache=True`` (the newest
token only, self-attention KV cache and cross-attention cache) and ``use_cache=False`` (the whole
prefix again at every step). Both stop when every row has produced EOS; so that every run makes all
128 tokens, EOS is held back for all of them (``min_new_tokens`` equal to ``max_new_tokens``; the
weights and the other logits are unchanged). The cached and uncached runs are checked to give the same tokens.
``--quick`` on a CPU times each run once, and beam search with 32 new tokens only (without the cache it
recomputes ``4 x 8`` growing prefixes: four times greedy's work at each length).

On CPU the models run on one torch thread unless ``--threads`` says otherwise (``--threads 0``:
torch's own choice). On a CPU that other work keeps busy, two OpenMP threads wait on each other at
every operator (see ``bert_speed.py``): on this project's 2-core machine under a load of 4 to 6, a
training step took 5x longer on two threads than on one, and a cached decoding step, made of many
small operators, 18x longer, which hid most of the cache's gain.

The load average of the machine (``/proc/loadavg``) is printed before and after: on a CPU shared
with other work, read the ratios (measured side by side) rather than the absolute speeds.
``--profile`` prints torch.profiler's most expensive operators of one training step of each model.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import side_by_side as sbs  # benchmarks/side_by_side.py: the timing and memory machinery
import torch

D_MODEL, D_KV, N_HEADS, D_FF, N_LAYERS, VOCAB, DROPOUT = 256, 32, 8, 1024, 4, 8192, 0.1
BATCH, SOURCE, TARGET = 16, 128, 32
GEN_BATCH, GEN_SOURCE, GEN_TOKENS, BEAMS = 8, 128, 128, 4
KINDS = ("course_lib", "transformers")
FAMILY = sys.modules[__name__]  # this module, as side_by_side takes it


def _load() -> str:
    one, five, _ = Path("/proc/loadavg").read_text().split()[:3]
    return f"load average {one} (1 min), {five} (5 min) on {os.cpu_count()} CPUs"


# ------------------------------------------------------------------------------ training


def course_config():
    from course_lib.t5 import T5Config

    return T5Config(
        vocab_size=VOCAB, d_model=D_MODEL, d_kv=D_KV, d_ff=D_FF, n_layers=N_LAYERS, n_heads=N_HEADS, dropout=DROPOUT
    )


def build_models(kinds: tuple[str, ...], device: torch.device) -> dict[str, torch.nn.Module]:
    """The models of ``kinds``, with the same weights: course_lib's, initialised from seed 0, and
    Hugging Face's, loaded from it through ``to_hf_state_dict``."""
    from course_lib.t5 import T5, hf_config_kwargs, to_hf_state_dict

    torch.manual_seed(0)
    ours = T5(course_config())
    models: dict[str, torch.nn.Module] = {}
    if "course_lib" in kinds:
        models["course_lib"] = ours.to(device)
    if "transformers" in kinds:
        from transformers import T5Config as HFConfig
        from transformers import T5ForConditionalGeneration

        theirs = T5ForConditionalGeneration(HFConfig(**hf_config_kwargs(ours.config)))
        missing, unexpected = theirs.load_state_dict(to_hf_state_dict(ours), strict=False)
        if missing or unexpected:
            raise RuntimeError(f"the weights did not copy over: missing {missing}, unexpected {unexpected}")
        models["transformers"] = theirs.to(device)
    return models


def training_batch(device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(input_ids (B, S), attention_mask (B, S), labels (B, T))``: random ids (no sentinels, pad or
    EOS inside), sources of 96..128 tokens padded with 0, targets of 24..32 ending with EOS, padded
    with -100."""
    generator = torch.Generator().manual_seed(0)
    input_ids = torch.randint(2, VOCAB - 100, (BATCH, SOURCE), generator=generator)
    labels = torch.randint(2, VOCAB - 100, (BATCH, TARGET), generator=generator)
    source_lengths = torch.randint(SOURCE * 3 // 4, SOURCE + 1, (BATCH,), generator=generator)
    target_lengths = torch.randint(TARGET * 3 // 4, TARGET + 1, (BATCH,), generator=generator)
    source_lengths[0], target_lengths[0] = SOURCE, TARGET  # the longest of each, as a collated batch has
    attention_mask = (torch.arange(SOURCE)[None, :] < source_lengths[:, None]).long()
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    labels[torch.arange(BATCH), target_lengths - 1] = 1  # EOS
    labels = labels.masked_fill(torch.arange(TARGET)[None, :] >= target_lengths[:, None], -100)
    return input_ids.to(device), attention_mask.to(device), labels.to(device)


def loss_function(kind: str, model: torch.nn.Module, batch: tuple[torch.Tensor, ...]) -> Callable[[], torch.Tensor]:
    """The teacher-forced loss of ``model`` on ``batch``, as each library computes it."""
    input_ids, attention_mask, labels = batch
    if kind == "course_lib":
        from course_lib.seq2seq import teacher_forcing_loss

        return lambda: teacher_forcing_loss(model, (input_ids, attention_mask), labels)  # type: ignore[arg-type]
    return lambda: model(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss


# ------------------------------------------------------------------------------ decoding


def measure_decoding(device: torch.device, beam_tokens: int, rounds: int) -> dict[str, tuple[float, int]]:
    """Best seconds of each of the four decoding runs on one course_lib T5 (greedy with
    ``GEN_TOKENS`` new tokens, beam search with ``beam_tokens``; each with and without the caches),
    and the tokens it made. The runs take turns in a rotated order each round; the cached and
    uncached runs must give the same tokens."""
    from course_lib.generation import beam_search, generate

    model = build_models(("course_lib",), device)["course_lib"].eval()
    generator = torch.Generator().manual_seed(1)
    input_ids = torch.randint(2, VOCAB - 100, (GEN_BATCH, GEN_SOURCE), generator=generator).to(device)
    attention_mask = torch.ones_like(input_ids)

    def greedy(use_cache: bool, n: int = GEN_TOKENS) -> Callable[[], torch.Tensor]:
        # EOS held back: all n tokens
        return lambda: generate(
            model, input_ids, attention_mask=attention_mask, max_new_tokens=n, min_new_tokens=n, use_cache=use_cache
        )

    def beams(use_cache: bool, n: int = beam_tokens) -> Callable[[], torch.Tensor]:
        return lambda: (
            beam_search(
                model,
                input_ids,
                attention_mask=attention_mask,
                num_beams=BEAMS,
                max_new_tokens=n,
                min_new_tokens=n,
                use_cache=use_cache,
            ).tokens
        )

    runs = {  # name: (call, its warm-up, tokens)
        "greedy, cache": (greedy(True), greedy(True, 4), GEN_TOKENS),
        "greedy, no cache": (greedy(False), greedy(False, 4), GEN_TOKENS),
        f"beam {BEAMS}, cache": (beams(True), beams(True, 4), beam_tokens),
        f"beam {BEAMS}, no cache": (beams(False), beams(False, 4), beam_tokens),
    }
    for _, warm_up, _ in runs.values():
        warm_up()
    names = list(runs)
    best, outputs = dict.fromkeys(names, math.inf), {}
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            sbs.sync(device)
            start = time.perf_counter()
            outputs[name] = runs[name][0]()
            sbs.sync(device)
            best[name] = min(best[name], time.perf_counter() - start)
    for name in names[::2]:
        what = name.split(",")[0]
        cached, uncached = outputs[name], outputs[f"{what}, no cache"]
        if cached.shape[-1] != runs[name][2]:
            raise RuntimeError(f"{what} stopped after {cached.shape[-1]} of {runs[name][2]} tokens")
        if not torch.equal(cached, uncached):
            raise RuntimeError(f"{what}: the cached and uncached runs produced different tokens")
    return {name: (best[name], runs[name][2]) for name in names}


# ---------------------------------------------------------------------------------- main


def main() -> None:
    args, device = sbs.arguments(
        __doc__,
        "fewer rounds: a rough figure in under two minutes on 2 CPU cores",
        profile=True,
        one_thread_on_cpu=True,
    )
    if args.memory:
        print(json.dumps(sbs.measure_training_memory(FAMILY, args.memory[0], device, int(args.memory[1]))))
        return
    import transformers

    transformers.logging.set_verbosity_error()
    gpu = device.type == "cuda"
    started = time.perf_counter()
    print(sbs.machine_line(device, transformers.__version__, "torch thread(s) (both models)"))
    print(f"at the start: {_load()}")
    memory_steps = 2 if args.quick else 3
    # first, while this process is small
    memory = sbs.memory_per_kind(__file__, KINDS, memory_steps, device)
    steps, rounds = (20 if gpu else 2, 7) if not args.quick else (5 if gpu else 1, 3)
    seconds, losses, parameters = sbs.measure_training_speed(FAMILY, device, steps, rounds)
    tokens = BATCH * (SOURCE + TARGET)
    print(
        f"\ntraining, {N_LAYERS}+{N_LAYERS} layers/{N_HEADS} heads of {D_KV}/{D_MODEL} wide/d_ff {D_FF}, "
        f"vocab {VOCAB}, batch {BATCH} x ({SOURCE} source + {TARGET} target) tokens, dropout {DROPOUT}, "
        f"AdamW{', bf16 autocast' if gpu else ''}"
    )
    print(
        f"step-0 eval losses agree: course_lib {losses['course_lib']:.6f}, transformers {losses['transformers']:.6f}; "
        f"best of {rounds} rounds of {steps} steps"
    )
    print(f"{'model':<14} {'params':>8} {'ms/step':>9} {'tokens/s':>10} {'vs HF':>6} {'peak MB':>8}")
    for kind in KINDS:
        rate = tokens / seconds[kind]
        print(
            f"{kind:<14} {parameters[kind] / 1e6:>7.2f}M {seconds[kind] * 1e3:>9.1f} {rate:>10.0f} "
            f"{seconds['transformers'] / seconds[kind]:>5.2f}x {memory[kind]['peak_mb']:>8.0f}"
        )
    print(
        f"(tokens: source + target positions; peak MB: growth over the built model during {memory_steps} steps, "
        f"{memory['course_lib']['how']}; target: course_lib >= 1.00x HF's tokens/s)"
    )

    rounds = (3 if gpu else 2) if not args.quick else 1
    beam_tokens = GEN_TOKENS if not args.quick or gpu else GEN_TOKENS // 4
    decoding = measure_decoding(device, beam_tokens, rounds)
    print(
        f"\ndecoding, the course_lib T5 above, eval, fp32, batch {GEN_BATCH} x {GEN_SOURCE} source tokens, EOS never "
        f"produced; cached = uncached tokens; best of {rounds} round(s)"
    )
    print(f"{'decoding':<20} {'new tokens':>10} {'ms/batch':>9} {'tokens/s':>9} {'speed-up':>9}")
    for name, (second, new_tokens) in decoding.items():
        uncached = decoding[name.split(",")[0] + ", no cache"][0]
        print(
            f"{name:<20} {new_tokens:>10} {second * 1e3:>9.0f} "
            f"{GEN_BATCH * new_tokens / second:>9.0f} {uncached / second:>8.1f}x"
        )
    print(
        f"(tokens/s: the batch's answer tokens, {GEN_BATCH} x new tokens, per second (beam search: the best "
        "hypotheses'); target: greedy with cache >= 3x without)"
    )
    print(f"at the end: {_load()}; {time.perf_counter() - started:.0f} s in all")
    if args.profile:
        sbs.profile_training(FAMILY, device, rows=20)


if __name__ == "__main__":
    main()
