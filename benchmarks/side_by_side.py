"""What the speed benchmarks share (``bert_speed.py``, ``t5_speed.py``): course_lib's model and Hugging
Face's timed side by side in one process, on the same batch and the same optimizer step.

A benchmark script is a *family*: a module with ``KINDS`` (``("course_lib", "transformers")``),
``build_models(kinds, device)`` (the models, with the same weights), ``training_batch(device)`` and
``loss_function(kind, model, batch)`` (a no-argument callable returning the loss as that library
computes it). The functions here take that module.

Speeds: the kinds take turns, each round in a rotated order, and a kind's time is its best round
(other work on the machine only ever slows a round down). Memory: the growth over the built model
and optimizer during a few training steps, measured in a fresh process per kind (:func:`memory_per_kind`):
``max_memory_allocated`` on CUDA, the peak resident set (``VmHWM``, reset through
``/proc/self/clear_refs``) on CPU.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import torch


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def autocast(device: torch.device) -> torch.autocast:
    return torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.type == "cuda")


def training_step(
    family: ModuleType, kind: str, model: torch.nn.Module, batch: tuple[torch.Tensor, ...], device: torch.device
) -> Callable[[], None]:
    """One step as course_lib's ``train`` takes it: forward and loss (bf16 autocast on CUDA), backward,
    clipping at norm 1, a step of ``make_optimizer``'s fused AdamW (the same optimizer for both)."""
    from course_lib.train import TrainConfig, make_optimizer

    optimizer = make_optimizer(model, TrainConfig(steps=1, lr=1e-4, weight_decay=0.01, betas=(0.9, 0.999)), device)
    loss_of = family.loss_function(kind, model, batch)
    model.train()

    def step() -> None:
        with autocast(device):
            loss = loss_of()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    return step


def check_losses_agree(
    family: ModuleType, models: dict[str, torch.nn.Module], batch: tuple[torch.Tensor, ...]
) -> dict[str, float]:
    """Both models' losses in eval mode (no dropout, fp32): they must agree."""
    losses = {}
    with torch.no_grad():
        for kind, model in models.items():
            model.eval()
            losses[kind] = float(family.loss_function(kind, model, batch)())
    a, b = losses["course_lib"], losses["transformers"]
    if not math.isclose(a, b, rel_tol=1e-4):
        raise RuntimeError(f"the two models do not compute the same loss: course_lib {a:.6f}, transformers {b:.6f}")
    return losses


def measure_training_speed(
    family: ModuleType, device: torch.device, steps: int, rounds: int
) -> tuple[dict[str, float], dict[str, float], dict[str, int]]:
    """(best seconds per step of each kind, its eval-mode loss at step 0, its parameter count)."""
    models = family.build_models(family.KINDS, device)
    batch = family.training_batch(device)
    losses = check_losses_agree(family, models, batch)
    parameters = {kind: sum(p.numel() for p in model.parameters()) for kind, model in models.items()}
    steps_of = {kind: training_step(family, kind, model, batch, device) for kind, model in models.items()}
    for step in steps_of.values():
        step()  # warm up
    return best_times(steps_of, device, steps, rounds), losses, parameters


def best_times(
    calls: dict[str, Callable[[], object]], device: torch.device, repeats: int, rounds: int
) -> dict[str, float]:
    """Seconds per call of each, its best of ``rounds`` rounds of ``repeats`` calls, the kinds taking
    turns in a rotated order each round."""
    kinds = list(calls)
    best = dict.fromkeys(kinds, math.inf)
    for round_ in range(rounds):
        for kind in kinds[round_ % len(kinds) :] + kinds[: round_ % len(kinds)]:
            sync(device)
            start = time.perf_counter()
            for _ in range(repeats):
                calls[kind]()
            sync(device)
            best[kind] = min(best[kind], (time.perf_counter() - start) / repeats)
    return best


def _resident_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def measure_training_memory(family: ModuleType, kind: str, device: torch.device, steps: int = 3) -> dict:
    """MB of growth over the built model and optimizer during ``steps`` training steps (in a fresh process)."""
    model = family.build_models((kind,), device)[kind]
    step = training_step(family, kind, model, family.training_batch(device), device)
    if device.type == "cuda":
        sync(device)
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        for _ in range(steps):
            step()
        sync(device)
        return {
            "peak_mb": (torch.cuda.max_memory_allocated() - before) / 2**20,
            "how": "torch.cuda.max_memory_allocated",
        }
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM (the peak resident set) to the current one
        how = "peak RSS (VmHWM) delta"
    except OSError:  # the peak so far then stays in: the imports' peak may hide part of the steps'
        how = "peak RSS (VmHWM, not reset) delta"
    before = _resident_kb("VmRSS")
    for _ in range(steps):
        step()
    return {"peak_mb": (_resident_kb("VmHWM") - before) / 1024, "how": how}


def profile_training(family: ModuleType, device: torch.device, rows: int) -> None:
    """torch.profiler's most expensive operators (self time) of one training step of each model."""
    from torch.profiler import ProfilerActivity, profile

    models = family.build_models(family.KINDS, device)
    batch = family.training_batch(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    sort_by = "self_cuda_time_total" if device.type == "cuda" else "self_cpu_time_total"
    for kind, model in models.items():
        step = training_step(family, kind, model, batch, device)
        step()
        with profile(activities=activities) as prof:
            step()
            sync(device)
        print(f"\n{kind}: one training step, operators by self time")
        print(prof.key_averages().table(sort_by=sort_by, row_limit=rows))


def memory_per_kind(script: str, kinds: tuple[str, ...], steps: int, device: torch.device) -> dict[str, dict]:
    """Each kind's training memory, measured by ``script --memory KIND STEPS`` in a fresh process (its last line,
    JSON), with this process's device and thread count."""
    common = ["--device", device.type, "--threads", str(torch.get_num_threads())]
    results = {}
    for kind in kinds:
        out = subprocess.run(
            [sys.executable, script, "--memory", kind, str(steps), *common], capture_output=True, text=True, check=True
        )
        results[kind] = json.loads(out.stdout.strip().splitlines()[-1])
    return results


def machine_line(device: torch.device, transformers_version: str, threads: str) -> str:
    """The header every side-by-side report starts with: the device, the versions and the thread count."""
    name = torch.cuda.get_device_name() if device.type == "cuda" else "cpu"
    return (
        f"device: {name}, torch {torch.__version__}, transformers {transformers_version}, "
        f"{torch.get_num_threads()} {threads}"
    )


def arguments(
    doc: str, quick: str, *, profile: bool = False, one_thread_on_cpu: bool = False
) -> tuple[argparse.Namespace, torch.device]:
    """The options every side-by-side benchmark takes, parsed: ``--device``, ``--quick`` (``quick`` says what it
    gives), ``--profile`` (where ``profile``), ``--threads`` (torch's own choice by default, or one on a CPU with
    ``one_thread_on_cpu``) and the hidden ``--memory KIND STEPS`` of a fresh process. Sets torch's threads and
    silences FutureWarnings; returns the options and the device."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--device", default="auto", help="auto (cuda if available), cpu or cuda")
    parser.add_argument("--quick", action="store_true", help=quick)
    if profile:
        parser.add_argument(
            "--profile", action="store_true", help="also print torch.profiler's top operators of a training step"
        )
    default = "1 on CPU; 0: torch's own choice" if one_thread_on_cpu else "torch's own choice"
    parser.add_argument("--threads", type=int, help=f"torch's CPU threads for every model (default: {default})")
    parser.add_argument("--memory", nargs=2, help=argparse.SUPPRESS)  # a kind and a number of steps, in a fresh process
    args = parser.parse_args()
    device = torch.device(args.device if args.device != "auto" else "cuda" if torch.cuda.is_available() else "cpu")
    warnings.filterwarnings("ignore", category=FutureWarning)
    if args.threads is None and one_thread_on_cpu and device.type == "cpu":
        args.threads = 1
    if args.threads:
        torch.set_num_threads(args.threads)
    return args, device
