"""course_lib/threads.py: torch's thread count follows the cores the rest of the machine leaves free."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch

from course_lib import threads


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


@pytest.mark.skipif(not os.path.exists("/proc/stat") or (os.cpu_count() or 1) < 2, reason="needs Linux's /proc/stat and 2 cores")
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
