"""course_lib/threads.py: torch's thread count follows the cores the rest of the machine leaves free."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
import torch

from course_lib import threads


@pytest.fixture(autouse=True)
def hook_removed_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever forward pre-hook a test's use_free_cores() installs in this process goes with the test."""
    monkeypatch.setattr(threads, "_hook", [])
    yield
    for handle in threads._hook:
        handle.remove()  # type: ignore[attr-defined]


def test_free_cores_counts_the_others_busy_time_not_ours() -> None:
    # 2 cores over 2 s: the machine was busy 3 CPU-seconds, 1 of them ours -> the others took 1 core
    assert threads.free_cores((0.0, 10.0, 5.0, 2.0), (2.0, 13.0, 6.0, 2.0)) == pytest.approx(1.0)
    assert threads.free_cores((0.0, 10.0, 5.0, 2.0), (2.0, 14.0, 9.0, 2.0)) == pytest.approx(2.0)  # all of it ours
    assert threads.free_cores((0.0, 0.0, 0.0, 4.0), (1.0, 4.0, 0.0, 4.0)) == 0.0  # every core taken


def test_a_fixed_count_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    before = torch.get_num_threads()
    monkeypatch.setenv(threads.THREADS_VARIABLE, "2")
    try:
        assert threads.adapt() == 2 and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


@pytest.mark.skipif(
    not os.path.exists("/proc/stat") or (os.cpu_count() or 1) < 2, reason="needs Linux's /proc/stat and 2 cores"
)
def test_cores_kept_busy_by_other_work_are_left_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """All cores but one kept busy by other processes: one thread (two threads spinning on one free
    core were 2.6 times as slow as one, measured in the module's docstring)."""
    monkeypatch.delenv(threads.THREADS_VARIABLE, raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    before = torch.get_num_threads()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range((os.cpu_count() or 2) - 1)]
    try:
        torch.set_num_threads(2)  # as on an idle machine: adapt() must bring it down
        threads.use_free_cores(sample_s=0.3)  # the spinners are running by now
        assert threads.use_free_cores(sample_s=1.0) == 1 and torch.get_num_threads() == 1
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
        torch.set_num_threads(before)


@pytest.mark.skipif(
    not os.path.exists("/proc/stat") or (os.cpu_count() or 1) < 2, reason="needs Linux's /proc/stat and 2 cores"
)
def test_a_loop_of_its_own_gives_cores_back_once_other_work_starts() -> None:
    """After use_free_cores() on an idle machine, a loop that is no library's (plain forward and
    backward passes, no course_lib.train) drops to one thread within seconds of other work taking
    every core but one: the forward pre-hook adapts it, as in a chapter's own training loop. Run in
    a child process, so that the global hook stays out of the other tests."""
    code = """
import subprocess, sys, time, torch
from course_lib import threads
threads.use_free_cores(sample_s=0.5)
start = torch.get_num_threads()
spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(SPINNERS)]
layer, end = torch.nn.Linear(64, 64), time.monotonic() + 8 * threads.INTERVAL_S
try:
    while time.monotonic() < end and torch.get_num_threads() != 1:
        layer(torch.randn(32, 64)).sum().backward()
        time.sleep(0.01)
finally:
    for spinner in spinners:
        spinner.kill()
print(start, torch.get_num_threads())
""".replace("SPINNERS", str((os.cpu_count() or 2) - 1))
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", threads.THREADS_VARIABLE)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    start, end = map(int, run.stdout.split())
    assert end == 1, (start, end)


def test_the_hook_is_installed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """use_free_cores() twice (two chapters in one kernel) leaves one forward pre-hook, not two."""
    monkeypatch.setenv(threads.THREADS_VARIABLE, str(torch.get_num_threads()))
    hooks = torch.nn.modules.module._global_forward_pre_hooks
    before = len(hooks)
    threads.use_free_cores(sample_s=0.0)
    threads.use_free_cores(sample_s=0.0)
    assert len(hooks) == before + 1
