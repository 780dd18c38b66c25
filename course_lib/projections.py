"""Several linear projections of one input made as one matrix product (attention's queries, keys and
values), and the protocol a wrapper of a linear layer follows to take part (LoRA's :class:`LoRALinear`).

A wrapper that adds something to a plain ``nn.Linear`` (fine-tuning's LoRA: a ``base`` layer and an
``update(x)`` method) lets :func:`fused_projections` make the base products together and add each
update after: the same numbers as calling the modules one by one, with fewer, larger products.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = ["AddsToLinear", "fused_projections"]


@runtime_checkable
class AddsToLinear(Protocol):
    """A module computing ``base(x) + update(x)`` for a plain ``nn.Linear`` ``base``; ``update`` returns
    None when it adds nothing (a merged or disabled LoRA layer)."""

    base: nn.Linear

    def update(self, x: Tensor) -> Tensor | None: ...


def fused_projections(projections: Sequence[nn.Module], x: Tensor) -> tuple[Tensor, ...]:
    """``projection(x)`` for each of ``projections``, ``(..., out_i)``, as one product ``(..., sum out_i)``
    split: the same numbers as the calls one by one. Each projection is a plain ``nn.Linear`` or an
    :class:`AddsToLinear` wrapper of one; if any is of another kind, or has hooks (which must see the
    call), every projection is called as the module it is."""
    bases = [_base_linear(m) for m in projections]
    if any(b is None for b in bases):
        return tuple(m(x) for m in projections)
    linears = [b for b in bases if b is not None]
    weight = torch.cat([b.weight for b in linears])  # (sum out_i, in)
    bias = None
    if any(b.bias is not None for b in linears):  # a layer without a bias adds zeros
        bias = torch.cat([b.weight.new_zeros(b.out_features) if b.bias is None else b.bias for b in linears])
    outputs = F.linear(x, weight, bias).split([b.out_features for b in linears], dim=-1)  # each (..., out_i)
    fused = []
    for module, out in zip(projections, outputs, strict=True):
        update = module.update(x) if isinstance(module, AddsToLinear) else None
        fused.append(out if update is None else out + update)
    return tuple(fused)


def _base_linear(module: nn.Module) -> nn.Linear | None:
    """The plain ``nn.Linear`` that makes ``module``'s main product: the module itself, or the ``base`` of
    an :class:`AddsToLinear` wrapper; None for anything else, or where a hook must see the call."""

    def hooked(m: nn.Module) -> bool:
        return bool(m._forward_hooks or m._forward_pre_hooks)

    if type(module) is nn.Linear and not hooked(module):
        return module
    if (
        isinstance(module, AddsToLinear)
        and type(module.base) is nn.Linear
        and not hooked(module)
        and not hooked(module.base)
    ):
        return module.base
    return None
