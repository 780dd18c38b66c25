"""Tracing a model for the figures drawn from it (:mod:`course_lib.diagrams.bert`, :mod:`~course_lib.diagrams.seq2seq`):
every submodule call of one run, in the order the calls began, and how the book writes their names and shapes."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import torch
from torch import Tensor, nn

R = TypeVar("R")


@dataclass
class _Call:
    """One call of a submodule during a traced run: its name in the traced model, the module, its
    arguments and its output."""

    name: str
    module: nn.Module
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    output: Any = None


def _calls(model: nn.Module, run: Callable[[], R]) -> tuple[list[_Call], R]:
    """Every submodule call of ``model`` while ``run()`` runs, in the order the calls began, and what
    ``run()`` returned.

    Runs without gradients and in evaluation mode (no dropout), then restores each module's mode and
    the global random state, so that a figure drawn between two cells of a chapter changes nothing
    the next cell computes."""
    names = {id(module): name for name, module in model.named_modules() if name}
    calls: list[_Call] = []
    open_calls: dict[int, list[_Call]] = {}

    def before(module: nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        call = _Call(names[id(module)], module, args, dict(kwargs))
        calls.append(call)
        open_calls.setdefault(id(module), []).append(call)

    def after(module: nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any], output: Any) -> None:
        open_calls[id(module)].pop().output = output

    modules = {id(m): m for n, m in model.named_modules() if n}.values()
    handles = [m.register_forward_pre_hook(before, with_kwargs=True) for m in modules]
    handles += [m.register_forward_hook(after, with_kwargs=True) for m in modules]
    modes = [(m, m.training) for m in model.modules()]
    try:
        with torch.random.fork_rng(devices=[]), torch.no_grad():
            model.eval()
            result = run()
    finally:
        for handle in handles:
            handle.remove()
        for m, training in modes:
            m.training = training
    return calls, result


def _children(calls: list[_Call], parent: str) -> list[_Call]:
    """The calls made by ``parent`` itself (``parent == ""``: by the model): calls of its submodules
    that no other called submodule of it encloses (a container such as ``nn.ModuleList`` is never
    called, so ``encoder.layers.0`` is a child of ``encoder``)."""
    prefix = f"{parent}." if parent else ""
    called = {c.name for c in calls if c.name.startswith(prefix)}

    def enclosed(name: str) -> bool:
        parts = name.split(".")
        return any(".".join(parts[:i]) in called for i in range(prefix.count(".") + 1, len(parts)))

    return [c for c in calls if c.name.startswith(prefix) and not enclosed(c.name)]


def _shown(name: str) -> str:
    """A submodule's path as the book writes it: ``encoder.layers.0`` as ``encoder.layers[0]``."""
    return re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", name)


def _shape(t: Tensor) -> str:
    return "(" + ", ".join(str(n) for n in t.shape) + ")"
