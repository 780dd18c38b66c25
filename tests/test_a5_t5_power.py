"""The laws and the bound behind a5's statistical checks (issue 27, item 2): each law is the one a
correct answer follows, checked by enumerating every outcome; the bound on a correct answer's chance
to fail holds against exact multinomial tails."""

from __future__ import annotations

import itertools
import math
import sys

import torch

from assignment_support import GRADING

sys.path.insert(0, str(GRADING))
import a5_t5_checks as a5  # noqa: E402


def test_every_mask_is_every_alternating_mask_with_the_counts() -> None:
    for length, num_noise, num_spans in [(10, 5, 2), (9, 3, 2), (8, 4, 3), (7, 2, 1)]:
        masks = {tuple(m) for m in a5._every_mask(length, num_noise, num_spans)}
        brute = set()
        for bits in itertools.product([False, True], repeat=length):
            runs = a5._runs(list(bits))
            if sum(bits) == num_noise and not bits[0] and bits[-1] and sum(v for v, _ in runs) == num_spans:
                brute.add(bits)
        assert masks == brute
        assert len(masks) == math.comb(num_noise - 1, num_spans - 1) * math.comb(length - num_noise - 1, num_spans - 1)


def test_place_laws_match_every_set_of_places() -> None:
    for places, k in [(6, 1), (7, 3), (8, 4), (5, 5), (9, 2)]:
        subsets = [[i in chosen for i in range(places)] for chosen in itertools.combinations(range(places), k)]
        firsts = [0.0] * (places - k + 1)
        runs = [0.0] * (k + 1)
        for flags in subsets:
            firsts[flags.index(True)] += 1 / len(subsets)
            runs[a5._count_runs(flags)] += 1 / len(subsets)
        assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(a5._first_place_law(places, k), firsts))
        assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(a5._runs_law(places, k), runs))


def test_the_transform_of_a_draw_from_its_law_is_uniform() -> None:
    g = torch.Generator().manual_seed(0)
    law = [0.5, 0.3, 0.2]
    values = torch.multinomial(torch.tensor(law), 20000, replacement=True, generator=g).tolist()
    u = torch.tensor([a5._transform(law, v, g) for v in values])
    counts = torch.histc(u, bins=10, min=0, max=1)
    assert float((counts - 2000).abs().max()) < 200  # about 4.7 standard deviations of a bin
    skewed = [a5._transform(law, 0, g) for _ in range(2000)]  # always the first outcome: all below 0.5
    assert max(skewed) < 0.5


def _exact_tail(n: int, p: float, divergence: float) -> float:
    """P(D(empirical || (p, 1 - p)) >= divergence) for a binomial(n, p), by enumeration."""
    total = 0.0
    for x in range(n + 1):
        q = x / n
        d = sum(a * math.log(a / b) for a, b in ((q, p), (1 - q, 1 - p)) if a > 0)
        if d >= divergence - 1e-12:
            total += math.comb(n, x) * p**x * (1 - p) ** (n - x)
    return total


def test_the_divergence_bound_holds_against_exact_tails() -> None:
    for n, p in [(20, 0.5), (50, 0.1), (150, 0.3), (300, 0.02)]:
        for divergence in (0.02, 0.05, 0.1, 0.2, 0.4):
            assert _exact_tail(n, p, divergence) <= a5._divergence_bound(n, divergence, 2) + 1e-15
    assert a5._divergence_bound(100, 0.01, 5) == 1.0  # meaningless below (bins - 1) / n
    assert a5._divergence_bound(150, 0.5, 10) < a5.P_LIMIT < a5._divergence_bound(150, 0.1, 10)
