"""course_lib.seeding: COURSE_SEED_OFFSET moves every seed a chapter uses, and nothing when unset."""

from __future__ import annotations

import random

import pytest
import torch

from course_lib.seeding import SEED_OFFSET_VARIABLE, generator, seed_offset, set_seed, shifted


def test_without_the_variable_seeds_are_the_chapters_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SEED_OFFSET_VARIABLE, raising=False)
    assert seed_offset() == 0 and shifted(7) == 7
    assert torch.equal(torch.rand(3, generator=generator(7)), torch.rand(3, generator=torch.Generator().manual_seed(7)))


def test_the_offset_moves_every_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SEED_OFFSET_VARIABLE, "3")
    assert shifted(7) == 10
    assert torch.equal(
        torch.rand(3, generator=generator(7)), torch.rand(3, generator=torch.Generator().manual_seed(10))
    )
    assert set_seed(7) == 10
    drawn_torch, drawn_python = torch.rand(3), random.random()
    torch.manual_seed(10)
    random.seed(10)
    assert torch.equal(drawn_torch, torch.rand(3)) and drawn_python == random.random()
    torch.manual_seed(7)
    assert not torch.equal(drawn_torch, torch.rand(3))


@pytest.mark.parametrize("value", ["one", "1.5", "0x2"])
def test_a_value_that_is_no_integer_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(SEED_OFFSET_VARIABLE, value)
    with pytest.raises(ValueError, match=SEED_OFFSET_VARIABLE):
        shifted(0)
