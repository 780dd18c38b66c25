"""Scaling laws: the loss of a model of N parameters trained on D tokens, and what a compute budget buys.

Hoffmann et al. (2022) fitted the final validation loss of hundreds of runs with

    L(N, D) = E + A / N**alpha + B / D**beta,

where ``E`` is the loss no model reaches (the text's own entropy under this kind of model), and the two
other terms are what a finite model and a finite amount of data each add. With training compute
``C = 6 N D`` FLOPs, minimising ``L`` along ``N D = C / 6`` gives the compute-optimal size

    N_opt(C) = G (C / 6) ** (beta / (alpha + beta)),  G = (alpha A / (beta B)) ** (1 / (alpha + beta)),

and ``D_opt = C / (6 N_opt)``: when ``alpha`` and ``beta`` are equal, parameters and tokens grow alike.

:func:`fit_scaling_law` fits the law by least squares. For fixed exponents the law is linear in ``E``,
``A`` and ``B``, so the fit solves that linear problem (its three normal equations) for every pair of
exponents on a grid and keeps the pair with the smallest squared error whose ``E``, ``A`` and ``B`` are all
non-negative: no starting point to choose and no local minimum to fall into, at the price of exponents
known to the grid's step.
:func:`bootstrap_scaling_laws` refits it on runs drawn with replacement, for intervals.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

__all__ = ["EXPONENT_GRID", "ScalingLaw", "bootstrap_scaling_laws", "fit_scaling_law"]

# The exponents the fit considers: 0.02 to 1.5 in steps of 0.01 (Hoffmann et al.'s lie near 0.3).
EXPONENT_GRID = torch.arange(2, 151, dtype=torch.float64) / 100


@dataclass(frozen=True)
class ScalingLaw:
    """``L(N, D) = E + A / N**alpha + B / D**beta``; ``rms`` is the fit's root-mean-square residual (nats)."""

    E: float
    A: float
    B: float
    alpha: float
    beta: float
    rms: float = 0.0

    def loss(self, params: Tensor, tokens: Tensor) -> Tensor:
        """The law's loss for ``params (R,)`` parameters trained on ``tokens (R,)`` tokens -> ``(R,)``."""
        n, d = params.double(), tokens.double()
        return self.E + self.A * n ** (-self.alpha) + self.B * d ** (-self.beta)

    @property
    def size_exponent(self) -> float:
        """``a`` in ``N_opt ∝ C**a``: ``beta / (alpha + beta)`` (Hoffmann et al.'s three methods: 0.46 to 0.50)."""
        return self.beta / (self.alpha + self.beta)

    def compute_optimal(self, flops: float) -> tuple[float, float]:
        """``(N_opt, D_opt)``: the size and tokens of least loss for ``flops = 6 N D`` training FLOPs."""
        if not flops > 0:
            raise ValueError(f"flops must be positive, got {flops}")
        if self.A <= 0 or self.B <= 0:
            raise ValueError(f"the law has no compute-optimal size when A or B is 0 (A={self.A}, B={self.B})")
        g = (self.alpha * self.A / (self.beta * self.B)) ** (1 / (self.alpha + self.beta))
        n_opt = g * (flops / 6) ** self.size_exponent
        return n_opt, flops / (6 * n_opt)


def _check_runs(params: Tensor, tokens: Tensor, losses: Tensor) -> None:
    shapes = {tuple(params.shape), tuple(tokens.shape), tuple(losses.shape)}
    if len(shapes) != 1 or params.dim() != 1:
        raise ValueError(
            "params, tokens and losses must be 1-D tensors of the same length (one entry per run), got shapes "
            f"{tuple(params.shape)}, {tuple(tokens.shape)} and {tuple(losses.shape)}"
        )
    if len(params) < 4:
        raise ValueError(f"a law of five numbers needs at least 4 runs to fit, got {len(params)}")
    if not (params > 0).all() or not (tokens > 0).all() or not torch.isfinite(losses).all():
        raise ValueError("every run needs a positive parameter and token count and a finite loss")


def _det3(m: Tensor) -> Tensor:
    """The determinants of ``m (..., 3, 3)`` -> ``(...)``, written out: elementwise over any batch."""
    return (
        m[..., 0, 0] * (m[..., 1, 1] * m[..., 2, 2] - m[..., 1, 2] * m[..., 2, 1])
        - m[..., 0, 1] * (m[..., 1, 0] * m[..., 2, 2] - m[..., 1, 2] * m[..., 2, 0])
        + m[..., 0, 2] * (m[..., 1, 0] * m[..., 2, 1] - m[..., 1, 1] * m[..., 2, 0])
    )


def _solve3(m: Tensor, b: Tensor) -> Tensor:
    """``x (..., 3)`` with ``m (..., 3, 3) @ x = b (..., 3)``, by Cramer's rule (inf or nan where ``m`` is
    singular): a grid of tens of thousands of small systems at the cost of a few elementwise products."""
    columns = [torch.where(torch.arange(3) == c, b[..., :, None], m) for c in range(3)]  # column c replaced by b
    return torch.stack([_det3(column) for column in columns], dim=-1) / _det3(m)[..., None]


def _fit(params: Tensor, tokens: Tensor, losses: Tensor, weights: Tensor, exponents: Tensor) -> ScalingLaw:
    """The weighted least-squares law: run r counts ``weights[r]`` times (a bootstrap draw's multiplicities)."""
    n, d, y, w = params.double(), tokens.double(), losses.double(), weights.double()
    k = len(exponents)
    powers_n = n ** -exponents.double()[:, None]  # (K, R): N_r ** -alpha_i
    powers_d = d ** -exponents.double()[:, None]  # (K, R): D_r ** -beta_j
    ones = torch.ones(k, k, dtype=torch.float64)
    # the normal equations of every pair (alpha_i, beta_j) at once: weighted sums of the columns' products
    s_n, s_d = (powers_n @ w)[:, None] * ones, (powers_d @ w)[None, :] * ones  # (K, K)
    gram = torch.stack(
        [
            torch.stack([w.sum() * ones, s_n, s_d], dim=-1),
            torch.stack([s_n, (powers_n.pow(2) @ w)[:, None] * ones, (powers_n * w) @ powers_d.T], dim=-1),
            torch.stack([s_d, (powers_n * w) @ powers_d.T, (powers_d.pow(2) @ w)[None, :] * ones], dim=-1),
        ],
        dim=-2,
    )  # (K, K, 3, 3)
    rhs = torch.stack(
        [(w * y).sum() * ones, (powers_n @ (w * y))[:, None] * ones, (powers_d @ (w * y))[None, :] * ones], dim=-1
    )  # (K, K, 3)
    scale = gram.diagonal(dim1=-2, dim2=-1).sqrt()  # (K, K, 3): solve the scaled system, better conditioned
    coef = _solve3(gram / (scale[..., :, None] * scale[..., None, :]), rhs / scale) / scale
    return _best(coef, powers_n, powers_d, y, w, exponents)


def _fit_above(floor: float, params: Tensor, tokens: Tensor, losses: Tensor, exponents: Tensor) -> ScalingLaw:
    """The least-squares law with ``E`` held at ``floor``: for each pair of exponents, ``A`` and ``B`` from the two
    normal equations of ``losses - floor``, solved in closed form for every pair at once."""
    n, d, y = params.double(), tokens.double(), losses.double() - floor
    powers_n = n ** -exponents.double()[:, None]  # (K, R)
    powers_d = d ** -exponents.double()[:, None]  # (K, R)
    nn_, dd, nd = powers_n.pow(2).sum(-1)[:, None], powers_d.pow(2).sum(-1)[None, :], powers_n @ powers_d.T  # (K, K)
    ny, dy = (powers_n @ y)[:, None], (powers_d @ y)[None, :]  # (K, 1), (1, K)
    det = nn_ * dd - nd.pow(2)
    a, b = (ny * dd - dy * nd) / det, (dy * nn_ - ny * nd) / det  # (K, K) each
    coef = torch.stack([torch.full_like(a, floor), a, b], dim=-1)  # (K, K, 3)
    return _best(coef, powers_n, powers_d, losses.double(), torch.ones(len(params), dtype=torch.float64), exponents)


def _best(coef: Tensor, powers_n: Tensor, powers_d: Tensor, y: Tensor, w: Tensor, exponents: Tensor) -> ScalingLaw:
    """Of the laws ``coef (K, K, 3)`` (E, A, B for each pair of exponents), the one of least weighted squared error
    whose E, A and B are all non-negative; a singular pair's coefficients are still a candidate."""
    fitted = coef[..., :1] + coef[..., 1:2] * powers_n[:, None, :] + coef[..., 2:] * powers_d[None, :, :]  # (K, K, R)
    squared = (w * (fitted - y).pow(2)).sum(dim=-1)  # (K, K)
    squared = torch.where((coef >= 0).all(dim=-1) & torch.isfinite(squared), squared, torch.inf)
    best = int(squared.argmin())
    if not torch.isfinite(squared.flatten()[best]):
        raise ValueError("no pair of exponents on the grid fits these runs with E, A and B all non-negative")
    i, j = divmod(best, len(exponents))
    e, a, b = coef[i, j].tolist()
    rms = (float(squared[i, j]) / float(w.sum())) ** 0.5
    return ScalingLaw(e, a, b, float(exponents[i]), float(exponents[j]), rms)


def fit_scaling_law(
    params: Tensor, tokens: Tensor, losses: Tensor, exponents: Tensor = EXPONENT_GRID, E: float | None = None
) -> ScalingLaw:
    """The least-squares law through runs of ``params (R,)`` parameters on ``tokens (R,)`` tokens that
    reached ``losses (R,)``, with ``alpha`` and ``beta`` taken from ``exponents (K,)`` and ``E, A, B >= 0``;
    with ``E`` given, the best law whose floor is ``E`` (to see how much the fit cares where the floor is).

    Raises ``ValueError`` if no pair of exponents gives non-negative ``E``, ``A`` and ``B``, or ``E`` is negative.
    """
    _check_runs(params, tokens, losses)
    if E is None:
        return _fit(params, tokens, losses, torch.ones(len(params)), exponents)
    if not E >= 0:
        raise ValueError(f"E, the loss no model goes below, must be non-negative, got {E}")
    return _fit_above(E, params, tokens, losses, exponents)


def bootstrap_scaling_laws(
    params: Tensor,
    tokens: Tensor,
    losses: Tensor,
    resamples: int = 200,
    seed: int = 0,
    exponents: Tensor = EXPONENT_GRID,
) -> list[ScalingLaw]:
    """The law refitted on ``resamples`` sets of runs drawn with replacement from ``(R,)`` runs (``seed``
    fixes the draws); a draw that no pair of exponents fits with non-negative terms is left out. Their
    percentiles give intervals for each fitted number."""
    _check_runs(params, tokens, losses)
    g = torch.Generator().manual_seed(seed)
    laws = []
    for _ in range(resamples):
        counts = torch.bincount(torch.randint(len(params), (len(params),), generator=g), minlength=len(params))
        if int((counts > 0).sum()) < 4:
            continue  # fewer than four distinct runs cannot fix five numbers
        try:
            laws.append(_fit(params, tokens, losses, counts, exponents))
        except ValueError:
            continue
    return laws
