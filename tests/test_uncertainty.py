"""course_lib.uncertainty: bootstrap intervals over seeds and test examples."""

from __future__ import annotations

import math

import pytest
import torch

from course_lib.uncertainty import accuracy_interval, difference_interval


def test_one_seed_matches_the_binomial_interval() -> None:
    """One run on N examples: the bootstrap interval is the normal approximation p ± 1.96 sqrt(p(1-p)/N)
    (to within 15% of its half-width, and centred on p)."""
    correct = torch.zeros(1, 400, dtype=torch.bool)
    correct[0, :300] = True  # p = 0.75
    low, high = accuracy_interval(correct)
    half = 1.96 * math.sqrt(0.75 * 0.25 / 400)
    assert abs((high - low) / 2 - half) < 0.15 * half
    assert abs((low + high) / 2 - 0.75) < 0.2 * half


def test_seeds_that_disagree_widen_the_interval() -> None:
    agree = torch.zeros(2, 400, dtype=torch.bool)
    agree[:, :300] = True
    disagree = agree.clone()
    disagree[0, :300], disagree[0, :340] = False, True  # seed 0 at 85%
    disagree[1, :300], disagree[1, :260] = False, True  # seed 1 at 65%: the same mean, 75%
    low_a, high_a = accuracy_interval(agree)
    low_d, high_d = accuracy_interval(disagree)
    assert high_d - low_d > 1.5 * (high_a - low_a)
    assert low_d < 0.70 and high_d > 0.80  # the seeds' own spread is inside


def test_an_accuracy_the_same_everywhere_has_no_width_and_draws_are_fixed() -> None:
    assert accuracy_interval(torch.ones(3, 50, dtype=torch.bool)) == (1.0, 1.0)
    correct = torch.rand(2, 300, generator=torch.Generator().manual_seed(0)) < 0.7
    assert accuracy_interval(correct) == accuracy_interval(correct)
    assert accuracy_interval(correct, seed=1) != accuracy_interval(correct, seed=0)


def test_differences_are_paired_over_the_same_examples() -> None:
    """b is a with 30 of 300 answers flipped from wrong to right: the paired interval is narrow around
    +10 points and excludes 0; a table against itself differs by exactly 0."""
    a = torch.rand(2, 300, generator=torch.Generator().manual_seed(1)) < 0.6
    b = a.clone()
    wrong = (~a[0]).nonzero().squeeze(1)[:30]
    b[:, wrong] = True
    b[1, (~a[1]).nonzero().squeeze(1)[:30]] = True
    low, high = difference_interval(b, a)
    assert 0 < low < 0.1 < high < 0.2
    unpaired_half = 1.96 * math.sqrt(2 * 0.6 * 0.4 / 600)
    assert (high - low) / 2 < 0.7 * unpaired_half  # pairing removes what the examples share
    assert difference_interval(a, a) == (0.0, 0.0)


def test_bad_shapes_and_levels_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="seeds, examples"):
        accuracy_interval(torch.ones(10, dtype=torch.bool))
    with pytest.raises(ValueError, match="same"):
        difference_interval(torch.ones(2, 10, dtype=torch.bool), torch.ones(2, 11, dtype=torch.bool))
    with pytest.raises(ValueError, match="level"):
        accuracy_interval(torch.ones(2, 10, dtype=torch.bool), level=95)
