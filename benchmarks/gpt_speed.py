"""Speed of course_lib's GPT: training tokens/s and peak memory at nanoGPT's two character-level
configurations, and generation tokens/s with and without the KV cache.

    python benchmarks/gpt_speed.py [--device cpu|cuda] [--compile] [--nanogpt PATH/TO/nanoGPT/model.py]

Training speeds are measured in one process, the models taking turns (the fairest comparison on a
machine whose speed drifts); peak memory and generation each in a fresh process (so that the peak, and
the warm-up, are its own). With ``--nanogpt``, the same training measurements are made on nanoGPT's model (its
``model.py``, not part of this project) for a side-by-side comparison. Targets (issue 5): training
at least as fast per token as nanoGPT at the same configuration on the same machine; KV-cache
generation at least 5x faster than recomputation at 512 new tokens.

A training step is taken as each project's training loop takes it (forward, loss, backward, clipping,
AdamW). ``course_lib`` rows use nanoGPT's activation (the exact GELU), so that the two models compute
the same function; ``course_lib-tanh`` uses GPT-2's tanh approximation (course_lib's default, needed
to load GPT-2's weights), which torch computes more slowly on CPU. course_lib's loop steps torch's
fused AdamW, nanoGPT's only on CUDA: ``course_lib-unfused`` takes nanoGPT's optimizer, which leaves
the two models alone to compare.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

CONFIGS = {  # nanoGPT's: (n_layers, n_heads, d_model, block_size, batch_size)
    "baby (4/4/128, block 64, batch 12)": (4, 4, 128, 64, 12),
    "shakespeare-char (6/6/384, block 256, batch 64)": (6, 6, 384, 256, 64),
}
VOCAB = 65  # tiny Shakespeare's characters


def _peak_mb(device: torch.device) -> float:
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated() / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def training_step(
    model_kind: str, config: str, device: torch.device, nanogpt: str | None, compile_: bool = False
) -> Callable[[], None]:
    """One training step as each project's own training loop takes it: forward, loss, backward,
    gradient clipping at norm 1, an AdamW step (course_lib: :func:`course_lib.train.make_optimizer`;
    nanoGPT: its ``configure_optimizers``; ``course_lib-unfused``: course_lib's model with nanoGPT's
    optimizer, to compare the two models alone). ``compile_``: run the model through ``torch.compile``,
    as both projects can (nanoGPT's published GPU speeds are compiled)."""
    n_layers, n_heads, d_model, block_size, batch_size = CONFIGS[config]
    torch.manual_seed(0)
    model: torch.nn.Module
    if model_kind.startswith("course_lib"):
        from course_lib.blocks import Activation
        from course_lib.gpt import GPT, GPTConfig
        from course_lib.train import TrainConfig, lm_loss_fn, make_optimizer, param_groups

        activation: Activation = "gelu_tanh" if model_kind.endswith("tanh") else "gelu"  # nanoGPT's is the exact GELU
        config_ = GPTConfig(
            vocab_size=VOCAB,
            block_size=block_size,
            n_layers=n_layers,
            n_heads=n_heads,
            d_model=d_model,
            activation=activation,
        )
        model = GPT(config_).to(device)
        if model_kind.endswith("unfused"):  # what nanoGPT's configure_optimizers makes on a CPU
            optimizer = torch.optim.AdamW(
                param_groups(model, 0.1), lr=1e-3, betas=(0.9, 0.95), fused=device.type == "cuda"
            )
        else:
            optimizer = make_optimizer(
                model, TrainConfig(steps=1, lr=1e-3, weight_decay=0.1, betas=(0.9, 0.95)), device
            )

        forward: torch.nn.Module = torch.compile(model) if compile_ else model  # type: ignore[assignment]

        def loss_of(inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
            return lm_loss_fn(forward, inputs, targets)
    else:
        sys.path.insert(0, str(Path(nanogpt).parent))  # type: ignore[arg-type]
        from model import GPT as NanoGPT  # type: ignore[import-not-found]
        from model import GPTConfig as NanoConfig

        with contextlib.redirect_stdout(sys.stderr):  # it prints what it built and chose
            model = NanoGPT(
                NanoConfig(
                    block_size=block_size,
                    vocab_size=VOCAB,
                    n_layer=n_layers,
                    n_head=n_heads,
                    n_embd=d_model,
                    dropout=0.0,
                    bias=True,
                )
            ).to(device)
            optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), device.type)  # type: ignore[operator]

        forward = torch.compile(model) if compile_ else model  # type: ignore[assignment]

        def loss_of(inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
            return forward(inputs, targets)[1]

    x = torch.randint(0, VOCAB, (batch_size, block_size + 1), device=device)
    inputs, targets = x[:, :-1].contiguous(), x[:, 1:].contiguous()  # (B, block_size) each

    def step() -> None:
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.type == "cuda"):
            loss = loss_of(inputs, targets)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    return step


def measure_training_speed(
    kinds: list[str], config: str, device: torch.device, nanogpt: str | None, steps: int, rounds: int, compile_: bool
) -> dict[str, float]:
    """Seconds per step of each kind, measured in this one process with the kinds taking turns,
    ``rounds`` rounds of ``steps`` steps, each round in a rotated order: a kind's time is its best
    round (other work on the machine only ever slows a round down, and taking turns gives every kind
    the same quiet moments)."""
    steps_of = {kind: training_step(kind, config, device, nanogpt, compile_) for kind in kinds}
    for step in steps_of.values():
        step()  # warm up (and compile)
    best = {kind: math.inf for kind in kinds}
    for round_ in range(rounds):
        for kind in kinds[round_ % len(kinds) :] + kinds[: round_ % len(kinds)]:
            step = steps_of[kind]
            _sync(device)
            start = time.perf_counter()
            for _ in range(steps):
                step()
            _sync(device)
            best[kind] = min(best[kind], (time.perf_counter() - start) / steps)
    return best


def measure_training_memory(kind: str, config: str, device: torch.device, nanogpt: str | None, compile_: bool) -> dict:
    """Peak memory of two training steps (run in a fresh process, so that the peak is its own)."""
    step = training_step(kind, config, device, nanogpt, compile_)
    step()
    step()
    return {"peak_mb": _peak_mb(device)}


def measure_generation(new_tokens: int, use_cache: bool, device: torch.device) -> dict:
    from course_lib.generation import generate
    from course_lib.gpt import GPT, GPTConfig

    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=VOCAB, block_size=1024, n_layers=6, n_heads=6, d_model=384)).to(device).eval()
    prompt = torch.randint(0, VOCAB, (1, 16), device=device)
    generate(model, prompt, max_new_tokens=8, use_cache=use_cache)  # warm up
    _sync(device)
    start = time.perf_counter()
    generate(model, prompt, max_new_tokens=new_tokens, use_cache=use_cache)
    _sync(device)
    return {"tokens_per_s": new_tokens / (time.perf_counter() - start)}


def mfu(config: str, tokens_per_s: float, device: torch.device) -> str:
    """Model FLOPs utilisation: the FLOPs a token's training takes (6N plus attention, Chowdhery et al.
    2022) times tokens/s over the device's bf16 peak; "-" where the peak is not known (a CPU)."""
    from course_lib.gpt import GPT, GPTConfig
    from course_lib.pretrain import peak_flops

    n_layers, n_heads, d_model, block_size, _ = CONFIGS[config]
    peak = peak_flops(device, None)
    if peak is None:
        return "-"
    flops = GPT(
        GPTConfig(vocab_size=VOCAB, block_size=block_size, n_layers=n_layers, n_heads=n_heads, d_model=d_model)
    ).training_flops_per_token()
    return f"{flops * tokens_per_s / peak:.1%}"


def run_one(args: list[str]) -> dict:
    """Run one measurement in a fresh process; its JSON result."""
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--nanogpt", help="path to nanoGPT's model.py, to measure it side by side")
    parser.add_argument(
        "--compile", action="store_true", help="torch.compile the models for training (worth it on a GPU)"
    )
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    device = torch.device(args.device)
    if args.one:
        what, *rest = args.one
        if what == "train":
            kind, config = rest
            result = measure_training_memory(kind, config, device, args.nanogpt, args.compile)
        else:
            new_tokens, cached = rest
            result = measure_generation(int(new_tokens), cached == "cached", device)
        print(json.dumps(result))
        return
    common = (
        ["--device", args.device]
        + (["--nanogpt", args.nanogpt] if args.nanogpt else [])
        + (["--compile"] if args.compile else [])
    )
    print(
        f"device: {args.device}, torch {torch.__version__}, {torch.get_num_threads()} threads, "
        f"{'compiled' if args.compile else 'eager'}"
    )
    print(f"{'training':<52} {'model':<19} {'ms/step':>9} {'tokens/s':>10} {'peak MB':>8} {'MFU':>6}")
    kinds = ["course_lib", "course_lib-tanh", "course_lib-unfused"] + (["nanoGPT"] if args.nanogpt else [])
    # memory first, while this process is small: a child's peak starts from its parent's on Linux
    peaks = {
        (config, kind): run_one(["--one", "train", kind, config, *common])["peak_mb"]
        for config in CONFIGS
        for kind in kinds
    }
    generation = {
        (n, cached): run_one(["--one", "generate", str(n), cached, *common])["tokens_per_s"]
        for n in (128, 512)
        for cached in ("uncached", "cached")
    }
    for config in CONFIGS:
        quick = args.device != "cpu" or config.startswith("baby")
        seconds = measure_training_speed(
            kinds, config, device, args.nanogpt, steps=20 if quick else 1, rounds=5, compile_=args.compile
        )
        tokens = CONFIGS[config][3] * CONFIGS[config][4]  # block_size * batch_size
        for kind in kinds:
            print(
                f"{config:<52} {kind:<19} {seconds[kind] * 1e3:>9.1f} {tokens / seconds[kind]:>10.0f} "
                f"{peaks[config, kind]:>8.0f} {mfu(config, tokens / seconds[kind], device):>6}"
            )
    print(f"\n{'generation, 6/6/384, 16-token prompt, greedy':<52} {'cache':<11} {'tokens/s':>10} {'speed-up':>9}")
    for new_tokens in (128, 512):
        for cached in ("uncached", "cached"):
            rate = generation[new_tokens, cached]
            print(
                f"{str(new_tokens) + ' new tokens':<52} {cached:<11} {rate:>10.0f} "
                f"{rate / generation[new_tokens, 'uncached']:>8.1f}x"
            )


if __name__ == "__main__":
    main()
