"""A tiny GPT trained by course_lib.train, as tests/test_distributed.py launches it under torchrun.

    torchrun --standalone --nproc_per_node 2 tests/distributed_run.py OUT [--steps 8] [--batch 8]
        [--accumulate 1] [--parallel ddp|fsdp] [--checkpoint FILE] [--resume] [--stop-after K]
        [--fail-rank R --fail-at K]

Rank 0 saves the history, the final weights and the rows each rank trained on to ``OUT`` (a torch file).
``--stop-after K``: every rank dies when it asks for training batch K + 1, as a killed job would (the checkpoint
stays); ``--fail-rank R --fail-at K``: rank R alone raises at its batch K + 1, the others carry on into the next
collective.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import asdict
from pathlib import Path

import torch
from torch import Tensor
from torch.distributed.elastic.multiprocessing.errors import record

from course_lib.distributed import current_world, full_model_state, gather
from course_lib.gpt import GPT, GPTConfig
from course_lib.train import TrainConfig, lm_loss_fn, train

VOCAB, T = 12, 16


def tiny_gpt() -> GPT:
    torch.manual_seed(0)
    return GPT(GPTConfig(vocab_size=VOCAB, block_size=T, n_layers=2, n_heads=2, d_model=32))


def counting(batch: int):
    """``batch`` sequences counting up modulo VOCAB from random starts, a few tokens changed at random."""

    def batches(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        start = torch.randint(0, VOCAB, (batch, 1), generator=generator)
        seq = (start + torch.arange(T + 1)) % VOCAB  # (B, T + 1)
        noise = torch.rand(batch, T + 1, generator=generator) < 0.1
        seq = torch.where(noise, torch.randint(0, VOCAB, (batch, T + 1), generator=generator), seq)
        return seq[:, :-1], seq[:, 1:]

    return batches


def config(steps: int, accumulate: int = 1, parallel: str = "ddp", checkpoint: Path | None = None) -> TrainConfig:
    return TrainConfig(
        steps=steps,
        lr=3e-3,
        warmup_steps=2,
        eval_every=4,
        eval_batches=2,
        accumulate=accumulate,
        parallel=parallel,
        device="cpu",
        progress=False,
        checkpoint=checkpoint,
        checkpoint_every=4,
    )  # type: ignore[arg-type]


class Killed(Exception):
    pass


@record  # torchrun then reports the failing rank's traceback
def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--accumulate", type=int, default=1)
    parser.add_argument("--parallel", default="ddp")
    parser.add_argument("--checkpoint", type=Path)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--stop-after", type=int)
    parser.add_argument("--fail-rank", type=int)
    parser.add_argument("--fail-at", type=int)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rank = int(os.environ.get("RANK", "0"))
    draw, calls = counting(args.batch), 0

    def batches(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        nonlocal calls
        if split == "train":
            calls += 1
            if args.stop_after is not None and calls > args.stop_after:
                raise Killed(f"killed after {args.stop_after} batches")
            if args.fail_rank == rank and calls > args.fail_at:
                raise RuntimeError(f"rank {rank} lost its data at batch {calls}")
        return draw(split, generator)

    rows = 0

    def loss_fn(model: torch.nn.Module, inputs: Tensor, targets: Tensor) -> Tensor:
        nonlocal rows
        rows += len(inputs) if model.training else 0
        return lm_loss_fn(model, inputs, targets)

    model = tiny_gpt()
    history = train(
        model, batches, config(args.steps, args.accumulate, args.parallel, args.checkpoint), loss_fn, resume=args.resume
    )
    world = current_world()
    state, rows_per_rank = full_model_state(model), gather(rows, world)  # FSDP's shards gathered
    if world.main:
        torch.save({"history": asdict(history), "state": state, "rows": rows_per_rank}, args.out)


if __name__ == "__main__":
    sys.exit(main())
