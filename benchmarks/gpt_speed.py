"""Speed of course_lib's GPT: training tokens/s and peak memory at nanoGPT's two character-level
configurations, and generation tokens/s with and without the KV cache.

    python benchmarks/gpt_speed.py [--device cpu|cuda] [--nanogpt PATH/TO/nanoGPT/model.py]

Each measurement runs in a fresh process (so that peak memory is its own). With ``--nanogpt``, the
same training measurements are made on nanoGPT's model (its ``model.py``, not part of this project)
for a side-by-side comparison. Targets (issue 5): training at least as fast per token as nanoGPT at
the same configuration on the same machine; KV-cache generation at least 5x faster than
recomputation at 512 new tokens.

``course_lib`` rows use nanoGPT's activation (the exact GELU), so that the two models compute the same
function; ``course_lib-tanh`` uses GPT-2's tanh approximation (course_lib's default, needed to load
GPT-2's weights), which torch computes more slowly on CPU.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
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


def measure_training(model_kind: str, config: str, device: torch.device, nanogpt: str | None, steps: int) -> dict:
    n_layers, n_heads, d_model, block_size, batch_size = CONFIGS[config]
    torch.manual_seed(0)
    if model_kind.startswith("course_lib"):
        from course_lib.gpt import GPT, GPTConfig, lm_loss

        activation = "gelu_tanh" if model_kind.endswith("tanh") else "gelu"  # nanoGPT's is the exact GELU
        config_ = GPTConfig(vocab_size=VOCAB, block_size=block_size, n_layers=n_layers, n_heads=n_heads, d_model=d_model, activation=activation)
        model = GPT(config_).to(device)

        def loss_of(x: torch.Tensor) -> torch.Tensor:
            return lm_loss(model(x), x)
    else:
        sys.path.insert(0, str(Path(nanogpt).parent))  # type: ignore[arg-type]
        from model import GPT as NanoGPT  # type: ignore[import-not-found]
        from model import GPTConfig as NanoConfig

        model = NanoGPT(NanoConfig(block_size=block_size, vocab_size=VOCAB, n_layer=n_layers, n_head=n_heads, n_embd=d_model, dropout=0.0, bias=True)).to(device)

        def loss_of(x: torch.Tensor) -> torch.Tensor:
            return model(x[:, :-1].contiguous(), x[:, 1:].contiguous())[1]

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95))
    # one token more than the context: course_lib's loss shifts inside, nanoGPT's takes targets
    x = torch.randint(0, VOCAB, (batch_size, block_size + (model_kind == "nanoGPT")), device=device)
    if model_kind != "nanoGPT":
        x = x[:, :block_size]

    def step() -> None:
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.type == "cuda"):
            loss = loss_of(x)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for _ in range(3):
        step()
    times = []  # the best of three rounds: other work on the machine only ever slows a round down
    for _ in range(3 if steps >= 10 else 1):
        _sync(device)
        start = time.perf_counter()
        for _ in range(steps):
            step()
        _sync(device)
        times.append((time.perf_counter() - start) / steps)
    seconds = min(times)
    return {"ms_per_step": seconds * 1e3, "tokens_per_s": batch_size * block_size / seconds, "peak_mb": _peak_mb(device)}


def measure_generation(new_tokens: int, use_cache: bool, device: torch.device) -> dict:
    from course_lib.gpt import GPT, GPTConfig, generate

    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=VOCAB, block_size=1024, n_layers=6, n_heads=6, d_model=384)).to(device).eval()
    prompt = torch.randint(0, VOCAB, (1, 16), device=device)
    generate(model, prompt, 8, use_cache=use_cache)  # warm up
    _sync(device)
    start = time.perf_counter()
    generate(model, prompt, new_tokens, temperature=0.0, use_cache=use_cache)
    _sync(device)
    return {"tokens_per_s": new_tokens / (time.perf_counter() - start), "peak_mb": _peak_mb(device)}


def run_one(args: list[str]) -> dict:
    """Run one measurement in a fresh process; its JSON result."""
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--nanogpt", help="path to nanoGPT's model.py, to measure it side by side")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    device = torch.device(args.device)
    if args.one:
        what, *rest = args.one
        if what == "train":
            kind, config, steps = rest
            result = measure_training(kind, config, device, args.nanogpt, int(steps))
        else:
            new_tokens, cached = rest
            result = measure_generation(int(new_tokens), cached == "cached", device)
        print(json.dumps(result))
        return
    common = ["--device", args.device] + (["--nanogpt", args.nanogpt] if args.nanogpt else [])
    print(f"device: {args.device}, torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"{'training':<52} {'model':<15} {'ms/step':>9} {'tokens/s':>10} {'peak MB':>8}")
    for config in CONFIGS:
        steps = "20" if args.device != "cpu" or config.startswith("baby") else "3"
        for kind in ["course_lib", "course_lib-tanh"] + (["nanoGPT"] if args.nanogpt else []):
            r = run_one(["--one", "train", kind, config, steps, *common])
            print(f"{config:<52} {kind:<15} {r['ms_per_step']:>9.1f} {r['tokens_per_s']:>10.0f} {r['peak_mb']:>8.0f}")
    print(f"\n{'generation, 6/6/384, 16-token prompt, greedy':<52} {'cache':<11} {'tokens/s':>10} {'speed-up':>9}")
    for new_tokens in (128, 512):
        rates = {cached: run_one(["--one", "generate", str(new_tokens), cached, *common])["tokens_per_s"] for cached in ("uncached", "cached")}
        for cached, rate in rates.items():
            print(f"{str(new_tokens) + ' new tokens':<52} {cached:<11} {rate:>10.0f} {rate / rates['uncached']:>8.1f}x")


if __name__ == "__main__":
    main()
