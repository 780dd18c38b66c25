"""A scaling law fitted to measured losses: Chinchilla's third approach, and the split of compute it implies.

Hoffmann et al. (2022) model the loss of a language model with ``N`` parameters trained on ``D`` tokens as

    L(N, D) = E + A / N**alpha + B / D**beta,

an irreducible loss ``E`` (the text's own entropy) plus one term that more parameters remove and one that
more tokens remove. Their third approach fits the five numbers to the final losses of many runs by
minimising the Huber loss (delta 1e-3) between the logarithms of the predicted and the measured losses,
written as ``log L = logsumexp(a - alpha log N, b - beta log D, e)`` with ``A = exp(a)``, ``B = exp(b)``,
``E = exp(e)``, with L-BFGS started from every point of a grid; the best fit is kept. :func:`fit_loss_law`
does this, with the grid's starts optimised together first (Adam treats each start as its own problem)
and the best refined by L-BFGS. :func:`bootstrap_loss_laws` refits resampled runs for intervals.

A run of ``6 N D`` FLOPs (forward and backward, section A.8) splits its compute best at
``N_opt = G (C / 6)**(beta / (alpha + beta))`` and ``D_opt = (C / 6) / N_opt`` with
``G = (alpha A / (beta B))**(1 / (alpha + beta))``: :meth:`LossLaw.optimal_split`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

__all__ = ["BESIROGLU", "CHINCHILLA", "LossLaw", "bootstrap_loss_laws", "fit_loss_law"]


@dataclass(frozen=True)
class LossLaw:
    """``L(N, D) = E + A / N**alpha + B / D**beta``: loss in nats per token against parameters and tokens."""

    E: float
    A: float
    alpha: float
    B: float
    beta: float

    def __call__(self, params: Tensor, tokens: Tensor) -> Tensor:
        """The predicted loss at ``params (...)`` and ``tokens (...)`` (broadcast together)."""
        params, tokens = torch.as_tensor(params, dtype=torch.float64), torch.as_tensor(tokens, dtype=torch.float64)
        return self.E + self.A * params ** (-self.alpha) + self.B * tokens ** (-self.beta)

    @property
    def params_exponent(self) -> float:
        """``a`` in ``N_opt ~ C**a``: how the compute-optimal size grows with compute (``1 - a`` for tokens)."""
        return self.beta / (self.alpha + self.beta)

    def optimal_split(self, flops: float) -> tuple[float, float]:
        """The parameters and tokens that minimise ``L`` among runs of ``flops = 6 N D``."""
        if not flops > 0:
            raise ValueError(f"flops must be > 0, got {flops}")
        g = (self.alpha * self.A / (self.beta * self.B)) ** (1 / (self.alpha + self.beta))
        params = g * (flops / 6) ** self.params_exponent
        return params, flops / 6 / params


# Hoffmann et al.'s fit (their equation 10), and Besiroglu et al.'s refit of the same data read off their figure
CHINCHILLA = LossLaw(E=1.69, A=406.4, alpha=0.34, B=410.7, beta=0.28)
BESIROGLU = LossLaw(E=1.82, A=482.01, alpha=0.3478, B=2085.43, beta=0.3658)

# the starts: alpha, beta, e, a, b (3 * 3 * 3 * 4 * 4 = 432; Hoffmann et al. start from 4,500, a finer grid
# over the same ranges, for L-BFGS alone)
_GRID = (
    (0.25, 0.75, 1.5),
    (0.25, 0.75, 1.5),
    (-1.0, 0.0, 1.0),
    (0.0, 5.0, 10.0, 20.0),
    (0.0, 5.0, 10.0, 20.0),
)
_REFINED = 4  # the best starts after Adam that L-BFGS refines
_FLOORS = (-1.0, 0.0, 1.0)  # log E of the bootstrap's extra starts


def _check(params: Tensor, tokens: Tensor, losses: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    params, tokens, losses = (torch.as_tensor(x, dtype=torch.float64).flatten() for x in (params, tokens, losses))
    if not params.shape == tokens.shape == losses.shape:
        raise ValueError(
            f"params, tokens and losses must hold one number per run, got {len(params)}, {len(tokens)}, {len(losses)}"
        )
    if len(losses) < 5:
        raise ValueError(f"five numbers need at least five runs, got {len(losses)}")
    for name, x in (("params", params), ("tokens", tokens), ("losses", losses)):
        if not (torch.isfinite(x).all() and (x > 0).all()):
            raise ValueError(f"{name} must be finite and > 0")
    return params.log(), tokens.log(), losses.log()


def _objective(theta: Tensor, log_n: Tensor, log_d: Tensor, log_l: Tensor, delta: float) -> Tensor:
    """Huber loss of each start's ``theta (S, 5)`` = (alpha, beta, e, a, b) over the runs -> ``(S,)``."""
    alpha, beta, e, a, b = theta.unbind(-1)  # each (S,)
    terms = torch.stack(
        [a[:, None] - alpha[:, None] * log_n, b[:, None] - beta[:, None] * log_d, e[:, None].expand(-1, len(log_n))]
    )  # (3, S, R)
    residual = torch.logsumexp(terms, dim=0) - log_l  # (S, R)
    return torch.nn.functional.huber_loss(residual, torch.zeros_like(residual), delta=delta, reduction="none").sum(-1)


def _as_law(theta: Tensor) -> LossLaw:
    alpha, beta, e, a, b = theta.tolist()
    return LossLaw(E=math.exp(e), A=math.exp(a), alpha=alpha, B=math.exp(b), beta=beta)


def _refine(theta: Tensor, log_n: Tensor, log_d: Tensor, log_l: Tensor, delta: float) -> Tensor:
    """L-BFGS from one start ``theta (5,)``."""
    theta = theta.detach().clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS(
        [theta], max_iter=300, tolerance_grad=1e-12, tolerance_change=1e-15, line_search_fn="strong_wolfe"
    )

    def closure() -> Tensor:
        optimizer.zero_grad()
        loss = _objective(theta[None], log_n, log_d, log_l, delta).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    return theta.detach()


def fit_loss_law(params: Tensor, tokens: Tensor, losses: Tensor, delta: float = 1e-3, grid_steps: int = 300) -> LossLaw:
    """The law fitted to ``losses (R,)`` of runs with ``params (R,)`` parameters trained on ``tokens (R,)``
    tokens, as Hoffmann et al. fit theirs (see the module). Deterministic: the same runs give the same law."""
    log_n, log_d, log_l = _check(params, tokens, losses)
    starts = torch.cartesian_prod(*(torch.tensor(values, dtype=torch.float64) for values in _GRID))  # (432, 5)
    theta = starts.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([theta], lr=0.05)
    for _ in range(grid_steps):  # every start on its own: Adam's update of a row reads only that row's gradient
        optimizer.zero_grad()
        _objective(theta, log_n, log_d, log_l, delta).sum().backward()
        optimizer.step()
    with torch.no_grad():
        best = theta[_objective(theta, log_n, log_d, log_l, delta).argsort()[:_REFINED]]  # (_REFINED, 5)
    refined = torch.stack([_refine(start, log_n, log_d, log_l, delta) for start in best])
    return _as_law(refined[_objective(refined, log_n, log_d, log_l, delta).argmin()])


def bootstrap_loss_laws(
    params: Tensor,
    tokens: Tensor,
    losses: Tensor,
    groups: Tensor,
    resamples: int = 200,
    seed: int = 0,
    delta: float = 1e-3,
    whole: LossLaw | None = None,
) -> list[LossLaw]:
    """Laws refitted to ``resamples`` resamples of the runs: ``groups (R,)`` names each run's group (the
    training run a checkpoint came from, say, whose points are not independent), and each resample draws
    the groups with replacement and keeps all their points. Each refit starts from ``whole``, the fit to all
    runs (:func:`fit_loss_law`'s, made here if not given), and from it with ``E`` at 0.37, 1 and 2.7; the best
    is kept."""
    log_n, log_d, log_l = _check(params, tokens, losses)
    groups = torch.as_tensor(groups).flatten()
    if groups.shape != log_l.shape:
        raise ValueError(f"groups must name the group of each of the {len(log_l)} runs, got {len(groups)}")
    names = groups.unique()
    if len(names) < 2:
        raise ValueError("a bootstrap over groups needs at least two groups")
    whole = whole or fit_loss_law(params, tokens, losses, delta)
    start = torch.tensor([whole.alpha, whole.beta, math.log(whole.E), math.log(whole.A), math.log(whole.B)])
    # the fit to all runs, and the same with the floor moved: a floor near 0 barely moves under L-BFGS alone
    starts = start.double().repeat(1 + len(_FLOORS), 1)  # (4, 5)
    starts[1:, 2] = torch.tensor(_FLOORS, dtype=torch.float64)
    g = torch.Generator().manual_seed(seed)
    laws = []
    for _ in range(resamples):
        drawn = names[torch.randint(len(names), (len(names),), generator=g)]  # (G,) with repeats
        rows = torch.cat([(groups == name).nonzero().flatten() for name in drawn])
        fits = torch.stack([_refine(s, log_n[rows], log_d[rows], log_l[rows], delta) for s in starts])
        laws.append(_as_law(fits[_objective(fits, log_n[rows], log_d[rows], log_l[rows], delta).argmin()]))
    return laws
