"""Pretrain a GPT on your own text or a tokenized corpus, on one process or many.

    # one GPU, or a CPU
    python -m course_lib.pretrain --text my_corpus.txt --out runs/mine
    # 8 GPUs on one machine: GPT-2 small (124M) on a corpus tokenized with the GPT-2 BPE
    torchrun --standalone --nproc_per_node 8 -m course_lib.pretrain \\
        --tokens train.bin --val-tokens val.bin --preset gpt2 --batch-size 16 --accumulate 4 \\
        --steps 5000 --lr 6e-4 --warmup 200 --compile --out runs/gpt2

Data: ``--text`` files are tokenized (GPT-2's BPE by default, or characters) once, by rank 0, into
``OUT/train.bin`` and ``OUT/val.bin`` (the last ``--val-fraction`` of the ids); ``--tokens`` takes
such files directly: token ids as unsigned 16-bit integers (the format of nanoGPT's ``prepare.py``
scripts), read through a memory map so a corpus larger than memory trains. The model: a
:class:`~course_lib.gpt.GPT` of a preset (``gpt2`` is GPT-2 small) with any of its sizes overridden.
Training: :func:`course_lib.train.train` (AdamW, warmup and cosine, clipping, bf16 autocast on CUDA),
each step on ``--batch-size`` windows per process times ``--accumulate`` micro-batches, so the
global batch is ``batch_size * accumulate * processes`` windows of ``block_size`` tokens.
``OUT/checkpoint.pt`` is saved every ``--checkpoint-every`` steps; ``--resume`` continues from it,
on any number of processes. At the end rank 0 writes ``OUT/model.pt`` (``{"config", "state_dict"}``)
and prints the throughput and, on a GPU whose peak it knows (or ``--peak-tflops``), the MFU.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import torch
from torch.distributed.elastic.multiprocessing.errors import record

from .data import lm_batch, load_text
from .distributed import World, barrier, current_world, full_model_state
from .gpt import GPT, PRESETS, GPTConfig
from .tokenization import ByteBPETokenizer, CharTokenizer
from .train import StepEnd, TrainConfig, pick_device, train

__all__ = ["PEAK_TFLOPS", "main", "model_config", "parse_args", "peak_flops", "prepare_tokens"]

# Dense bf16 tensor-core peaks (TFLOPS, without sparsity) from the vendors' data sheets, for the MFU.
PEAK_TFLOPS = {"H100": 989.0, "H200": 989.0, "A100": 312.0, "L4": 121.0, "A10G": 125.0}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m course_lib.pretrain", description=__doc__.split("\n\n")[0])
    data = p.add_mutually_exclusive_group(required=True)
    data.add_argument("--text", nargs="+", type=Path, help="UTF-8 text files to tokenize and train on")
    data.add_argument("--tokens", type=Path, help="a file of uint16 token ids (nanoGPT's train.bin)")
    p.add_argument("--val-tokens", type=Path, help="validation ids for --tokens (default: its last --val-fraction)")
    p.add_argument("--val-fraction", type=float, default=0.1)
    p.add_argument(
        "--tokenizer",
        choices=("gpt2", "char"),
        default="gpt2",
        help="for --text: GPT-2's BPE, or the text's characters",
    )
    p.add_argument(
        "--preset", choices=sorted(PRESETS), default="gpt2", help="the model's sizes, before the overrides below"
    )
    for name in ("n_layers", "n_heads", "d_model", "block_size"):
        p.add_argument(f"--{name.replace('_', '-')}", type=int, dest=name)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--batch-size", type=int, default=8, help="windows per process in each micro-batch")
    p.add_argument("--accumulate", type=int, default=1, help="micro-batches per step")
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--lr", type=float, default=6e-4)
    p.add_argument("--min-lr", type=float, help="where the cosine ends (default lr / 10)")
    p.add_argument("--warmup", type=int, default=100)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--eval-every", type=int, default=200)
    p.add_argument("--eval-batches", type=int, default=20)
    p.add_argument("--checkpoint-every", type=int, default=500)
    p.add_argument(
        "--stop-after",
        type=int,
        help="end this job after this many steps in all (a cluster's time limit), checkpointed; --resume continues",
    )
    p.add_argument(
        "--parallel",
        choices=("ddp", "fsdp"),
        default="ddp",
        help="on several processes: whole model per rank, or sharded",
    )
    p.add_argument("--device", default="auto")
    p.add_argument("--compile", action="store_true", help="torch.compile the model (GPU)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    p.add_argument("--peak-tflops", type=float, help="the device's peak, for the MFU (default: known GPUs)")
    p.add_argument("--out", type=Path, required=True, help="a directory for the token files, checkpoint, model and log")
    return p.parse_args(argv)


def prepare_tokens(args: argparse.Namespace, world: World) -> tuple[np.ndarray, np.ndarray, int]:
    """The training and validation ids (memory maps) and the vocabulary size; rank 0 tokenizes ``--text``."""
    if args.tokens is not None:
        train_ids = np.memmap(args.tokens, dtype=np.uint16, mode="r")
        if args.val_tokens is not None:
            return train_ids, np.memmap(args.val_tokens, dtype=np.uint16, mode="r"), PRESETS["gpt2"].vocab_size
        cut = int(len(train_ids) * (1 - args.val_fraction))
        return train_ids[:cut], train_ids[cut:], PRESETS["gpt2"].vocab_size
    args.out.mkdir(parents=True, exist_ok=True)
    vocab_file = args.out / "vocab.json"
    source = {
        "texts": [str(path.resolve()) for path in args.text],
        "tokenizer": args.tokenizer,
        "val_fraction": args.val_fraction,
    }
    stored = json.loads(vocab_file.read_text()) if vocab_file.exists() else {}
    if world.main and {key: stored.get(key) for key in source} != source:  # tokenized before from these texts: reused
        text = "\n".join(load_text(path) for path in args.text)
        if args.tokenizer == "gpt2":
            ids, vocab_size = ByteBPETokenizer.gpt2().encode(text, allowed_special=set()), PRESETS["gpt2"].vocab_size
        else:
            chars = CharTokenizer(text)
            chars.save(args.out / "chars.json")
            ids, vocab_size = chars.encode(text), chars.vocab_size
        cut = int(len(ids) * (1 - args.val_fraction))
        np.array(ids[:cut], dtype=np.uint16).tofile(args.out / "train.bin")
        np.array(ids[cut:], dtype=np.uint16).tofile(args.out / "val.bin")
        vocab_file.write_text(json.dumps({"vocab_size": vocab_size, **source}))
    barrier(world)
    vocab = json.loads(vocab_file.read_text())
    return (
        np.memmap(args.out / "train.bin", dtype=np.uint16, mode="r"),
        np.memmap(args.out / "val.bin", dtype=np.uint16, mode="r"),
        vocab["vocab_size"],
    )


def model_config(args: argparse.Namespace, vocab_size: int) -> GPTConfig:
    """The preset with the sizes given on the command line."""
    sizes = {
        name: getattr(args, name)
        for name in ("n_layers", "n_heads", "d_model", "block_size")
        if getattr(args, name) is not None
    }
    return replace(PRESETS[args.preset], vocab_size=vocab_size, dropout=args.dropout, **sizes)


def peak_flops(device: torch.device, given: float | None) -> float | None:
    """The device's peak FLOP/s: ``given`` TFLOPS, else a known GPU's bf16 peak, else None."""
    if given is not None:
        return given * 1e12
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
        return next((tflops * 1e12 for gpu, tflops in PEAK_TFLOPS.items() if gpu in name), None)
    return None


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    device = pick_device(args.device)
    world = current_world(device.type)
    train_ids, val_ids, vocab_size = prepare_tokens(args, world)
    config = model_config(args, vocab_size)
    for split, ids in (("training", train_ids), ("validation", val_ids)):
        if len(ids) <= config.block_size:
            raise ValueError(
                f"the {split} split has {len(ids)} tokens, too few for one window of block_size "
                f"+ 1 = {config.block_size + 1}: give more text or a smaller --block-size"
            )
    global_rows = args.batch_size * world.size

    def batches(split: str, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return lm_batch(train_ids if split == "train" else val_ids, config.block_size, global_rows, generator)

    torch.manual_seed(args.seed)
    model = GPT(config)
    run = TrainConfig(
        steps=args.steps, lr=args.lr, min_lr=args.min_lr if args.min_lr is not None else args.lr / 10,
        warmup_steps=args.warmup, weight_decay=args.weight_decay, accumulate=args.accumulate,
        eval_every=args.eval_every, eval_batches=args.eval_batches, seed=args.seed, device=args.device,
        compile=args.compile, parallel=args.parallel, checkpoint=args.out / "checkpoint.pt",
        checkpoint_every=args.checkpoint_every, stop_after=args.stop_after, progress=False, log=True,
    )  # fmt: skip
    if world.main:
        tokens_per_step = global_rows * args.accumulate * config.block_size
        print(
            f"{model.num_parameters():,} parameters, {world.size} process(es) on {device.type}; "
            f"{len(train_ids):,} training tokens; {tokens_per_step:,} tokens a step",
            flush=True,
        )
    timing: dict[str, float] = {}
    # compilation and the first steps are not the steady speed
    warmup_steps = max(1, min(10, ((args.stop_after or args.steps) - 1) // 2))

    def time_after_warmup(end: StepEnd) -> None:
        timing["steps"] = timing.get("steps", 0) + 1
        if timing["steps"] == warmup_steps:
            timing.update(start=time.perf_counter(), tokens=end.history.tokens)

    history = train(model, batches, run, resume=args.resume, callbacks=[time_after_warmup])
    finished = history.step[-1] + 1 == args.steps
    state = full_model_state(model) if finished else {}
    if world.main:
        if "start" in timing:
            seconds = time.perf_counter() - timing["start"]
            tokens_per_s = (history.tokens - timing["tokens"]) / seconds
            flops = model.training_flops_per_token() * tokens_per_s
            peak = peak_flops(
                torch.device(device.type, world.local_rank) if device.type == "cuda" else device, args.peak_tflops
            )
            mfu = f", MFU {flops / (peak * world.size):.1%}" if peak else ""
            print(
                f"throughput: {tokens_per_s:,.0f} tokens/s, evaluations "
                f"included ({tokens_per_s / world.size:,.0f} per process){mfu}",
                flush=True,
            )
        if finished:
            torch.save({"config": asdict(config), "state_dict": state}, args.out / "model.pt")
            print(
                f"final validation loss {history.val_loss[-1]:.4f}; model saved to {args.out / 'model.pt'}", flush=True
            )
        else:
            print(
                f"stopped after step {history.step[-1] + 1} of {args.steps}; --resume continues from {run.checkpoint}",
                flush=True,
            )
    if world.size > 1:
        torch.distributed.destroy_process_group()


if __name__ == "__main__":
    record(main)()  # under torchrun, a failing rank's traceback is reported as the job's root cause
