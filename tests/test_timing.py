"""course_lib/timing.py: the book's speed claims are measured in CPU time, on one thread, in turns."""

from __future__ import annotations

import math
import time
import types
from collections.abc import Iterator

import pytest
import torch

from course_lib import threads, timing


def spin(n: int) -> int:
    """CPU work proportional to n, the same on every call."""
    return sum(i * i for i in range(n))


def test_three_times_the_work_measures_about_three_times_as_long() -> None:
    measured = timing.race({"one": lambda: spin(100_000), "three": lambda: spin(300_000)})
    assert 2.0 < measured.ratio("three", "one") < 4.5, measured.seconds
    assert measured.results["three"] == spin(300_000)


def test_waiting_is_not_counted() -> None:
    """A wall clock counts a machine busy with other work as the candidate's time; the thread's CPU time does
    not (a sleep stands for the core given to someone else): here, a wall clock would make the waiting
    candidate about four times as slow."""

    def waits() -> int:
        time.sleep(0.03)
        return spin(100_000)

    measured = timing.race({"waits": waits, "works": lambda: spin(100_000)}, rounds=2)
    assert measured.ratio("waits", "works") < 2, measured.seconds


def test_a_candidate_that_mostly_waits_is_not_repeated_for_long(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]

    def sleeps() -> None:
        calls[0] += 1
        time.sleep(0.01)

    monkeypatch.setattr(timing, "MIN_RUN_S", 0.05)
    timing.race({"sleeps": sleeps}, rounds=1)
    # doubled until a measurement's wall time passed MAX_WAIT * MIN_RUN_S = 0.5 s: 64 calls, 127 in the warm-up
    # and 64 in the round; counting CPU time alone (microseconds a call), it would double past 10,000 calls
    assert calls[0] < 1000, calls


def test_the_candidates_take_turns_after_their_warm_ups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "MIN_RUN_S", 0.0)  # one call per measurement
    order: list[str] = []
    timing.race({name: (lambda name=name: order.append(name)) for name in "ab"}, rounds=3)
    assert order == ["a", "b"] * 4  # the warm-ups, then three rounds in turns


@pytest.fixture
def two_free_cores(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """adapt() would choose two threads: no fixed count in the environment (make test's workers set one),
    a reading on record, and two cores measured free."""
    for name in (threads.THREADS_VARIABLE, "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(threads, "_last", [(0.0, 0.0, 0.0, 2.0)])
    monkeypatch.setattr(threads, "_reading", lambda: (10.0, 0.0, 0.0, 2.0))
    monkeypatch.setattr(threads, "free_cores", lambda since, now: 2.0)
    before = torch.get_num_threads()
    try:
        yield
    finally:
        torch.set_num_threads(before)


def test_one_thread_within_whatever_adapt_measures_and_the_count_restored_after(two_free_cores: None) -> None:
    assert threads.adapt(force=True) == 2 == torch.get_num_threads()  # the control: outside, adapt takes two
    seen: list[int] = []

    def adapts() -> None:
        threads.adapt(force=True)  # what the chapters' forward hook calls every two seconds
        seen.append(torch.get_num_threads())
        spin(50_000)

    timing.race({"adapts": adapts})
    assert set(seen) == {1}
    assert torch.get_num_threads() == 2


def test_the_count_comes_back_when_a_candidate_raises_and_after_nested_pins(two_free_cores: None) -> None:
    torch.set_num_threads(2)

    def raises() -> None:
        raise RuntimeError("the candidate's own error")

    with pytest.raises(RuntimeError, match="own error"):
        timing.race({"raises": raises})
    assert torch.get_num_threads() == 2
    with threads.pinned(1):
        with threads.pinned(2):
            assert threads.adapt(force=True) == 2
        assert threads.adapt(force=True) == 1 == torch.get_num_threads()
    assert torch.get_num_threads() == 2


def test_a_coarse_thread_clock_still_resolves_a_short_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' thread clock ticks every 15.6 ms: a call of about a millisecond is repeated until the
    ticks resolve it."""
    tick = 0.0156
    coarse = types.SimpleNamespace(
        thread_time=lambda: math.floor(time.thread_time() / tick) * tick, perf_counter=time.perf_counter
    )
    start = time.thread_time()
    for _ in range(20):
        spin(20_000)
    fine = (time.thread_time() - start) / 20
    monkeypatch.setattr(timing, "time", coarse)
    measured = timing.race({"short": lambda: spin(20_000)})
    assert 0.5 * fine < measured.seconds["short"] < 2 * fine, (measured.seconds, fine)


def test_nothing_to_race_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one candidate"):
        timing.race({})
    with pytest.raises(ValueError, match="one round"):
        timing.race({"a": lambda: 1}, rounds=0)
