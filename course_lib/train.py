"""The one training loop of the course: every chapter that trains a model calls :func:`train`.

What it does each step: draw a batch, compute the loss (under bf16 autocast on CUDA), backpropagate,
clip the gradient's global norm, take an AdamW step at the learning rate of a linear warmup followed
by a cosine decay, and record the loss. Every ``eval_every`` steps it averages the loss over
``eval_batches`` validation batches. It saves a checkpoint (model, optimiser, step, history and every
random state) every ``checkpoint_every`` steps, and :func:`train` with ``resume=True`` continues
from it: on a CPU the resumed run reproduces the uninterrupted run's losses exactly.

A model and its data meet through two functions the caller gives:

* ``batches(split, generator) -> (inputs, targets)``, ``split`` being ``"train"`` or ``"val"``; each of
  the two is a tensor or a tuple of tensors (BERT's inputs are token ids, segment ids and a mask);
* ``loss_fn(model, inputs, targets) -> loss`` (default: cross-entropy of ``model(inputs)``, logits
  ``(B, T, V)``, against ``targets (B, T)``, as for a language model).

Anything else a chapter wants to measure or do during training (a masked-token accuracy, a sample
every so often, a figure's data) goes in ``callbacks``: functions called with a :class:`StepEnd`
after every step, so that no chapter needs a loop of its own.

The same call trains on several processes when launched with ``torchrun --nproc_per_node N``
(:mod:`course_lib.distributed`): every rank draws the same global batch and trains on its own
``1/N`` of the rows, gradients are averaged across ranks (DDP, or FSDP with ``parallel="fsdp"``),
the recorded losses are averaged across ranks, and rank 0 alone prints and writes the checkpoint,
which resumes on any number of processes. With ``accumulate=k`` a step adds up the gradients of
``k`` batches before the update. So a step sees the rows of ``accumulate`` global batches whatever
``N``: N processes take the step one process takes (to float rounding) whenever ``loss_fn`` is a
mean over rows (a language model's loss on full windows is; a masked loss over a varying number of
tokens per row is averaged per rank first, as DDP does everywhere).
"""

from __future__ import annotations

import contextlib
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from tqdm.auto import tqdm

from .distributed import (
    Parallel,
    World,
    as_number,
    barrier,
    current_world,
    full_state,
    gather,
    gradient_sync,
    load_full_state,
    mean_across,
    shard,
    wrap,
)

__all__ = [
    "Batches",
    "History",
    "StepEnd",
    "TrainConfig",
    "evaluate",
    "lm_loss_fn",
    "lr_at",
    "make_optimizer",
    "param_groups",
    "pick_device",
    "train",
]

Batch = Tensor | tuple[Tensor, ...]  # a model's inputs (or targets): one tensor, or several (BERT: ids, segments, mask)
Batches = Callable[[str, torch.Generator], tuple[Batch, Batch]]
LossFn = Callable[[nn.Module, Any, Any], Tensor]


@dataclass(frozen=True)
class TrainConfig:
    """How :func:`train` trains: the schedule, the optimiser, evaluation, checkpoints, the device."""

    steps: int
    lr: float = 1e-3  # the peak learning rate, reached at the end of the warmup
    min_lr: float = 1e-4  # where the cosine ends, at the last step
    warmup_steps: int = 0
    weight_decay: float = 0.1  # on weight matrices and embeddings only (see param_groups)
    betas: tuple[float, float] = (0.9, 0.95)
    grad_clip: float | None = 1.0  # the largest global gradient norm; None: no clipping
    accumulate: int = 1  # batches whose gradients add up to one step (gradient accumulation)
    eval_every: int = 100
    eval_batches: int = 10
    seed: int = 0
    device: str = "auto"  # "auto": CUDA, else MPS, else CPU
    compile: bool = False  # torch.compile the model (worth it on a GPU, for long runs)
    parallel: Parallel = "ddp"  # on several processes: "ddp" (a whole model per rank) or "fsdp" (sharded)
    checkpoint: Path | None = None  # a file to save to (and resume from)
    checkpoint_every: int = 0  # 0: only at the end
    # end this call after this many steps in all (a job's time limit), checkpointed; resume continues the same schedule
    stop_after: int | None = None
    progress: bool = True  # a progress bar with the running loss
    # also print a line at each evaluation: progress that shows where a bar cannot (a built page, a log file)
    log: bool = False

    def __post_init__(self) -> None:
        if self.checkpoint is not None:
            object.__setattr__(self, "checkpoint", Path(self.checkpoint))  # a str is welcome too
        problems = [
            f"{name} must be at least 1, got {getattr(self, name)}"
            for name in ("steps", "accumulate", "eval_every", "eval_batches")
            if getattr(self, name) < 1
        ] + [
            f"{name} must be >= 0, got {getattr(self, name)}"
            for name in ("warmup_steps", "checkpoint_every", "weight_decay", "min_lr")
            if getattr(self, name) < 0
        ]
        if not self.lr > 0:
            problems.append(f"lr must be > 0, got {self.lr}")
        if self.min_lr > self.lr:
            problems.append(
                f"min_lr ({self.min_lr}) must not exceed lr ({self.lr}): the cosine decays from lr to min_lr"
            )
        if self.grad_clip is not None and not self.grad_clip > 0:
            problems.append(f"grad_clip must be > 0 (or None for no clipping), got {self.grad_clip}")
        if not all(0 <= beta < 1 for beta in self.betas):
            problems.append(f"betas must be in [0, 1), got {self.betas}")
        if self.stop_after is not None and self.stop_after < 1:
            problems.append(f"stop_after must be at least 1 (or None: run to steps), got {self.stop_after}")
        if self.parallel not in ("ddp", "fsdp"):
            problems.append(f"parallel must be 'ddp' or 'fsdp', got {self.parallel!r}")
        if problems:
            raise ValueError("; ".join(problems))


@dataclass
class History:
    """What a run recorded, step by step: enough to plot it and to resume it."""

    step: list[int] = field(default_factory=list)
    train_loss: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)
    grad_norm: list[float] = field(default_factory=list)  # before clipping
    eval_step: list[int] = field(default_factory=list)
    val_loss: list[float] = field(default_factory=list)
    seconds: float = 0.0  # wall time spent training, evaluation included
    tokens: int = 0  # training tokens seen by all ranks (the elements of the inputs, or of their first tensor)


def pick_device(preference: str = "auto") -> torch.device:
    """``preference`` if given, else the fastest available: CUDA, then Apple's MPS, then the CPU."""
    if preference != "auto":
        return torch.device(preference)
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def lr_at(step: int, config: TrainConfig) -> float:
    """Linear warmup from ``lr / warmup_steps`` to ``lr`` over the first ``warmup_steps`` steps,
    then a cosine from ``lr`` down to ``min_lr`` at the last step (``step`` counts from 0)."""
    if step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    decay_steps = max(1, config.steps - 1 - config.warmup_steps)
    progress = min(1.0, (step - config.warmup_steps) / decay_steps)
    return config.min_lr + 0.5 * (1 + math.cos(math.pi * progress)) * (config.lr - config.min_lr)


def param_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    """AdamW's parameter groups: weight decay on every parameter of two or more dimensions (weight
    matrices and embeddings, as nanoGPT does), none on biases and norm gains."""
    decay = [p for p in model.parameters() if p.requires_grad and p.ndim >= 2]
    rest = [p for p in model.parameters() if p.requires_grad and p.ndim < 2]
    return [{"params": decay, "weight_decay": weight_decay}, {"params": rest, "weight_decay": 0.0}]


def make_optimizer(model: nn.Module, config: TrainConfig, device: torch.device) -> torch.optim.AdamW:
    """AdamW over :func:`param_groups`, as :func:`train` steps it.

    On a CPU or a CUDA GPU it is torch's fused AdamW, one kernel that updates every parameter: the
    same update as the loop over tensors, 3-6x faster (on a 2-core CPU, 0.8 ms against 4.6 ms a step
    for a 0.8M-parameter GPT; see ``benchmarks/gpt_speed.py``).
    """
    fused = device.type in ("cpu", "cuda")
    return torch.optim.AdamW(param_groups(model, config.weight_decay), lr=config.lr, betas=config.betas, fused=fused)


def lm_loss_fn(model: nn.Module, inputs: Tensor, targets: Tensor) -> Tensor:
    """Cross-entropy of ``model(inputs)`` (logits ``(B, T, V)``) against ``targets (B, T)``."""
    logits = model(inputs)
    return F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten())


def _autocast(device: torch.device) -> contextlib.AbstractContextManager:
    return torch.autocast("cuda", dtype=torch.bfloat16) if device.type == "cuda" else contextlib.nullcontext()


def _to(batch: Batch, device: torch.device) -> Batch:
    return batch.to(device) if isinstance(batch, Tensor) else tuple(t.to(device) for t in batch)


@torch.no_grad()
def evaluate(
    model: nn.Module,
    batches: Batches,
    loss_fn: LossFn,
    n_batches: int,
    device: torch.device,
    generator: torch.Generator,
    world: World = World(),
) -> float:
    """The mean loss over ``n_batches`` validation batches, in eval mode (no dropout), each rank
    computing its share of every batch, averaged across ranks."""
    was_training = model.training
    model.eval()
    total = torch.zeros((), device=device)
    for _ in range(n_batches):
        inputs, targets = batches("val", generator)
        with _autocast(device):
            total += loss_fn(model, _to(shard(inputs, world), device), _to(shard(targets, world), device)).float()
    model.train(was_training)
    return float(mean_across(total, world)) / n_batches


@dataclass(frozen=True)
class StepEnd:
    """What a callback of :func:`train` is given after each step."""

    step: int  # the step just taken, counted from 0
    model: nn.Module
    history: History  # everything recorded so far, this step included
    evaluated: bool  # whether this step ended with an evaluation (history.val_loss[-1] is its result)
    rank: int = 0  # which process calls (every rank calls its callbacks; rank 0 alone should write files)


Callback = Callable[[StepEnd], None]


def train(
    model: nn.Module,
    batches: Batches,
    config: TrainConfig,
    loss_fn: LossFn = lm_loss_fn,
    resume: bool = False,
    callbacks: Sequence[Callback] = (),
) -> History:
    """Train ``model`` in place for ``config.steps`` steps; return the :class:`History`.

    Each callback is called after every step (after its evaluation, if it has one); the model is put
    back in training mode afterwards, whatever a callback did.

    With ``resume`` and an existing ``config.checkpoint``, continue the run saved there. It seeds
    torch's global generator with ``config.seed`` (plus the rank: dropout draws from it), so that a
    run is reproducible; batches are drawn from generators of their own, the same on every rank.
    Under ``torchrun``, ``loss_fn`` must call the model it is given (DDP's wrapper), not its parts.
    """
    device = pick_device(config.device)
    world = current_world(device.type)
    if device.type == "cuda" and world.size > 1:
        device = torch.device("cuda", world.local_rank)
    model.to(device)
    # what computes: the model, DDP around it, or the model sharded in place
    net = wrap(model, config.parallel, world, device)
    optimizer = make_optimizer(model, config, device)  # after wrapping: FSDP replaces the parameters by their shards
    train_gen, val_gen = torch.Generator().manual_seed(config.seed), torch.Generator().manual_seed(config.seed + 1)
    torch.manual_seed(config.seed + world.rank)  # dropout: each rank its own masks
    history, start = History(), 0
    if resume and config.checkpoint is not None and config.checkpoint.exists():
        start, history = _load(config.checkpoint, model, optimizer, train_gen, val_gen, world)
    step_fn: nn.Module = torch.compile(net) if config.compile else net  # type: ignore[assignment]
    model.train()
    began = time.perf_counter() - history.seconds
    end = min(config.steps, config.stop_after or config.steps)
    bar = tqdm(
        range(start, end),
        initial=start,
        total=config.steps,
        disable=not (config.progress and world.main),
        file=sys.stderr,
        desc="training",
    )
    for step in bar:
        lr = lr_at(step, config)
        for group in optimizer.param_groups:
            group["lr"] = lr
        optimizer.zero_grad(set_to_none=True)
        loss = torch.zeros((), device=device)
        for micro in range(config.accumulate):
            inputs, targets = batches("train", train_gen)
            history.tokens += (inputs if isinstance(inputs, Tensor) else inputs[0]).numel()
            inputs, targets = _to(shard(inputs, world), device), _to(shard(targets, world), device)
            with gradient_sync(net, micro == config.accumulate - 1):
                with _autocast(device):
                    micro_loss = loss_fn(step_fn, inputs, targets) / config.accumulate
                micro_loss.backward()
            loss += micro_loss.detach().float()
        norm = nn.utils.clip_grad_norm_(
            model.parameters(), config.grad_clip if config.grad_clip is not None else math.inf
        )
        optimizer.step()
        train_loss = float(mean_across(loss, world))
        history.step.append(step)
        history.train_loss.append(train_loss)
        history.lr.append(lr)
        history.grad_norm.append(as_number(norm))
        last = step == config.steps - 1
        evaluated = (step + 1) % config.eval_every == 0 or last
        if evaluated:
            history.eval_step.append(step)
            history.val_loss.append(evaluate(step_fn, batches, loss_fn, config.eval_batches, device, val_gen, world))
            bar.set_postfix(train=f"{train_loss:.3f}", val=f"{history.val_loss[-1]:.3f}")
            if config.log and world.main:
                elapsed = time.perf_counter() - began
                print(
                    f"step {step + 1:>{len(str(config.steps))}}/{config.steps}: train loss "
                    f"{train_loss:.3f}, validation loss {history.val_loss[-1]:.3f} ({elapsed:.0f} s)",
                    flush=True,
                )
        if callbacks:
            for callback in callbacks:
                callback(StepEnd(step, model, history, evaluated, world.rank))
            model.train()
        history.seconds = time.perf_counter() - began
        if config.checkpoint is not None and (
            step + 1 == end or (config.checkpoint_every and (step + 1) % config.checkpoint_every == 0)
        ):
            _save(config.checkpoint, step + 1, model, optimizer, history, train_gen, val_gen, world)
    bar.close()
    return history


def _save(
    path: Path,
    step: int,
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    history: History,
    train_gen: torch.Generator,
    val_gen: torch.Generator,
    world: World,
) -> None:
    """Every rank gives its share (FSDP's shards, its random states); rank 0 writes the file."""
    model_state, optimizer_state = full_state(model, optimizer)
    rng: dict[str, object] = {
        "torch": gather(torch.get_rng_state(), world),
        "train": train_gen.get_state(),
        "val": val_gen.get_state(),
    }
    if torch.cuda.is_available():
        rng["cuda"] = gather(torch.cuda.get_rng_state(), world)
    if world.main:
        state = {
            "step": step,
            "model": model_state,
            "optimizer": optimizer_state,
            "history": asdict(history),
            "rng": rng,
            "world_size": world.size,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(state, path.with_suffix(".tmp"))
        path.with_suffix(".tmp").replace(path)  # never a half-written checkpoint
    barrier(world)  # nobody reads or rewrites it before it is whole


def _load(
    path: Path,
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    train_gen: torch.Generator,
    val_gen: torch.Generator,
    world: World,
) -> tuple[int, History]:
    """Every rank reads the whole checkpoint. A rank the saved run did not have (more processes now)
    seeds its dropout from the seed, the step and its rank; the others continue their own."""
    state = torch.load(path, map_location="cpu", weights_only=True)  # a GPU run resumes on a CPU too
    load_full_state(model, optimizer, state["model"], state["optimizer"])
    saved = state["rng"]["torch"]
    if world.rank < len(saved):
        torch.set_rng_state(saved[world.rank])
    else:
        torch.manual_seed(1_000_003 * state["step"] + world.rank)
    train_gen.set_state(state["rng"]["train"])
    val_gen.set_state(state["rng"]["val"])
    if "cuda" in state["rng"] and torch.cuda.is_available() and world.rank < len(state["rng"]["cuda"]):
        torch.cuda.set_rng_state(state["rng"]["cuda"][world.rank])
    return state["step"], History(**state["history"])
