"""Timing that other work on the machine does not decide: the book's speed claims measure with :func:`race`.

A wall clock counts whatever else the machine runs. Measured that way, a claim such as "the cache grows
linearly, recomputing faster" fails on a laptop busy with other work (it did on a 2-core CI machine: one
slow run of the shorter generation made the longer one look cheap). :func:`race` closes the ways such a
measure goes wrong, for every claim at once:

* each run is timed in **CPU seconds of the calling thread** (``time.thread_time``), on **one torch thread**
  (:func:`course_lib.threads.pinned`), so time spent waiting for a core is not counted, and torch's thread
  count does not change between candidates;
* the candidates run **in turns**, round after round, so a slow minute of the machine slows all of them alike;
* each keeps its **fastest** round, the one least disturbed;
* a run shorter than :data:`MIN_RUN_S` is repeated within one measurement until it is not, so a coarse
  thread clock (Windows counts in 15.6 ms ticks) still resolves it to a few percent.

What remains is the machine's own arithmetic (its kernels, its caches), which a claim's margin has to cover.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from .threads import pinned

__all__ = ["MAX_WAIT", "MIN_RUN_S", "Race", "race"]

MIN_RUN_S = 0.2  # a measurement repeats a candidate until it takes at least this long (CPU seconds): 13 Windows ticks
MAX_WAIT = 10.0  # ... or until its wall time is this many times that (a candidate that mostly waits, as on I/O)
K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


@dataclass(frozen=True)
class Race(Generic[K, T]):
    """What :func:`race` measured: each candidate's fastest CPU seconds per call, and what its last call
    returned (to check that the alternatives agree)."""

    seconds: dict[K, float]
    results: dict[K, T]

    def ratio(self, slower: K, faster: K) -> float:
        """How many times as long ``slower`` took as ``faster``."""
        return self.seconds[slower] / self.seconds[faster]


def race(candidates: Mapping[K, Callable[[], T]], rounds: int = 3) -> Race[K, T]:
    """Time each of ``candidates`` (a name -> a function of no arguments), ``rounds`` times in turns after one
    warm-up call each, on one thread, in the calling thread's CPU seconds; keep each one's fastest round.

    The warm-up doubles a candidate's calls per measurement until one lasts :data:`MIN_RUN_S` of CPU time (or
    :data:`MAX_WAIT` times that of wall time); its time is then divided by that count."""
    if not candidates or rounds < 1:
        raise ValueError(f"race needs at least one candidate and one round, got {len(candidates)} and {rounds}")
    results: dict[K, T] = {}
    calls: dict[K, int] = {}
    best = dict.fromkeys(candidates, math.inf)

    def timed(name: K, count: int) -> tuple[float, float]:
        """CPU seconds of ``count`` calls, and their wall seconds."""
        wall, start = time.perf_counter(), time.thread_time()
        for _ in range(count):
            results[name] = candidates[name]()
        return time.thread_time() - start, time.perf_counter() - wall

    with pinned(1):
        for name in candidates:  # the warm-up, doubling the calls until one measurement lasts long enough
            calls[name] = 1
            while True:
                cpu, wall = timed(name, calls[name])
                if cpu >= MIN_RUN_S or wall >= MAX_WAIT * MIN_RUN_S:
                    break
                calls[name] *= 2
        for _ in range(rounds):
            for name in candidates:
                best[name] = min(best[name], timed(name, calls[name])[0] / calls[name])
    return Race(best, results)
