"""How many threads torch computes with: as many as there are free cores, measured as the book runs.

On a laptop that other work keeps busy, torch's default (one thread per core) makes its threads wait
for each other by spinning on cores they do not get: measured on 2 cores with one kept busy, a small
transformer's training steps took 2.6 times as long with 2 threads as with 1 (4.7 s against 1.7 s;
on the idle machine, 2 threads were 1.4 times faster than 1). :func:`adapt` sets the thread count to
the cores the rest of the machine leaves free, from ``/proc/stat`` (Linux) over the time since its
last call. Each chapter calls :func:`use_free_cores` once at its start: it measures, and from then on
every module's forward pass (any training or inference loop, the library's or a chapter's own) calls
:func:`adapt` at most every :data:`INTERVAL_S` seconds, through a global forward pre-hook, so that a
core taken by other work halfway through a chapter is given back within seconds. Elsewhere (no
``/proc/stat``), and wherever ``OMP_NUM_THREADS`` or ``COURSE_THREADS`` is set, the count is left
alone or set to that number; within a :func:`pinned` block, to the block's count.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn

__all__ = ["THREADS_VARIABLE", "adapt", "free_cores", "pinned", "use_free_cores"]

THREADS_VARIABLE = "COURSE_THREADS"  # a fixed thread count, for a run that must not adapt (a benchmark, a test)
INTERVAL_S = 2.0  # adapt() measures over at least this long
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_last: list[tuple[float, float, float, float]] = []  # (wall, busy of the machine, our own CPU, cores): the last reading
_hook: list[object] = []  # the handle of the forward pre-hook, once use_free_cores() installed it
_next_check = [0.0]  # monotonic time before which the hook does nothing
_pins: list[int] = []  # the counts of the pinned() blocks in force, innermost last


def _reading() -> tuple[float, float, float, float] | None:
    """Now: wall time, the machine's busy CPU seconds, this process's CPU seconds, and the cores."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    busy = (sum(fields[:8]) - idle) / _TICKS  # user to steal: guest time is counted in user already
    own = sum(os.times()[:2])
    return time.monotonic(), busy, own, float(os.cpu_count() or 1)


def free_cores(since: tuple[float, float, float, float], now: tuple[float, float, float, float]) -> float:
    """The cores the rest of the machine left free between two readings (this process's own use
    counts as free: it is what the threads are for)."""
    wall = max(now[0] - since[0], 1e-6)
    others = max(0.0, (now[1] - since[1]) - (now[2] - since[2])) / wall
    return max(0.0, now[3] - others)


def _fixed() -> int | None:
    if _pins:
        return _pins[-1]
    for name in (THREADS_VARIABLE, "OMP_NUM_THREADS"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    return None


def adapt(force: bool = False) -> int:
    """Set torch's thread count to the free cores measured since the last call (at least
    :data:`INTERVAL_S` ago, unless ``force``), at least 1; return the count in use."""
    fixed = _fixed()
    if fixed is not None:
        if torch.get_num_threads() != fixed:
            torch.set_num_threads(fixed)
        return fixed
    if _last and not force and time.monotonic() - _last[0][0] < INTERVAL_S:
        return torch.get_num_threads()
    now = _reading()
    if now is None:
        return torch.get_num_threads()
    if not _last:
        _last.append(now)
        return torch.get_num_threads()
    threads = max(1, min(int(now[3]), round(free_cores(_last[0], now))))
    _last[0] = now
    if threads != torch.get_num_threads():
        torch.set_num_threads(threads)
    return threads


def _adapt_now_and_then(module: nn.Module, args: tuple) -> None:
    """The forward pre-hook: :func:`adapt` once :data:`INTERVAL_S` has passed since the last check."""
    now = time.monotonic()
    if now >= _next_check[0]:
        _next_check[0] = now + INTERVAL_S
        adapt()


def use_free_cores(sample_s: float = 0.3) -> int:
    """At a chapter's start: measure the machine over ``sample_s`` and use the free cores; from then
    on, every forward pass adapts the count again every :data:`INTERVAL_S` seconds."""
    _last.clear()
    adapt()
    time.sleep(sample_s)
    threads = adapt(force=True)
    if not _hook:
        _hook.append(nn.modules.module.register_module_forward_pre_hook(_adapt_now_and_then))
    return threads


@contextmanager
def pinned(count: int) -> Iterator[None]:
    """Within the block, torch computes with ``count`` threads whatever the machine's load (:func:`adapt`
    and the forward hook keep it); the count in use before comes back after."""
    before = torch.get_num_threads()
    _pins.append(count)
    torch.set_num_threads(count)
    try:
        yield
    finally:
        _pins.pop()
        torch.set_num_threads(_pins[-1] if _pins else before)
