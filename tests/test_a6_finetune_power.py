"""The power of a6's one statistical check, the law of an initialisation (A in part 1, down in part 5):
correct draws always pass it, and each plausible wrong law fails it at the sizes the checks use.

The probabilities behind it (a correct answer fails a law test with at most 1e-10, and a run with at
most 1.3e-9; each wrong law's chance of passing a run) are in ``a6_finetune_checks._expect_uniform``'s
docstring; here the same verdicts are checked on many draws, at the cases' shapes and at the bigger
draw every check makes beside them (``LAW_DRAW`` values), where laws with uniform's mean and mean
square but another shape fail too.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import pytest
import torch
from torch import Tensor, nn

from assignment_support import GRADING

sys.path.insert(0, str(GRADING))
import a6_finetune_checks as a6  # noqa: E402

from gradinglib import CheckFailed  # noqa: E402

DRAWS = 200
# (rows, in_features): A's shapes in check_lora_linear's fixed cases, and down's in check_adapter's.
A_SHAPES = [(4, 37), (1, 30), (8, 64), (3, 24), (16, 600), (a6.LAW_DRAW // 37, 37)]
DOWN_SHAPES = [(3, 12), (8, 32), (9, 5), (32, 64), (a6.LAW_DRAW // 32, 32)]


def kaiming(shape: tuple[int, int]) -> Tensor:
    """What the rule asks: kaiming_uniform_(a=sqrt(5)), as nn.Linear initialises its weight."""
    return nn.init.kaiming_uniform_(torch.empty(shape), a=math.sqrt(5))


def passes(values: Tensor, n_in: int) -> bool:
    try:
        a6._expect_uniform(values, 1 / math.sqrt(n_in), "values", "the rule", "a case")
    except CheckFailed:
        return False
    return True


@pytest.mark.parametrize("shape", A_SHAPES + DOWN_SHAPES, ids=str)
def test_correct_initialisations_always_pass(shape: tuple[int, int]) -> None:
    torch.manual_seed(0)
    for _ in range(DRAWS):
        assert passes(kaiming(shape), shape[1])
        assert passes(nn.Linear(shape[1], shape[0]).weight.detach(), shape[1])
        assert passes(nn.Linear(shape[1], shape[0]).bias.detach(), shape[1])


WRONG_LAWS: dict[str, Callable[[tuple[int, int]], Tensor]] = {
    "normal, std 0.02 (BERT's)": lambda s: torch.randn(s) * 0.02,
    "normal, std 1e-3 (Houlsby's)": lambda s: torch.randn(s) * 1e-3,
    "normal of the right variance": lambda s: torch.randn(s) / math.sqrt(3 * s[1]),
    "kaiming_uniform_ with a = 0": lambda s: nn.init.kaiming_uniform_(torch.empty(s)),
    "xavier_uniform_": lambda s: nn.init.xavier_uniform_(torch.empty(s)),
    "uniform between 0 and the bound": lambda s: torch.rand(s) / math.sqrt(s[1]),
    "uniform within half the bound": lambda s: (2 * torch.rand(s) - 1) / (2 * math.sqrt(s[1])),
    "the bound from the rows (fan-out)": lambda s: (2 * torch.rand(s) - 1) / math.sqrt(s[0]),
    # uniform's mean and mean square, another law: moment tests pass them, the law test does not
    "two points at +-bound/sqrt(3)": lambda s: (2 * torch.randint(0, 2, s) - 1) / math.sqrt(3 * s[1]),
    "uniform within half the bound, else the ends": lambda s: (
        torch.where(torch.rand(s) < 8 / 11, (2 * torch.rand(s) - 1) / 2, torch.sign(torch.rand(s) - 0.5))
        / math.sqrt(s[1])
    ),
}


@pytest.mark.parametrize("law", WRONG_LAWS)
@pytest.mark.parametrize("shapes", [A_SHAPES, DOWN_SHAPES], ids=["A", "down"])
def test_each_plausible_wrong_law_fails_some_case(law: str, shapes: list[tuple[int, int]]) -> None:
    """As a check runs every case, a wrong law loses the part when any case fails it."""
    torch.manual_seed(1)
    for _ in range(DRAWS):
        assert not all(passes(WRONG_LAWS[law](shape), shape[1]) for shape in shapes), law
