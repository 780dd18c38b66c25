"""Instructor solutions to the exercises of chapter 7, today's decoders (book/07_llama.md).

Exercise 1 takes seconds; exercises 2 to 4 train the chapter's Llama for 150 steps first (about 20 s on
one core) and then a few more; exercise 5 trains twelve such runs. ``--quick`` runs every exercise on a
tiny model and a slice of the text.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from course_lib import data, train
from course_lib.attention import MultiHeadAttention, RotaryEmbedding
from course_lib.gpt import GPT, GPTConfig
from course_lib.llama import Llama, LlamaConfig, stretched
from course_lib.seeding import set_seed, shifted
from course_lib.tokenization import CharTokenizer

from _runner import main

SECTION_7_5 = LlamaConfig(vocab_size=76, block_size=64, n_layers=4, n_heads=4, n_kv_heads=4, d_model=128, d_ff=341)
TINY = LlamaConfig(vocab_size=76, block_size=16, n_layers=1, n_heads=4, n_kv_heads=4, d_model=32, d_ff=80)


def _setting(quick: bool) -> tuple[LlamaConfig, Tensor, Tensor, int]:
    """The model's shape, the plays' training and held-out character ids, and the steps of section 7.5."""
    text = data.shakespeare()
    train_text, val_text = data.train_val_split(text, val_fraction=0.1)
    if quick:
        train_text, val_text = train_text[:100_000], val_text[:50_000]
    chars = CharTokenizer(text)
    ids = torch.tensor(chars.encode(train_text)), torch.tensor(chars.encode(val_text))
    return (TINY if quick else SECTION_7_5), ids[0], ids[1], (10 if quick else 150)


def _batches(train_ids: Tensor, val_ids: Tensor, length: int) -> train.Batches:
    def batches(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        return data.lm_batch(train_ids if split == "train" else val_ids, length, 16, generator)

    return batches


def _pretrained(config: LlamaConfig, train_ids: Tensor, val_ids: Tensor, steps: int) -> Llama:
    """Section 7.5's recipe: ``steps`` steps of 16 windows of ``block_size`` characters."""
    set_seed(0)
    model = Llama(config)
    recipe = train.TrainConfig(
        seed=shifted(0), steps=steps, lr=2e-3, min_lr=2e-4, warmup_steps=max(1, steps // 10), betas=(0.9, 0.99),
        eval_every=steps, eval_batches=2, progress=False,
    )  # fmt: skip
    train.train(model, _batches(train_ids, val_ids, config.block_size), recipe)
    return model


@torch.no_grad()
def _val_loss(model: torch.nn.Module, val_ids: Tensor, length: int, n_batches: int = 20) -> Tensor:
    """The mean loss at each of ``length`` positions over ``n_batches`` fixed held-out batches."""
    generator = torch.Generator().manual_seed(123)
    total = torch.zeros(length)
    for _ in range(n_batches):
        x, y = data.lm_batch(val_ids, length, 16, generator)
        total += F.cross_entropy(model.eval()(x).transpose(1, 2), y, reduction="none").mean(0)
    return total / n_batches


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """The cache of a 70-billion-parameter Llama.

    Llama 2 70B keeps, per token, keys and values for each of its 80 blocks, but only for its 8
    key/value heads of 128 features: 2 x 80 x 8 x 128 = 163,840 numbers, 327,680 bytes in 16 bits
    (320 KiB). With a key/value head per query head (64), it would keep 8 times as much, 2,621,440
    bytes (2.5 MiB) per token: 10.7 GB for one sequence of its 4,096 tokens instead of 1.3 GB. The
    code runs the 80 blocks on PyTorch's meta device (shapes, no memory or arithmetic) over 16 tokens
    with a KV cache per block, adds up what the caches hold, and counts the parameters (68,976,648,192:
    the "70B").
    """
    gqa = LlamaConfig(
        vocab_size=32000, block_size=4096, n_layers=80, n_heads=64, n_kv_heads=8, d_model=8192, d_ff=28672
    )
    per_token, parameters = {}, {}
    for name, config in {"grouped (8 key/value heads)": gqa, "multi-head (64)": replace(gqa, n_kv_heads=64)}.items():
        with torch.device("meta"):
            model = Llama(config).to(torch.bfloat16).eval()
            caches = model.new_caches()
            hidden = torch.empty(1, 16, config.d_model, dtype=torch.bfloat16)
            with torch.no_grad():
                for layer, cache in zip(model.layers, caches):
                    hidden = layer(hidden, cache=cache)
        per_token[name] = (
            sum(t.numel() * t.element_size() for cache in caches for t in (cache.k, cache.v) if t is not None) // 16
        )
        parameters[name] = model.num_parameters()
        print(
            f"{name}: {per_token[name]:,} bytes per token, {per_token[name] * config.block_size / 1e9:.1f} GB for "
            f"{config.block_size:,} tokens; {parameters[name]:,} parameters"
        )
    assert per_token["grouped (8 key/value heads)"] == 2 * 80 * 8 * 128 * 2 == 327_680
    assert per_token["multi-head (64)"] == 8 * per_token["grouped (8 key/value heads)"]
    assert parameters["grouped (8 key/value heads)"] == 68_976_648_192
    return {"bytes_per_token": per_token, "parameters": parameters}


class InterleavedRotary(RotaryEmbedding):
    """The paper's layout: pairs (x0, x1), (x2, x3), ... turned by the same angles as rotate-half's pairs."""

    def forward(self, q: Tensor, k: Tensor, offset: int = 0) -> tuple[Tensor, Tensor]:
        positions = torch.arange(offset, offset + q.shape[-2], dtype=torch.float32)
        angles = torch.outer(positions, self.inv_freq)  # (T, d_head / 2)
        cos, sin = angles.cos(), angles.sin()

        def turn(x: Tensor) -> Tensor:
            even, odd = x[..., 0::2], x[..., 1::2]
            return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)

        return turn(q), turn(k)


def exercise_2(quick: bool = False) -> dict[str, Any]:
    """Which layout?

    A model trained with rotate-half pairs, run with the interleaved rotation, turns the wrong pairs of
    coordinates together: each of its queries and keys is rotated as the positions it learned would
    never rotate it. Measured on section 7.5's Llama (150 steps, one run), the held-out loss rose from
    2.23 to 2.51 nats: far from the unigram model's 3.30, so much of what the model knows survives (the
    characters themselves, and the pairs whose angles still roughly agree), but a quarter of a nat is
    more than any change of the ladder but RoPE. Reordering the rows of every head of W_q and W_k so that
    row 2i is the old row i and row 2i + 1 the old row i + d_head / 2 makes each interleaved pair the old
    half-apart pair: every score is the same sum in another order, and the loss comes back to within
    float32 rounding (1e-4 is asserted; we measured equality to the printed digits). The values and W_o
    are not touched: they are never rotated.
    """
    config, train_ids, val_ids, steps = _setting(quick)
    model = _pretrained(config, train_ids, val_ids, steps)
    trained = _val_loss(model, val_ids, config.block_size).mean().item()
    wrong = copy.deepcopy(model)
    attentions = [m for m in wrong.modules() if isinstance(m, MultiHeadAttention)]
    for attention in attentions:
        attention.rotary = InterleavedRotary(config.d_head, config.rope_base)
    unconverted = _val_loss(wrong, val_ids, config.block_size).mean().item()
    d, half = config.d_head, config.d_head // 2
    order = torch.tensor([j // 2 + (j % 2) * half for j in range(d)])  # new row j <- old row order[j], per head
    with torch.no_grad():
        for attention in attentions:
            for projection, heads in ((attention.q_proj, config.n_heads), (attention.k_proj, config.n_kv_heads)):
                rows = projection.weight.view(heads, d, -1)
                projection.weight.copy_(rows[:, order].flatten(0, 1))
    converted = _val_loss(wrong, val_ids, config.block_size).mean().item()
    print(f"trained {trained:.4f}; interleaved, unconverted {unconverted:.4f}; converted {converted:.4f}")
    if not quick:  # ten steps of a tiny model learn too little about positions to lose
        assert unconverted > trained + 0.1
    assert abs(converted - trained) < 1e-4
    return {"trained": trained, "unconverted": unconverted, "converted": converted}


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Train on long windows.

    After 20 steps on windows of 256 characters (four times the training length, at a constant 5e-4),
    the plain model, which section 7.6 found worst when read as it is, recovers fully: in one run we
    measured on section 7.5's multi-head Llama, 2.232 nats past position 128 against 2.227 on the first
    64. The larger base ends in the same place (2.229 and 2.229). Interpolation is still behind
    everywhere (2.348 past 128, 2.344 on the first 64), because 20 steps are too few to relearn
    neighbours a quarter of a position apart (Chen et al. trained for about 1,000). The rescaling rules
    matter when a model is read at a length it cannot be trained on; with even a little training at the
    new length, this small model needs none.
    """
    config, train_ids, val_ids, steps = _setting(quick)
    model = _pretrained(config, train_ids, val_ids, steps)
    length, extra = 4 * config.block_size, (3 if quick else 20)
    far: dict[str, float] = {}
    for rule in ("extrapolate", "interpolate", "base"):
        longer = stretched(model, 4, rule)
        recipe = train.TrainConfig(
            seed=shifted(7), steps=extra, lr=5e-4, min_lr=5e-4, betas=(0.9, 0.99), eval_every=extra,
            eval_batches=2, progress=False,
        )  # fmt: skip
        train.train(longer, _batches(train_ids, val_ids, length), recipe)
        losses = _val_loss(longer, val_ids, length)
        far[rule] = losses[2 * config.block_size :].mean().item()
        print(f"{rule}: first {config.block_size} positions {losses[: config.block_size].mean():.3f}, past "
              f"{2 * config.block_size}: {far[rule]:.3f}")  # fmt: skip
    if not quick:
        assert far["extrapolate"] < far["interpolate"] and far["base"] < far["interpolate"]
    return {"past_twice_the_length": far}


def _grouped(mha: Llama, n_kv_heads: int) -> Llama:
    """Section 7.5's conversion: each group's key and value heads replaced by their mean."""
    gqa = Llama(replace(mha.config, n_kv_heads=n_kv_heads))
    state, group = mha.state_dict(), mha.config.n_kv_heads // n_kv_heads
    for key, value in state.items():
        if key.endswith(("k_proj.weight", "v_proj.weight")):
            state[key] = value.view(n_kv_heads, group, mha.config.d_head, -1).mean(1).flatten(0, 1)
    gqa.load_state_dict(state)
    return gqa


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """MQA.

    Pooling the four key/value heads into one costs more than pooling them into two (every query head
    now reads the same keys and values), and 15 steps of uptraining win back less of it. In one run we
    measured on section 7.5's multi-head Llama, pooling cost 0.38 nats for MQA against 0.24 for GQA,
    and 0.19 against 0.06 remained after uptraining. The cache is a quarter of the multi-head model's,
    against a half for GQA: the trade Ainslie et al. measured at scale, where uptrained GQA came close
    to multi-head quality and MQA lost more.
    """
    config, train_ids, val_ids, steps = _setting(quick)
    mha = _pretrained(config, train_ids, val_ids, steps)
    batches = _batches(train_ids, val_ids, config.block_size)
    base = _val_loss(mha, val_ids, config.block_size).mean().item()
    out: dict[str, dict[str, float]] = {}
    for name, kv_heads in (("GQA, 2 kv heads", 2), ("MQA, 1 kv head", 1)):
        pooled = _grouped(mha, kv_heads)
        before = _val_loss(pooled, val_ids, config.block_size).mean().item()
        extra = 3 if quick else 15
        recipe = train.TrainConfig(
            seed=shifted(10), steps=extra, lr=2e-4, min_lr=2e-4, betas=(0.9, 0.99), eval_every=extra,
            eval_batches=2, progress=False,
        )  # fmt: skip
        train.train(pooled, batches, recipe)
        after = _val_loss(pooled, val_ids, config.block_size).mean().item()
        out[name] = {"pooling cost": before - base, "left after uptraining": after - base}
        print(f"{name}: pooling costs {before - base:.3f} nats; {after - base:.3f} left after {extra} steps")
    if not quick:
        assert out["MQA, 1 kv head"]["pooling cost"] > out["GQA, 2 kv heads"]["pooling cost"]
    return out


# The 0.975 quantile of Student's t with k degrees of freedom: a 95% interval of a mean of k + 1 paired differences.
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 8: 2.306, 10: 2.228}


def exercise_5(quick: bool = False) -> dict[str, Any]:
    """GPT against Llama, with an interval.

    Each seed trains chapter 3's GPT and the top rung of the ladder (GQA, untied head) on the same
    windows in the same order with section 7.5's recipe, and the paired difference is the GPT's
    validation loss minus the Llama's (20 fixed held-out batches). In one run of six seeds (0 to 5) with
    native kernels, the differences were 0.186 to 0.206 nats, mean 0.196, and the 95% t-interval over the
    seeds [0.189, 0.203]: far from 0, and under a tenth of the gain wide. The Llama has 9% fewer parameters (740,992
    against 811,264) and sees the same 153,600 characters, so the gain is not bought with size or data;
    at this scale almost all of it is RoPE's (section 7.5).

    Against section 7.5's four seeds, the half-width shrinks by the quantile (3.182 to 2.571, a factor 0.81)
    and by sqrt(4/6) (0.82): about two thirds in all, if the seeds' spread stays the same. (This solution
    scores every model on the same 20 fixed held-out batches, section 7.5 on 50 batches drawn from each
    seed, so compare the two widths with that in mind.) Unpaired (the two models' losses as two
    independent samples of six, 10 degrees of freedom), the interval's width comes from each model's own
    spread from seed to seed; the paired differences cancel what the two runs of a seed share (the windows
    and their order), so their interval is narrower when the two models' losses rise and fall together
    with the seed, and not otherwise. Pairing is still the analysis the design calls for, since the runs
    of a seed are not independent. The function returns both
    intervals and prints their ratio.
    """
    config, train_ids, val_ids, steps = _setting(quick)
    llama_config = replace(config, n_kv_heads=config.n_heads // 2, tie_embeddings=False)
    gpt_config = GPTConfig(
        vocab_size=config.vocab_size, block_size=config.block_size, n_layers=config.n_layers,
        n_heads=config.n_heads, d_model=config.d_model, dropout=0.0,
    )  # fmt: skip
    batches = _batches(train_ids, val_ids, config.block_size)
    seeds = range(2 if quick else 6)
    differences, pairs = [], []
    for seed in seeds:
        losses = []
        for build in (lambda: GPT(gpt_config), lambda: Llama(llama_config)):
            set_seed(seed)
            model = build()
            recipe = train.TrainConfig(
                seed=shifted(seed), steps=steps, lr=2e-3, min_lr=2e-4, warmup_steps=max(1, steps // 10),
                betas=(0.9, 0.99), eval_every=steps, eval_batches=2, progress=False,
            )  # fmt: skip
            train.train(model, batches, recipe)
            losses.append(_val_loss(model, val_ids, config.block_size).mean().item())
        differences.append(losses[0] - losses[1])
        pairs.append((losses[0], losses[1]))
        print(f"seed {seed}: GPT {losses[0]:.3f}, Llama {losses[1]:.3f}, difference {losses[0] - losses[1]:+.3f}")
    d = torch.tensor(differences, dtype=torch.float64)
    half = T_975[len(d) - 1] * d.std().item() / len(d) ** 0.5
    mean = d.mean().item()
    print(f"mean {mean:.3f}, 95% t-interval [{mean - half:.3f}, {mean + half:.3f}] over {len(d)} seeds")
    gpt, llama = (torch.tensor(column, dtype=torch.float64) for column in zip(*pairs))
    pooled = ((gpt.var() + llama.var()) / 2).sqrt().item()  # the two samples' pooled standard deviation
    unpaired = T_975[2 * len(d) - 2] * pooled * (2 / len(d)) ** 0.5
    print(f"unpaired: [{mean - unpaired:.3f}, {mean + unpaired:.3f}], {unpaired / half:.1f} times as wide")
    if not quick:
        assert mean - half > 0, "the Llama ends below the GPT beyond the seeds' noise"
    return {
        "differences": differences,
        "mean": mean,
        "interval": (mean - half, mean + half),
        "unpaired": (mean - unpaired, mean + unpaired),
    }


EXERCISES = {1: exercise_1, 2: exercise_2, 3: exercise_3, 4: exercise_4, 5: exercise_5}

if __name__ == "__main__":
    main(EXERCISES)
