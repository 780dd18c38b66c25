"""Instructor solutions to the exercises of the appendix, from a laptop to many GPUs (book/appendix_scaling.md).

Exercises 2 and 4 train on two processes: the solution starts two workers itself (this file's
``_worker``, with the environment ``torchrun`` would give them) and runs every two-process run of the
exercise in that one launch, the one-process runs in this process. The numbers in the answers were
measured on one thread of the 2-core x86 machine that builds the book (torch's default kernels);
the full solutions took, in CPU time with the workers' included: exercise 2 about 22 s, 4 about
19 s, 5 about 17 s, 7 about 22 s, the others under 2 s (mostly starting Python).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from course_lib.data import lm_batch, shakespeare
from course_lib.distributed import World, current_world, shard
from course_lib.finetune import training_memory
from course_lib.gpt import GPT, PRESETS, GPTConfig
from course_lib.seeding import generator, set_seed
from course_lib.tokenization import CharTokenizer
from course_lib.train import History, TrainConfig, make_optimizer, train

from _runner import main

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------- section A.2's run, on one process or two


def _sizes(quick: bool) -> dict[str, int]:
    """Section A.2's model and run (``quick``: a one-block model, 8 steps, 200,000 characters)."""
    if quick:
        return {
            "n_layers": 1,
            "n_heads": 2,
            "d_model": 32,
            "block_size": 32,
            "steps": 8,
            "eval_every": 4,
            "rows": 8,
            "chars": 200_000,
        }
    return {
        "n_layers": 2,
        "n_heads": 2,
        "d_model": 64,
        "block_size": 64,
        "steps": 60,
        "eval_every": 20,
        "rows": 32,
        "chars": 0,
    }


def _shakespeare_ids(chars: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Shakespeare as character ids, split 90/10 as ``python -m course_lib.pretrain --tokenizer char`` splits it."""
    text = shakespeare()
    text = text[:chars] if chars else text
    tokenizer = CharTokenizer(text)
    ids = np.array(tokenizer.encode(text), dtype=np.uint16)
    cut = int(len(ids) * 0.9)
    return ids[:cut], ids[cut:], tokenizer.vocab_size


def _run(
    sizes: dict[str, int],
    *,
    dropout: float = 0.0,
    seed: int = 0,
    checkpoint_file: str | None = None,
    stop_after: int | None = None,
    resume: bool = False,
) -> tuple[History, dict[str, torch.Tensor]]:
    """One run of section A.2's recipe (``course_lib.pretrain``'s: the same model, batches and
    schedule) on however many processes call it; the history and the final weights."""
    train_ids, val_ids, vocab_size = _shakespeare_ids(sizes["chars"])
    config = GPTConfig(
        vocab_size=vocab_size,
        block_size=sizes["block_size"],
        n_layers=sizes["n_layers"],
        n_heads=sizes["n_heads"],
        d_model=sizes["d_model"],
        dropout=dropout,
    )

    def batches(split: str, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return lm_batch(train_ids if split == "train" else val_ids, config.block_size, sizes["rows"], gen)

    torch.manual_seed(seed)
    model = GPT(config)
    run = TrainConfig(
        steps=sizes["steps"], lr=3e-3, min_lr=3e-4, warmup_steps=min(5, sizes["steps"] // 4),
        eval_every=sizes["eval_every"], eval_batches=4, seed=seed, device="cpu", checkpoint=checkpoint_file,
        checkpoint_every=sizes["eval_every"] if checkpoint_file else 0, stop_after=stop_after, progress=False,
    )  # fmt: skip
    history = train(model, batches, run, resume=resume)
    return history, {name: t.detach().clone() for name, t in model.state_dict().items()}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _on_two_processes(jobs: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    """Run ``jobs`` (keyword arguments of :func:`_run`, plus ``sizes``) one after the other on two
    worker processes started as torchrun would start them; rank 0's histories and weights."""
    spec = folder / "jobs.json"
    spec.write_text(json.dumps({"jobs": jobs, "out": str(folder / "results.pt")}))
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); import appendix_scaling; "
        f"appendix_scaling._worker({str(spec)!r})"
    )
    port = str(_free_port())
    logs = [folder / f"rank{rank}.log" for rank in range(2)]
    workers = []
    for rank, log in enumerate(logs):
        env = {
            **os.environ,
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": port,
            "WORLD_SIZE": "2",
            "RANK": str(rank),
            "LOCAL_RANK": str(rank),
            "LOCAL_WORLD_SIZE": "2",
        }
        with log.open("w") as stderr:
            workers.append(
                subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=stderr)
            )
    while any(worker.poll() is None for worker in workers):
        if any(worker.poll() for worker in workers):  # one failed: the other would wait for it in a collective
            for worker in workers:
                worker.kill()
            break
        time.sleep(0.1)
    if any(worker.wait() for worker in workers):
        raise RuntimeError("a worker failed:\n" + "\n".join(log.read_text()[-3000:] for log in logs))
    return torch.load(folder / "results.pt", weights_only=True)


def _worker(spec_file: str) -> None:
    """What each of the two processes runs: every job of the spec, then rank 0 saves the results."""
    spec = json.loads(Path(spec_file).read_text())
    world = current_world("cpu")
    results = []
    for job in spec["jobs"]:
        job = dict(job)
        copy_to = job.pop("copy_checkpoint_to", None)
        history, state = _run(job.pop("sizes"), **job)
        if copy_to and world.main:
            shutil.copy(job["checkpoint_file"], copy_to)
        results.append({"history": history.__dict__, "state": state})
    if world.main:
        torch.save(results, spec["out"])
    torch.distributed.destroy_process_group()


def _largest_difference(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> float:
    return max(float((a[name] - b[name]).abs().max()) for name in a)


# --------------------------------------------------------------------------------------------- exercises


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """Uneven batches.

    ``shard`` refuses: "a batch of 5 rows cannot be shared equally by 2 processes: make the batch
    size a multiple of 2". It could give one rank 3 rows and the other 2, but then the two-process
    run would no longer be the one-process run. Each rank's loss is the mean over its own rows, and
    DDP averages the ranks' gradients with equal weights, so the step follows the mean of the two
    means, which equals the mean over all rows only when every rank has as many rows. With row losses
    1, 2, 3, 4, 5 the whole batch's mean is 3.0, but ranks holding (1, 2, 3) and (4, 5) average to
    (2.0 + 4.5) / 2 = 3.25: rows 4 and 5 weigh 1/4 each instead of 1/5, rows 1 to 3 weigh 1/6. Equal
    shares make the mean of means the global mean, so the gradients agree to float rounding.
    """
    rows = torch.arange(10).view(5, 2)
    try:
        shard(rows, World(rank=0, size=2))
        message = ""
    except ValueError as error:
        message = str(error)
    losses = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    mean_of_means = float((losses[:3].mean() + losses[3:].mean()) / 2)
    print(f"shard says: {message}\nmean over 5 rows {float(losses.mean())}, mean of the ranks' means {mean_of_means}")
    assert "cannot be shared equally" in message
    assert float(losses.mean()) == 3.0 and mean_of_means == 3.25
    return {"message": message, "global_mean": float(losses.mean()), "mean_of_means": mean_of_means}


def exercise_2(quick: bool = False) -> dict[str, Any]:
    """Dropout on two processes.

    They no longer agree. Measured on section A.2's run with ``--dropout 0.1``: the final weights of
    the one- and two-process runs differ by up to 0.07 (without dropout, 3e-5), and the final
    validation losses by about 0.01 (2.715 on one process, 2.726 on two). The batches are
    the same rows: every rank draws the global batch from the same seeded generator. What differs is
    the dropout masks. ``train`` seeds each rank's global generator with ``seed + rank``, so rank 1
    draws from another stream than any rank of a one-process run; and even rank 0's masks differ
    after the first dropout layer, since it draws masks for 16 rows a layer where the one process
    draws them for 32, so the streams fall out of step. (The evaluations, in eval mode, use no
    dropout.)

    It does not matter for the model you get. The masks are random in either run: the two-process run
    is another draw from the same distribution of runs, as a run with another seed is. Two
    one-process runs that differ only in ``--seed`` (other initial weights, batches and masks) end
    further apart (2.715 against 2.877 after these 60 steps), so the difference between one process
    and two is well within the run-to-run spread that chance causes anyway. Bit-for-bit equality, as in
    section A.2, is a property of deterministic runs; what data parallelism must preserve is the
    distribution of the step, which it does.
    """
    sizes = _sizes(quick)
    with tempfile.TemporaryDirectory() as folder:
        (two,) = _on_two_processes([{"sizes": sizes, "dropout": 0.1, "seed": 0}], Path(folder))
    one_history, one_state = _run(sizes, dropout=0.1, seed=0)
    other_history, _ = _run(sizes, dropout=0.1, seed=1)
    weight_gap = _largest_difference(one_state, two["state"])
    loss_gap = abs(one_history.val_loss[-1] - two["history"]["val_loss"][-1])
    seed_gap = abs(one_history.val_loss[-1] - other_history.val_loss[-1])
    print(
        f"final validation loss: one process {one_history.val_loss[-1]:.4f}, two {two['history']['val_loss'][-1]:.4f}, "
        f"one with seed 1 {other_history.val_loss[-1]:.4f}"
    )
    print(f"largest weight difference, one process against two: {weight_gap:.2e}")
    assert weight_gap > 1e-4, "different dropout masks: the runs part ways"
    if not quick:
        assert weight_gap > 1e-3 and loss_gap < max(0.05, seed_gap), "apart, but within the spread of runs"
    return {
        "weight_gap": weight_gap,
        "loss_gap": loss_gap,
        "seed_gap": seed_gap,
        "val_one": one_history.val_loss[-1],
        "val_two": two["history"]["val_loss"][-1],
        "val_seed1": other_history.val_loss[-1],
    }


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Attention's share.

    ``training_flops_per_token(T)`` is 6 N + 12 L d_model T, so the two terms are equal at
    T = 6 N / (12 L d_model) = N / (2 L d_model). For GPT-2 small, N (without the position table) is
    123,653,376 and 12 L d_model = 110,592, so T is about 6,709 tokens. At GPT-2's 1,024 tokens the
    attention adds 15% to the weights' 6 N; at 6,700 it doubles the cost of a token, and beyond it
    dominates: the cost per token grows linearly with the context and the cost per sequence
    quadratically. Long-context training is therefore usually done in a short final phase, or with
    attention whose cost grows more slowly; a fused kernel (FlashAttention) saves memory and time
    but not these FLOPs.
    """
    with torch.device("meta"):
        model = GPT(PRESETS["gpt2"])
    per_context = model.training_flops_per_token(2) - model.training_flops_per_token(1)  # 12 L d_model
    weights = model.training_flops_per_token(1) - per_context  # 6 N
    crossover = weights / per_context
    share_1024 = per_context * 1024 / weights
    print(
        f"6N = {weights:,.0f} FLOPs, 12 L d = {per_context:,.0f} per token of context: equal at T = "
        f"{crossover:,.0f}; at 1,024: +{share_1024:.0%}"
    )
    assert 6_500 < crossover < 7_000 and 0.1 < share_1024 < 0.2
    return {
        "six_n": weights,
        "twelve_l_d": per_context,
        "crossover_tokens": crossover,
        "attention_share_at_1024": share_1024,
    }


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """Resuming on as many processes.

    Yes, exactly: the run stopped after step 40 and resumed on two processes ends with weights equal
    bit for bit to the uninterrupted two-process run's (``torch.equal`` on every tensor), and prints
    the same losses. The checkpoint holds everything the remaining steps depend on (weights, AdamW's
    moments and step count, the batch generators' states, each rank's random state), and the two
    resumed ranks do the same float operations in the same order as before, the all-reduce included.

    Resumed on one process, the run ends about 1e-5 from it (1.2e-5 here). One process computes
    the gradient of the mean over 32 rows in one pass, whose sums run over the rows in another order
    than two ranks' means over 16 rows each followed by their average; float addition is not
    associative, so the last bits differ, and AdamW's 20 remaining steps carry the differences on. The
    same holds for any change in the number of processes, which is why the chapter's assert allows
    10^-3.
    """
    sizes = _sizes(quick)
    stop = sizes["steps"] * 2 // 3
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ck, ck_for_one = str(folder / "checkpoint.pt"), str(folder / "at_stop.pt")
        whole, _, resumed = _on_two_processes(
            [
                {"sizes": sizes},
                {"sizes": sizes, "checkpoint_file": ck, "stop_after": stop, "copy_checkpoint_to": ck_for_one},
                {"sizes": sizes, "checkpoint_file": ck, "resume": True},
            ],
            folder,
        )
        one_history, one_state = _run(sizes, checkpoint_file=ck_for_one, resume=True)
    exact = all(torch.equal(resumed["state"][name], tensor) for name, tensor in whole["state"].items())
    on_one = _largest_difference(one_state, whole["state"])
    print(
        f"resumed on two processes: equal bit for bit: {exact}; losses {resumed['history']['val_loss']} "
        f"vs {whole['history']['val_loss']}"
    )
    print(f"resumed on one process: largest weight difference {on_one:.1e}")
    assert exact and resumed["history"]["train_loss"] == whole["history"]["train_loss"]
    assert on_one < 1e-3
    if not quick:
        assert on_one > 0
    return {"two_processes_exact": exact, "one_process_difference": on_one}


def _matmul_flops_per_s(m: int, k: int, n: int, seconds: float) -> float:
    """FLOPs a second of CPU time that (m, k) @ (k, n) products reach, timed for about ``seconds``."""
    a, b = torch.randn(m, k), torch.randn(k, n)
    a @ b  # warm-up
    products, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        a @ b
        products += 1
    return 2 * m * k * n * products / (time.process_time() - start)


def exercise_5(quick: bool = False) -> dict[str, Any]:
    """The MFU of a CPU.

    Products of GPT-2 small's feed-forward shape reach about 150 GFLOP/s on one core of the machine
    that builds the book (AVX-512 kernels); a whole training step on a 256-token window reaches about
    97 GFLOP/s (by 6 N + 12 L d T a token, 2.0 s a step), a model FLOPs utilisation of about 65% of
    this CPU's own matrix-product rate (other kernels give other rates; the share is what to compare).
    The rest goes to what is not a large matrix product: AdamW's update, which reads and writes the
    124 million weights, gradients and two moments (2 GB) at every step, 0.15 s of the 2.0 here;
    the softmax over 50,257 logits per token and its gradient; LayerNorm, GELU, the attention's
    softmax and the residual additions, all limited by memory traffic rather than arithmetic; and
    the smaller products of the attention itself. A GPU run has the same kinds of loss, which is why
    an MFU of 40% counts as good.
    """
    config = GPTConfig(vocab_size=512, block_size=64, n_layers=2, n_heads=2, d_model=64) if quick else PRESETS["gpt2"]
    T = 64 if quick else 256
    set_seed(0)
    model = GPT(config)
    peak = _matmul_flops_per_s(T, config.d_model, 4 * config.d_model, 0.2 if quick else 2.0)

    def window(split: str, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        w = torch.randint(0, config.vocab_size, (1, T + 1), generator=gen)
        return w[:, :-1], w[:, 1:]

    ends: list[float] = []
    steps = 4
    train(
        model,
        window,
        TrainConfig(steps=steps, eval_every=steps, eval_batches=1, device="cpu", progress=False),
        callbacks=[lambda end: ends.append(time.process_time())],
    )
    step_seconds = (ends[steps - 2] - ends[0]) / (steps - 2)  # steps 2 and 3: warm, no evaluation
    step_flops = model.training_flops_per_token(T) * T / step_seconds
    mfu = step_flops / peak
    # AdamW's share: one step of the optimiser on gradients of the model's size
    optimizer = make_optimizer(model, TrainConfig(steps=1), torch.device("cpu"))
    for p in model.parameters():
        p.grad = torch.randn_like(p) * 1e-3
    optimizer.step()
    start = time.process_time()
    optimizer.step()
    adamw_seconds = time.process_time() - start
    print(
        f"matrix products {peak / 1e9:.1f} GFLOP/s; a training step {step_flops / 1e9:.1f} GFLOP/s: MFU {mfu:.0%}; "
        f"AdamW's step {adamw_seconds:.2f} s of a {step_seconds:.2f} s step"
    )
    assert mfu > 0
    if not quick:
        assert 0.1 < mfu < 1.0 and adamw_seconds < step_seconds
    return {
        "matmul_gflops": peak / 1e9,
        "step_gflops": step_flops / 1e9,
        "mfu": mfu,
        "step_seconds": step_seconds,
        "adamw_seconds": adamw_seconds,
    }


def exercise_6(quick: bool = False) -> dict[str, Any]:
    """Loss scaling by hand.

    With the loss multiplied by 2^-20, the gradient of each logit is about
    2^-20 / 64 (64 predicted tokens), some 1.5e-8, below float16's smallest number (2^-24, about
    6e-8): under float16 autocast the gradients that flow back through the 16-bit products are
    rounded to zero, and every gradient entry of the model is zero (100% here). Multiplying the loss
    by 2^16 before the backward pass lifts them back into float16's range; divided by 2^16
    afterwards, the gradients are within 0.18% of the float32 ones, with 0.4% of the entries still
    zero. bfloat16 needs no scaling: it has float32's range, no entry is zero, and its error, 0.4%, is
    its rounding (8 bits of significand against float16's 11) and does not depend on the scale.
    """
    set_seed(0)
    model = GPT(GPTConfig(vocab_size=12, block_size=16, n_layers=2, n_heads=2, d_model=32))
    windows = torch.randint(0, 12, (4, 17), generator=generator(1))

    def gradients(dtype: torch.dtype | None, scale: float) -> torch.Tensor:
        model.zero_grad()
        with torch.autocast("cpu", dtype=dtype or torch.bfloat16, enabled=dtype is not None):
            logits = model(windows[:, :-1])
        loss = F.cross_entropy(logits.float().flatten(0, 1), windows[:, 1:].flatten()) * 2.0**-20
        (loss * scale).backward()
        return torch.cat([p.grad.flatten() / scale for p in model.parameters()])

    reference = gradients(None, 1.0)
    nonzero = reference != 0
    results = {}
    for name, dtype in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
        for scale in (1.0, 2.0**16):
            g = gradients(dtype, scale)
            key = f"{name}, scale {int(scale)}"
            results[key] = {
                "zero_share": float((g[nonzero] == 0).float().mean()),
                "relative_error": float((g - reference).norm() / reference.norm()),
            }
            print(
                f"{key:22s} zero entries {results[key]['zero_share']:.2%}, relative error "
                f"{results[key]['relative_error']:.2e}"
            )
    assert results["float16, scale 1"]["zero_share"] > 0.9
    assert (
        results["float16, scale 65536"]["zero_share"] < 0.05
        and results["float16, scale 65536"]["relative_error"] < 0.01
    )
    assert all(
        results[f"bfloat16, scale {s}"]["zero_share"] == 0 and results[f"bfloat16, scale {s}"]["relative_error"] < 0.02
        for s in (1, 65536)
    )
    return results


def exercise_7(quick: bool = False) -> dict[str, Any]:
    """The price of recomputation.

    A forward and backward pass of GPT-2 small on one 256-token window took 1.75 s of CPU time, and
    2.12 s with every block recomputed: 1.21 times as long, less than the 4/3 that 8N / 6N suggests,
    while the saved tensors fell from 289 MB to 62 MB. Recomputation repeats the blocks' forward pass only: about 85
    million of GPT-2 small's 124 million parameters are in the blocks, while the tied output layer (38.6 million, a
    third of the products) and the loss are computed once, so the FLOPs grow by 2 x 85 / (6 x 124), about 23%,
    plus a little for the attention. Memory traffic counts too: the recomputed activations are used
    at once, while the kept ones are written to memory and read back, which can hide part of the
    extra arithmetic. The gradients are the same either way (here they differ by exactly 0).
    """
    config = GPTConfig(vocab_size=512, block_size=64, n_layers=2, n_heads=2, d_model=64) if quick else PRESETS["gpt2"]
    T = 32 if quick else 256
    set_seed(0)
    model = GPT(config)
    window = torch.randint(0, config.vocab_size, (1, T + 1), generator=generator(0))

    def loss_with(recompute: bool) -> torch.Tensor:
        x = model.drop(model.wpe(model.wte(window[:, :-1])))
        for block in model.blocks:
            x = checkpoint(block, x, use_reentrant=False) if recompute else block(x)
        return F.cross_entropy(model.lm_head(model.ln_f(x)).flatten(0, 1), window[:, 1:].flatten())

    def step(recompute: bool) -> tuple[float, list[torch.Tensor]]:
        model.zero_grad()
        start = time.process_time()
        loss_with(recompute).backward()
        return time.process_time() - start, [p.grad.clone() for p in model.parameters()]

    step(False)  # warm-up
    times: dict[bool, list[float]] = {False: [], True: []}
    grads = {}
    for _ in range(1 if quick else 3):
        for recompute in (False, True):
            seconds, grads[recompute] = step(recompute)
            times[recompute].append(seconds)
    plain, recomputed = min(times[False]), min(times[True])
    ratio = recomputed / plain
    gradient_gap = max(float((a - b).abs().max()) for a, b in zip(grads[False], grads[True]))
    memory = {r: training_memory(model, lambda r=r: loss_with(r)).activations / 1e6 for r in (False, True)}
    print(
        f"forward and backward: {plain:.2f} s, recomputed {recomputed:.2f} s ({ratio:.2f}x); saved {memory[False]:.0f} "
        f"MB vs {memory[True]:.0f} MB; gradients differ by {gradient_gap:.1e}"
    )
    assert gradient_gap < 1e-6 and memory[True] < memory[False]
    if not quick:
        assert 1.05 < ratio < 1.6
    return {
        "seconds": plain,
        "seconds_recomputed": recomputed,
        "ratio": ratio,
        "saved_mb": memory[False],
        "saved_mb_recomputed": memory[True],
        "gradient_gap": gradient_gap,
    }


def exercise_8(quick: bool = False) -> dict[str, Any]:
    """Past compute-optimal.

    At 6 N FLOPs a token, LLaMA-7B's trillion tokens cost 6 x 6.7e9 x 1e12 = 4.0e22 FLOPs, for about
    150 tokens per parameter. A compute-optimal run (D = 20 N) with the same compute has 6 x 20 x N^2
    = 4.0e22, so N = sqrt(4.0e22 / 120), about 18 billion parameters, trained on about 370 billion
    tokens. That model would reach a somewhat lower loss for the same training compute, but every
    token it generates costs about 2 N FLOPs: 37 billion against 13 billion, 2.7 times as much, for
    as long as it serves. For a model that will generate many more tokens than it was trained on,
    the smaller, longer-trained one is the cheaper of the two over its life, which is LLaMA's
    argument.
    """
    n, tokens = 6.7e9, 1e12
    flops = 6 * n * tokens
    n_optimal = math.sqrt(flops / (6 * 20))
    inference_ratio = n_optimal / n
    print(
        f"{flops:.2e} FLOPs, {tokens / n:.0f} tokens per parameter; compute-optimal: {n_optimal / 1e9:.1f}B parameters "
        f"on {20 * n_optimal / 1e9:.0f}B tokens, {inference_ratio:.2f}x the cost per generated token"
    )
    assert 140 < tokens / n < 160 and 17e9 < n_optimal < 19e9 and 2.5 < inference_ratio < 3
    return {
        "flops": flops,
        "tokens_per_parameter": tokens / n,
        "optimal_parameters": n_optimal,
        "optimal_tokens": 20 * n_optimal,
        "inference_cost_ratio": inference_ratio,
    }


EXERCISES = {
    1: exercise_1,
    2: exercise_2,
    3: exercise_3,
    4: exercise_4,
    5: exercise_5,
    6: exercise_6,
    7: exercise_7,
    8: exercise_8,
}

if __name__ == "__main__":
    main(EXERCISES)
