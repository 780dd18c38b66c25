"""course_lib.scaling: the fitted law recovers the law that made the losses, and its compute-optimal split
is the minimum of the loss at fixed compute."""

import math

import pytest
import torch

from course_lib.scaling import BESIROGLU, CHINCHILLA, LossLaw, bootstrap_loss_laws, fit_loss_law

# two made-up laws on the appendix's scale (thousands of parameters, up to a million tokens), one with alpha
# above beta and one below: a fit that swapped the two terms or fixed an exponent would miss one of them
LAWS = [
    LossLaw(E=1.3, A=40.0, alpha=0.45, B=90.0, beta=0.4),
    LossLaw(E=0.9, A=12.0, alpha=0.3, B=400.0, beta=0.6),
]
# five sizes, six checkpoints each, over ranges wide enough that the five numbers are determined (over the
# appendix's own ranges several laws fit nearly as well: its bootstrap intervals show how many)
PARAMS = torch.tensor([1e3, 1e4, 1e5, 1e6, 1e7]).repeat_interleave(6)
TOKENS = torch.tensor([1e4, 1e5, 1e6, 1e7, 1e8, 1e9]).repeat(5)
GROUPS = torch.arange(5).repeat_interleave(6)


def close(fit: LossLaw, truth: LossLaw, rel: float) -> bool:
    return all(math.isclose(getattr(fit, k), getattr(truth, k), rel_tol=rel) for k in ("E", "A", "alpha", "B", "beta"))


@pytest.mark.parametrize("truth", LAWS, ids=["alpha>beta", "alpha<beta"])
def test_fit_recovers_the_law_that_made_the_losses(truth: LossLaw) -> None:
    fit = fit_loss_law(PARAMS, TOKENS, truth(PARAMS, TOKENS))
    assert close(fit, truth, 1e-3), fit
    assert fit == fit_loss_law(PARAMS, TOKENS, truth(PARAMS, TOKENS)), "the same runs give the same law"


def test_bootstrap_resamples_whole_groups() -> None:
    truth = LAWS[0]
    losses = truth(PARAMS, TOKENS)
    # noise-free losses: every resample of whole sizes still determines the law (each keeps all six token counts)
    laws = bootstrap_loss_laws(PARAMS, TOKENS, losses, GROUPS, resamples=4, seed=1, whole=truth)
    assert len(laws) == 4 and all(close(law, truth, 1e-2) for law in laws), laws
    # with noise the refits differ from each other, and the same seed draws the same resamples
    noisy = losses * torch.exp(0.01 * torch.randn(len(losses), generator=torch.Generator().manual_seed(0)))
    laws = bootstrap_loss_laws(PARAMS, TOKENS, noisy, GROUPS, resamples=4, seed=1)  # fits the whole itself
    assert len({law.alpha for law in laws}) > 1
    assert laws == bootstrap_loss_laws(
        PARAMS, TOKENS, noisy, GROUPS, resamples=4, seed=1, whole=fit_loss_law(PARAMS, TOKENS, noisy)
    )


@pytest.mark.parametrize("law", [CHINCHILLA, BESIROGLU, *LAWS])
def test_optimal_split_minimises_the_loss_at_fixed_compute(law: LossLaw) -> None:
    flops = 1e21
    params, tokens = law.optimal_split(flops)
    assert math.isclose(6 * params * tokens, flops, rel_tol=1e-9)
    sizes = params * torch.logspace(-1, 1, 2001, dtype=torch.float64)  # a tenth to ten times the optimum
    losses = law(sizes, flops / 6 / sizes)
    assert math.isclose(float(sizes[losses.argmin()]), params, rel_tol=5e-3)
    # the size grows as compute to the power beta / (alpha + beta): a hundred times the compute
    assert math.isclose(law.optimal_split(100 * flops)[0] / params, 100**law.params_exponent, rel_tol=1e-9)


def test_chinchilla_splits_compute_about_evenly() -> None:
    """Hoffmann et al.'s approach 3 gives N_opt ~ C^0.46; Besiroglu et al.'s refit ~ C^0.51."""
    assert round(CHINCHILLA.params_exponent, 2) == 0.45  # 0.28 / 0.62 (their table rounds to 0.46)
    assert round(BESIROGLU.params_exponent, 2) == 0.51


@pytest.mark.parametrize(
    "params, tokens, losses, message",
    [
        (PARAMS[:4], TOKENS[:4], LAWS[0](PARAMS[:4], TOKENS[:4]), "at least five runs"),
        (PARAMS, TOKENS[:-1], LAWS[0](PARAMS, TOKENS), "one number per run"),
        (PARAMS, TOKENS, -LAWS[0](PARAMS, TOKENS), "losses must be finite and > 0"),
        (PARAMS * 0, TOKENS, LAWS[0](PARAMS, TOKENS), "params must be finite and > 0"),
    ],
)
def test_bad_runs_are_refused_by_name(params, tokens, losses, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_loss_law(params, tokens, losses)


def test_bootstrap_refuses_groups_that_do_not_fit() -> None:
    losses = LAWS[0](PARAMS, TOKENS)
    with pytest.raises(ValueError, match="groups must name"):
        bootstrap_loss_laws(PARAMS, TOKENS, losses, GROUPS[:-1])
    with pytest.raises(ValueError, match="at least two groups"):
        bootstrap_loss_laws(PARAMS, TOKENS, losses, torch.zeros_like(GROUPS))
    with pytest.raises(ValueError, match="flops must be > 0"):
        LAWS[0].optimal_split(0.0)
