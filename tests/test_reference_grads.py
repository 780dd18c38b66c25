"""Gradients through the correct versions of other parts, which run in the grader's process.

The student's process reaches a reference through a proxy (``student_server.proxies``) that the grader
answers (``calls._callback``); here the two ends talk over real pipes in one process, a thread standing in
for the grader, so that the frames, the wire and the autograd bridge are the ones ``course grade`` runs.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import torch

from course_grading.sandbox import student_server
from course_grading.sandbox.calls import _callback, receive_frame, send_frame
from course_grading.sandbox.reference_grads import reference_backward, tensor_leaves, with_leaves


def rotate_and_cache(x, cache, scale=2.0):  # noqa: ANN001, ANN201 (a reference, written as a student would)
    """A value with nested tensors, one of them an integer count (never differentiable)."""
    k, v = cache
    out = torch.cat([k, x.sin() * scale], dim=-2)
    return out.tanh() @ v.T, (out, torch.tensor(out.shape[-2])), {"norm": (x * v.sum()).norm()}


def inputs() -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 4, generator=g, dtype=torch.float64, requires_grad=True)
    k = torch.randn(2, 4, generator=g, dtype=torch.float64, requires_grad=True)
    v = torch.randn(5, 4, generator=g, dtype=torch.float64)
    return x, (k, v)


def loss_of(value: Any) -> torch.Tensor:
    out, (cached, count), extra = value
    return (out**2).sum() + cached.sum() * count + 3 * extra["norm"]


@contextmanager
def grader(references: dict[str, Callable[..., Any]]) -> Iterator[Callable[[str], Callable[..., Any]]]:
    """Proxies in this thread, answered by a thread that runs ``references`` as the grader does."""
    to_grader, from_student = os.pipe()
    to_student, from_grader = os.pipe()

    def serve() -> None:
        while True:
            try:
                request = receive_frame(to_grader)
            except EOFError:
                return
            send_frame(from_grader, _callback(references, request))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        made = student_server.proxies(sorted(references), to_student, from_student)
        yield lambda name: made[name]
    finally:
        os.close(from_student)
        thread.join(timeout=10)
        for fd in (to_grader, to_student, from_grader):
            os.close(fd)


def local_grads() -> tuple[torch.Tensor, torch.Tensor]:
    x, cache = inputs()
    loss_of(rotate_and_cache(x, cache)).backward()
    assert x.grad is not None and cache[0].grad is not None
    return x.grad, cache[0].grad


def test_a_proxy_gives_the_references_value_and_gradients() -> None:
    x, cache = inputs()
    with grader({"rotate_and_cache": rotate_and_cache}) as proxy:
        value = proxy("rotate_and_cache")(x, cache, scale=2.0)
        loss_of(value).backward()
    expected = rotate_and_cache(*inputs())
    assert all(torch.equal(a, b) for a, b in zip(tensor_leaves(value), tensor_leaves(expected)))
    assert value[1][1].dtype == torch.int64 and not value[1][1].requires_grad
    want_x, want_k = local_grads()
    assert x.grad is not None and cache[0].grad is not None
    torch.testing.assert_close(x.grad, want_x)
    torch.testing.assert_close(cache[0].grad, want_k)


def test_without_the_bridge_no_gradient_reaches_the_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a proxy that only asks for values (what the grader did before) cuts the graph, so the
    right answers of a part differentiated through a reference failed their gradient checks."""
    monkeypatch.setattr(student_server, "grad_positions", lambda args: [])
    x, cache = inputs()
    with grader({"rotate_and_cache": rotate_and_cache}) as proxy:
        value = proxy("rotate_and_cache")(x, cache)
    assert not value[0].requires_grad and x.grad is None


def test_under_no_grad_a_proxy_asks_for_the_value_only() -> None:
    asked: list[dict[str, Any]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return rotate_and_cache(*args, **kwargs)

    x, cache = inputs()
    with grader({"rotate_and_cache": counted}) as proxy, torch.no_grad():
        value = proxy("rotate_and_cache")(x, cache)
    assert len(asked) == 1 and not value[0].requires_grad


def test_reference_backward_is_the_vector_jacobian_product() -> None:
    x, cache = inputs()
    value = rotate_and_cache(x, cache)
    grads = [torch.randn_like(t, dtype=torch.float64) if t.is_floating_point() else None for t in tensor_leaves(value)]
    positions = [0, 1]  # x and the cached keys among the tensors of ((x, (k, v)), {})
    found = reference_backward(rotate_and_cache, (x.detach(), tuple(c.detach() for c in cache)), {}, positions, grads)
    pairs = [(t, g) for t, g in zip(tensor_leaves(value), grads) if g is not None]
    want = torch.autograd.grad([t for t, _ in pairs], [x, cache[0]], [g for _, g in pairs])
    for got, expected in zip(found, want):
        assert got is not None
        torch.testing.assert_close(got, expected)


@pytest.mark.parametrize(
    "case, message",
    [
        ("past the last tensor", "no floating tensor"),
        ("an integer tensor", "no floating tensor"),
        ("too few output gradients", "output gradients"),
        ("output gradients of the wrong shape", "shape differs"),
    ],
)
def test_reference_backward_refuses_what_a_hostile_process_may_send(case: str, message: str) -> None:
    x, (k, v) = inputs()
    args: tuple[Any, ...] = (x.detach(), (k.detach(), v))
    value = tensor_leaves(rotate_and_cache(*args))
    grads: list[Any] = [torch.ones_like(t, dtype=torch.float64) for t in value]
    positions = [0]
    if case == "past the last tensor":
        positions = [7]
    elif case == "an integer tensor":
        args = (x.detach(), (k.detach(), v), torch.tensor(2))
        positions = [3]
    elif case == "too few output gradients":
        grads = grads[:1]
    else:
        grads = [torch.ones(1, dtype=torch.float64) for _ in value]
    with pytest.raises(ValueError, match=message):
        reference_backward(rotate_and_cache, args, {}, positions, grads)


def test_with_leaves_puts_tensors_back_in_their_places() -> None:
    value = (torch.zeros(1), [torch.ones(2), {"a": torch.full((3,), 2.0), "n": 4}], "text")
    swapped = with_leaves(value, [t + 1 for t in tensor_leaves(value)])
    assert [t.tolist() for t in tensor_leaves(swapped)] == [[1.0], [2.0, 2.0], [3.0, 3.0, 3.0]]
    assert swapped[1][1]["n"] == 4 and swapped[2] == "text" and isinstance(swapped[1], list)
    with pytest.raises(ValueError, match="more tensors"):
        with_leaves(value, [*tensor_leaves(value), torch.zeros(1)])
