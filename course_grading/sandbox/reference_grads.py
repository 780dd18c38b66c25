"""Gradients through the correct versions of other parts, which run in the grader, not the student's process.

While a part is graded, the correct versions of the parts it uses replace the student's (``references``).
In the student's process they are proxies that send each call to the grader (see
:mod:`course_grading.sandbox.student_server`), so the tensors they return are new leaves: without this
module no gradient would flow back through them, and a right answer that differentiates through a
reference (a7's attention rotates its queries with the correct ``apply_rotary``) would lose its gradient
checks. :class:`RemoteCall` joins the two processes' graphs: its forward asks the grader for the value, its
backward asks the grader for the vector-Jacobian product, which :func:`reference_backward` computes there.

Both sides name the tensors of a call by their place in :func:`tensor_leaves`' order, which
:func:`course_grading.sandbox.calls.wire` and ``unwire`` keep (they keep tuples, lists and dicts in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch
from torch import Tensor

__all__ = ["RemoteCall", "grad_positions", "reference_backward", "tensor_leaves", "with_leaves"]

MAX_DEPTH = 4  # as deep as the wire carries containers


def tensor_leaves(value: Any, depth: int = 0) -> list[Tensor]:
    """The tensors in ``value`` (nested tuples, lists and dicts), depth first, in order."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)) and depth < MAX_DEPTH:
        return [leaf for item in value for leaf in tensor_leaves(item, depth + 1)]
    if isinstance(value, dict) and depth < MAX_DEPTH:
        return [leaf for item in value.values() for leaf in tensor_leaves(item, depth + 1)]
    return []


def with_leaves(value: Any, leaves: Sequence[Tensor]) -> Any:
    """``value`` with its tensors (in :func:`tensor_leaves`' order) replaced by ``leaves``."""
    supply = iter(leaves)
    rebuilt = _rebuild(value, supply, 0)
    if next(supply, None) is not None:
        raise ValueError("more tensors given than the value holds")
    return rebuilt


def _rebuild(value: Any, supply: Iterator[Tensor], depth: int) -> Any:
    if isinstance(value, Tensor):
        return next(supply)
    if isinstance(value, (tuple, list)) and depth < MAX_DEPTH:
        return type(value)(_rebuild(item, supply, depth + 1) for item in value)
    if isinstance(value, dict) and depth < MAX_DEPTH:
        return {key: _rebuild(item, supply, depth + 1) for key, item in value.items()}
    return value


def grad_positions(args: Any) -> list[int]:
    """Where, among ``args``' tensors, a gradient is asked for (floating tensors that require one)."""
    return (
        [i for i, leaf in enumerate(tensor_leaves(args)) if leaf.requires_grad and leaf.is_floating_point()]
        if torch.is_grad_enabled()
        else []
    )


class RemoteCall(torch.autograd.Function):
    """One call of a reference that runs elsewhere, as one node of the student's autograd graph.

    ``apply(forward, backward, *tensors)``: ``forward()`` returns the call's value; ``tensors`` are the
    call's arguments that require a gradient, and ``backward(grads)``, given one gradient per tensor of the
    value (in :func:`tensor_leaves`' order), returns one per tensor of ``tensors`` (``None`` where none
    flows). The value's tensors come out of ``apply`` as a tuple; :func:`with_leaves` puts them back.
    """

    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any, forward: Callable[[], Any], backward: Callable[[list[Tensor]], list[Tensor | None]], *tensors: Tensor
    ) -> tuple[Any, ...]:
        value = forward()
        leaves = tensor_leaves(value)
        ctx.backward_call = backward
        ctx.mark_non_differentiable(*[leaf for leaf in leaves if not leaf.is_floating_point()])
        return tuple(leaves)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple[Tensor | None, ...]:  # type: ignore[override]
        return (None, None, *ctx.backward_call(list(grads)))


def reference_backward(
    function: Callable[..., Any], args: Any, kwargs: Any, positions: Sequence[int], grad_outputs: Sequence[Any]
) -> list[Tensor | None]:
    """The gradients, with respect to the tensors of ``(args, kwargs)`` at ``positions``, of the sum over the
    value's tensors of ``<value tensor, grad output>``: the vector-Jacobian product of one call."""
    leaves = tensor_leaves((args, kwargs))
    if any(not 0 <= p < len(leaves) or not leaves[p].is_floating_point() for p in positions):
        raise ValueError(f"no floating tensor at {list(positions)} of {len(leaves)} tensor arguments")
    inputs = {p: leaves[p].detach().requires_grad_(True) for p in positions}
    args, kwargs = with_leaves((args, kwargs), [inputs.get(i, leaf) for i, leaf in enumerate(leaves)])
    with torch.enable_grad():
        value = tensor_leaves(function(*args, **kwargs))
    if len(grad_outputs) != len(value):
        raise ValueError(f"{len(grad_outputs)} output gradients for a value of {len(value)} tensors")
    if any(isinstance(grad, Tensor) and grad.shape != out.shape for out, grad in zip(value, grad_outputs)):
        raise ValueError("an output gradient's shape differs from its output's")
    pairs = [(out, grad) for out, grad in zip(value, grad_outputs) if isinstance(grad, Tensor) and out.requires_grad]
    if not pairs:
        return [None] * len(positions)
    found = torch.autograd.grad(
        [out for out, _ in pairs],
        list(inputs.values()),
        [grad.to(out.dtype) for out, grad in pairs],
        allow_unused=True,
    )
    return list(found)
