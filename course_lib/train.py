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
    eval_every: int = 100
    eval_batches: int = 10
    seed: int = 0
    device: str = "auto"  # "auto": CUDA, else MPS, else CPU
    compile: bool = False  # torch.compile the model (worth it on a GPU, for long runs)
    checkpoint: Path | None = None  # a file to save to (and resume from)
    checkpoint_every: int = 0  # 0: only at the end
    progress: bool = True  # a progress bar with the running loss
    log: bool = False  # also print a line at each evaluation: progress that shows where a bar cannot (a built page, a log file)

    def __post_init__(self) -> None:
        if self.checkpoint is not None:
            object.__setattr__(self, "checkpoint", Path(self.checkpoint))  # a str is welcome too
        problems = [
            f"{name} must be at least 1, got {getattr(self, name)}" for name in ("steps", "eval_every", "eval_batches") if getattr(self, name) < 1
        ] + [f"{name} must be >= 0, got {getattr(self, name)}" for name in ("warmup_steps", "checkpoint_every", "weight_decay", "min_lr") if getattr(self, name) < 0]
        if not self.lr > 0:
            problems.append(f"lr must be > 0, got {self.lr}")
        if self.min_lr > self.lr:
            problems.append(f"min_lr ({self.min_lr}) must not exceed lr ({self.lr}): the cosine decays from lr to min_lr")
        if self.grad_clip is not None and not self.grad_clip > 0:
            problems.append(f"grad_clip must be > 0 (or None for no clipping), got {self.grad_clip}")
        if not all(0 <= beta < 1 for beta in self.betas):
            problems.append(f"betas must be in [0, 1), got {self.betas}")
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
    tokens: int = 0  # training tokens seen (the elements of the inputs, or of their first tensor)


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
def evaluate(model: nn.Module, batches: Batches, loss_fn: LossFn, n_batches: int, device: torch.device, generator: torch.Generator) -> float:
    """The mean loss over ``n_batches`` validation batches, in eval mode (no dropout)."""
    was_training = model.training
    model.eval()
    total = 0.0
    for _ in range(n_batches):
        inputs, targets = batches("val", generator)
        with _autocast(device):
            total += loss_fn(model, _to(inputs, device), _to(targets, device)).item()
    model.train(was_training)
    return total / n_batches


@dataclass(frozen=True)
class StepEnd:
    """What a callback of :func:`train` is given after each step."""

    step: int  # the step just taken, counted from 0
    model: nn.Module
    history: History  # everything recorded so far, this step included
    evaluated: bool  # whether this step ended with an evaluation (history.val_loss[-1] is its result)


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
    torch's global generator with ``config.seed`` (dropout draws from it), so that a run is
    reproducible; batches are drawn from generators of their own.
    """
    device = pick_device(config.device)
    model.to(device)
    optimizer = make_optimizer(model, config, device)
    train_gen, val_gen = torch.Generator().manual_seed(config.seed), torch.Generator().manual_seed(config.seed + 1)
    torch.manual_seed(config.seed)  # dropout
    history, start = History(), 0
    if resume and config.checkpoint is not None and config.checkpoint.exists():
        start, history = _load(config.checkpoint, model, optimizer, train_gen, val_gen)
    step_fn: nn.Module = torch.compile(model) if config.compile else model  # type: ignore[assignment]
    model.train()
    began = time.perf_counter() - history.seconds
    bar = tqdm(range(start, config.steps), initial=start, total=config.steps, disable=not config.progress, file=sys.stderr, desc="training")
    for step in bar:
        lr = lr_at(step, config)
        for group in optimizer.param_groups:
            group["lr"] = lr
        inputs, targets = batches("train", train_gen)
        inputs, targets = _to(inputs, device), _to(targets, device)
        with _autocast(device):
            loss = loss_fn(step_fn, inputs, targets)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), config.grad_clip if config.grad_clip is not None else math.inf)
        optimizer.step()
        history.step.append(step)
        history.train_loss.append(loss.item())
        history.lr.append(lr)
        history.grad_norm.append(norm.item())
        history.tokens += (inputs if isinstance(inputs, Tensor) else inputs[0]).numel()
        last = step == config.steps - 1
        evaluated = (step + 1) % config.eval_every == 0 or last
        if evaluated:
            history.eval_step.append(step)
            history.val_loss.append(evaluate(step_fn, batches, loss_fn, config.eval_batches, device, val_gen))
            bar.set_postfix(train=f"{loss.item():.3f}", val=f"{history.val_loss[-1]:.3f}")
            if config.log:
                elapsed = time.perf_counter() - began
                print(f"step {step + 1:>{len(str(config.steps))}}/{config.steps}: train loss {loss.item():.3f}, validation loss {history.val_loss[-1]:.3f} ({elapsed:.0f} s)", flush=True)
        if callbacks:
            for callback in callbacks:
                callback(StepEnd(step, model, history, evaluated))
            model.train()
        history.seconds = time.perf_counter() - began
        if config.checkpoint is not None and (last or (config.checkpoint_every and (step + 1) % config.checkpoint_every == 0)):
            _save(config.checkpoint, step + 1, model, optimizer, history, train_gen, val_gen)
    bar.close()
    return history


def _save(path: Path, step: int, model: nn.Module, optimizer: torch.optim.Optimizer, history: History, train_gen: torch.Generator, val_gen: torch.Generator) -> None:
    rng: dict[str, object] = {"torch": torch.get_rng_state(), "train": train_gen.get_state(), "val": val_gen.get_state()}
    if torch.cuda.is_available():
        rng["cuda"] = torch.cuda.get_rng_state_all()
    state = {"step": step, "model": model.state_dict(), "optimizer": optimizer.state_dict(), "history": asdict(history), "rng": rng}
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(state, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)  # never a half-written checkpoint


def _load(path: Path, model: nn.Module, optimizer: torch.optim.Optimizer, train_gen: torch.Generator, val_gen: torch.Generator) -> tuple[int, History]:
    state = torch.load(path, map_location="cpu", weights_only=True)  # a GPU run resumes on a CPU too
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    torch.set_rng_state(state["rng"]["torch"])
    train_gen.set_state(state["rng"]["train"])
    val_gen.set_state(state["rng"]["val"])
    if "cuda" in state["rng"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["rng"]["cuda"])
    return state["step"], History(**state["history"])

