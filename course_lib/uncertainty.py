"""How sure a measured accuracy is: bootstrap intervals over seeds and test examples.

An accuracy measured once, on a few hundred test examples, after one training run, moves by points
when the seed or the test set changes. Chapter 6's table gives each accuracy an interval that counts
both: each resample draws the test examples with replacement (the same draw for every seed, since
every run was tested on the same examples) and the seeds with replacement, and takes the mean. The
percentile interval of those means is reported; a difference between two variants tested on the same
examples is resampled in pairs, so what the examples share cancels.
"""

from __future__ import annotations

import torch
from torch import Tensor

__all__ = ["accuracy_interval", "difference_interval"]


def _resampled_means(correct: Tensor, items: Tensor, seeds: Tensor) -> Tensor:
    """``correct (S, N)`` -> ``(R,)``: the mean over resample r's seeds ``seeds[r] (S,)`` and items
    ``items[r] (N,)``."""
    picked = correct.float()[seeds[:, :, None], items[:, None, :]]  # (R, S, N)
    return picked.mean(dim=(1, 2))


def _draws(correct: Tensor, resamples: int, seed: int) -> tuple[Tensor, Tensor]:
    if correct.dim() != 2 or correct.shape[0] < 1 or correct.shape[1] < 1:
        raise ValueError(f"correct must be (seeds, examples) with at least one of each, not {tuple(correct.shape)}")
    g = torch.Generator().manual_seed(seed)
    n_seeds, n_items = correct.shape
    return torch.randint(n_items, (resamples, n_items), generator=g), torch.randint(
        n_seeds, (resamples, n_seeds), generator=g
    )


def _percentiles(values: Tensor, level: float) -> tuple[float, float]:
    if not 0 < level < 1:
        raise ValueError(f"level must lie between 0 and 1, not {level}")
    tail = (1 - level) / 2
    low, high = torch.quantile(values.double(), torch.tensor([tail, 1 - tail], dtype=torch.float64)).tolist()
    return low, high


def accuracy_interval(
    correct: Tensor, level: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """The ``level`` bootstrap interval of the mean accuracy of ``correct (S, N)``: whether run s
    (a seed) got test example n right. Resamples examples and seeds (``seed`` fixes the draws, so the
    same results always give the same interval)."""
    items, seeds = _draws(correct, resamples, seed)
    return _percentiles(_resampled_means(correct, items, seeds), level)


def difference_interval(
    correct_a: Tensor, correct_b: Tensor, level: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """The ``level`` bootstrap interval of mean accuracy a minus mean accuracy b, two ``(S, N)`` tables of
    the same N test examples (and the same seeds, paired: seed s of a with seed s of b). An interval
    that excludes 0 separates the two."""
    if correct_a.shape != correct_b.shape:
        raise ValueError(
            "the two tables must have the same (seeds, examples) shape, "
            f"not {tuple(correct_a.shape)} and {tuple(correct_b.shape)}"
        )
    items, seeds = _draws(correct_a, resamples, seed)
    return _percentiles(_resampled_means(correct_a, items, seeds) - _resampled_means(correct_b, items, seeds), level)
