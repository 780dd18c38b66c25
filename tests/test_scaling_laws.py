"""course_lib.scaling_laws: the fit recovers a known law, its compute-optimal size minimises the law on the
budget's line, and bad runs are refused by name."""

from __future__ import annotations

import pytest
import torch

from course_lib.scaling_laws import ScalingLaw, bootstrap_scaling_laws, fit_scaling_law

CHINCHILLA = ScalingLaw(E=1.69, A=406.4, B=410.7, alpha=0.34, beta=0.28)  # Hoffmann et al.'s published fit


def grid_runs(law: ScalingLaw, noise: float = 0.0, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    params = torch.tensor([1e4, 3e4, 1e5, 3e5, 1e6], dtype=torch.float64).repeat_interleave(4)  # (20,)
    tokens = torch.tensor([1e5, 1e6, 1e7, 1e8], dtype=torch.float64).repeat(5)
    g = torch.Generator().manual_seed(seed)
    return params, tokens, law.loss(params, tokens) + noise * torch.randn(20, generator=g, dtype=torch.float64)


@pytest.mark.parametrize("law", [CHINCHILLA, ScalingLaw(E=0.9, A=30.0, B=5.0, alpha=0.6, beta=0.15)])
def test_the_fit_recovers_a_law_whose_exponents_lie_on_the_grid(law: ScalingLaw) -> None:
    fit = fit_scaling_law(*grid_runs(law))
    assert fit.beta == pytest.approx(law.beta) and fit.E == pytest.approx(law.E, abs=1e-9)
    assert fit.B == pytest.approx(law.B, rel=1e-6) and fit.A == pytest.approx(law.A, rel=1e-6)
    assert fit.alpha == pytest.approx(law.alpha)
    assert fit.rms < 1e-9


def test_the_fit_keeps_every_term_non_negative_and_reports_its_residual() -> None:
    params, tokens, losses = grid_runs(CHINCHILLA, noise=0.05, seed=3)
    fit = fit_scaling_law(params, tokens, losses)
    assert min(fit.E, fit.A, fit.B) >= 0
    residual = (fit.loss(params, tokens) - losses).pow(2).mean().sqrt()
    assert fit.rms == pytest.approx(float(residual))
    # no pair of exponents on the grid does better than the one the fit chose
    other = ScalingLaw(CHINCHILLA.E, CHINCHILLA.A, CHINCHILLA.B, CHINCHILLA.alpha, CHINCHILLA.beta)
    assert fit.rms <= float((other.loss(params, tokens) - losses).pow(2).mean().sqrt()) + 1e-12


def test_the_compute_optimal_size_minimises_the_law_along_the_budget() -> None:
    for flops in (1e15, 1e20, 5.76e23):  # the last: Chinchilla's own budget
        n_opt, d_opt = CHINCHILLA.compute_optimal(flops)
        assert 6 * n_opt * d_opt == pytest.approx(flops)
        sizes = n_opt * torch.logspace(-1, 1, 2001, dtype=torch.float64)  # a tenth to ten times N_opt
        losses = CHINCHILLA.loss(sizes, flops / (6 * sizes))
        assert float(sizes[losses.argmin()]) == pytest.approx(n_opt, rel=3e-3)
    assert CHINCHILLA.size_exponent == pytest.approx(0.28 / 0.62)


def test_the_compute_optimal_size_needs_both_terms_and_a_budget() -> None:
    with pytest.raises(ValueError, match="flops must be positive"):
        CHINCHILLA.compute_optimal(0.0)
    with pytest.raises(ValueError, match="A or B is 0"):
        ScalingLaw(2.0, 0.0, 80.0, 0.5, 0.4).compute_optimal(1e20)


def test_bootstrap_intervals_cover_the_law_and_repeat_with_their_seed() -> None:
    params, tokens, losses = grid_runs(CHINCHILLA, noise=0.05, seed=1)
    laws = bootstrap_scaling_laws(params, tokens, losses, resamples=60, seed=5)
    assert len(laws) >= 55
    betas = torch.tensor([law.beta for law in laws], dtype=torch.float64)
    low, high = torch.quantile(betas, torch.tensor([0.025, 0.975], dtype=torch.float64)).tolist()
    assert low <= CHINCHILLA.beta <= high and high - low > 0  # noise gives the interval a width
    again = bootstrap_scaling_laws(params, tokens, losses, resamples=60, seed=5)
    assert [law.beta for law in again] == betas.tolist()


@pytest.mark.parametrize(
    ("params", "tokens", "losses", "message"),
    [
        (torch.ones(5), torch.ones(4), torch.ones(5), "same length"),
        (torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, 3), "1-D"),
        (torch.ones(3), torch.ones(3), torch.ones(3), "at least 4 runs"),
        (torch.tensor([1.0, 2, 0, 4]), torch.ones(4), torch.ones(4), "positive parameter"),
        (torch.ones(4), torch.ones(4), torch.tensor([1.0, float("nan"), 1, 1]), "finite loss"),
    ],
)
def test_bad_runs_are_refused_by_name(
    params: torch.Tensor, tokens: torch.Tensor, losses: torch.Tensor, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        fit_scaling_law(params, tokens, losses)


def test_runs_that_get_worse_with_size_and_data_have_no_law() -> None:
    params, tokens, _ = grid_runs(CHINCHILLA)
    with pytest.raises(ValueError, match="non-negative"):
        fit_scaling_law(params, tokens, 1.0 + 1e-6 * params + 1e-8 * tokens)


def test_a_fit_with_its_floor_held_recovers_the_law_and_never_beats_the_free_fit() -> None:
    params, tokens, losses = grid_runs(CHINCHILLA)
    held = fit_scaling_law(params, tokens, losses, E=CHINCHILLA.E)
    assert (held.alpha, held.beta) == (pytest.approx(CHINCHILLA.alpha), pytest.approx(CHINCHILLA.beta))
    assert held.A == pytest.approx(CHINCHILLA.A, rel=1e-6) and held.B == pytest.approx(CHINCHILLA.B, rel=1e-6)
    assert held.E == CHINCHILLA.E and held.rms < 1e-9
    noisy = grid_runs(CHINCHILLA, noise=0.05, seed=2)
    free = fit_scaling_law(*noisy)
    for floor in (0.0, 1.0, 1.5):
        law = fit_scaling_law(*noisy, E=floor)
        assert law.E == floor and free.rms <= law.rms + 1e-12
        assert law.rms == pytest.approx(float((law.loss(noisy[0], noisy[1]) - noisy[2]).pow(2).mean().sqrt()))
    with pytest.raises(ValueError, match="non-negative"):
        fit_scaling_law(*noisy, E=-0.1)
