"""The generic checks (issue 37): every call held to the global random states and to unchanged inputs,
and a contract's cases (leading dimensions, a length past any buffer, dtypes, the gradients of every
input, a protocol step by step), each tried on a right function and on one wrong one per class, on
many seeds: the right one always passes, each wrong one always fails."""

from __future__ import annotations

import importlib
import random
import sys

import pytest
import torch
import torch.nn.functional as F

from course_grading.sandbox.calls import LocalStudent, call_in

from assignment_support import ASSIGNMENTS

sys.path.insert(0, str(ASSIGNMENTS / "grading"))
gradinglib = importlib.import_module("gradinglib")
contracts = importlib.import_module("contracts")

SEEDS = range(5)


def right(x, gain, bias):  # noqa: ANN001, ANN201 (a student's function)
    return F.layer_norm(x, x.shape[-1:], gain, bias, 1e-5)


_TABLE = torch.arange(1024)


def buffer(x, gain, bias):  # noqa: ANN001, ANN201
    d = _TABLE[: x.shape[-1]].numel()  # a width past 1,024 is cut
    return F.layer_norm(x[..., :d], (d,), gain[:d], bias[:d], 1e-5)


def float32(x, gain, bias):  # noqa: ANN001, ANN201
    out = torch.zeros(x.shape)
    out += right(x, gain, bias)
    return out


def detached(x, gain, bias):  # noqa: ANN001, ANN201
    return right(x, gain.detach(), bias)


def needs_batch(x, gain, bias):  # noqa: ANN001, ANN201
    flat = x.reshape(x.shape[0], -1, x.shape[-1])
    return right(flat, gain, bias).reshape(x.shape)


def reseeds(x, gain, bias):  # noqa: ANN001, ANN201
    torch.manual_seed(0)
    return right(x, gain, bias)


def python_reseeds(x, gain, bias):  # noqa: ANN001, ANN201
    random.seed(1)
    return right(x, gain, bias)


def in_place(x, gain, bias):  # noqa: ANN001, ANN201
    x -= x.mean(-1, keepdim=True)
    return right(x, gain, bias)


def _args(g: torch.Generator, size) -> tuple:  # noqa: ANN001
    d = size.length
    return (
        torch.randn(*size.lead, d, generator=g).to(size.dtype),
        (1 + 0.3 * torch.randn(d, generator=g)).to(size.dtype),
        (0.3 * torch.randn(d, generator=g)).to(size.dtype),
    )


LAYER_NORM = contracts.Contract(
    "layer_norm",
    ("x", "gain", "bias"),
    _args,
    lambda x, gain, bias: F.layer_norm(x, x.shape[-1:], gain, bias, 1e-5),
    base=contracts.Size((2, 3), 8),
    leads=((), (1,), (4,)),
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2),
    scale=10.0,
)


def failures(function) -> list[str]:  # noqa: ANN001
    """The messages of the contract's cases that fail ``function`` (named layer_norm), on each seed."""
    found = []
    for seed in SEEDS:
        gradinglib.seed_checks(seed)
        try:
            student = gradinglib.as_student({"layer_norm": function})
            g = gradinglib.fresh_generator()
            for case in contracts.contract_cases(LAYER_NORM, student, g):
                try:
                    case()
                except gradinglib.CheckFailed as failure:
                    found.append(str(failure))
        finally:
            gradinglib.seed_checks(None)
    return found


def test_a_right_function_passes_every_generic_case_on_every_seed() -> None:
    assert failures(right) == []


@pytest.mark.parametrize("function, words", [
    (buffer, "1100 positions"), (float32, "keep the inputs' dtype"), (detached, "reaches gain"),
    (needs_batch, "leading dimensions none"), (reseeds, "global random state"), (python_reseeds, "global random state"),
    (in_place, "in place"),
])  # fmt: skip
def test_each_class_of_wrong_function_fails_on_every_seed(function, words: str) -> None:  # noqa: ANN001
    found = failures(function)
    per_seed = len(found) / len(SEEDS)
    assert found and per_seed == int(per_seed), found  # the same cases fail on every seed
    assert any(words in message for message in found), found


def test_every_call_reseeds_the_global_generators_first_and_reports_what_moved() -> None:
    """call_in seeds torch's, Python's and NumPy's generators with the seed it is given, so that a
    function reseeding them to any constant moves them, and says whether they moved."""
    namespace = {"draws": lambda: torch.rand(()), "quiet": lambda: 1, "fixed": lambda: torch.manual_seed(12345) and 1}
    assert call_in(namespace, "draws", (), global_seed=3).global_rng_moved
    assert not call_in(namespace, "quiet", (), global_seed=3).global_rng_moved
    assert call_in(namespace, "fixed", (), global_seed=3).global_rng_moved  # a reseed to any other seed shows
    first = call_in(namespace, "draws", (), global_seed=7).value
    assert torch.equal(call_in(namespace, "draws", (), global_seed=7).value, first)  # the seed decides the draw


def test_gradients_reach_tensors_inside_dict_arguments() -> None:
    namespace = {"f": lambda x, p: x @ p["W"] + p["b"].detach()}
    x, p = torch.randn(3, 4), {"W": torch.randn(4, 2), "b": torch.randn(2)}
    reply = LocalStudent(namespace).call("f", (x, p), grad_args=(0, (1, "W"), (1, "b")))
    assert reply.grads is not None and reply.grads[0] is not None and reply.grads[1] is not None
    assert reply.grads[2] is None  # the detached bias: no gradient
    assert torch.allclose(reply.grads[1], x.T @ torch.linspace(-1, 1, 6).view(3, 2))
