"""course_lib.train on several processes (torchrun, gloo, CPU): 2 processes with b rows each take the
steps 1 process takes with 2b rows (DDP, and FSDP with gradient accumulation), a checkpoint of a
killed 2-process job resumes to the uninterrupted run on 2 processes and on 1, and one rank's crash
ends the job with that rank's error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from torch import Tensor

from course_lib.distributed import World, shard
from course_lib.train import History, train

sys.path.insert(0, str(Path(__file__).parent))
import distributed_run as run  # noqa: E402  (the script torchrun launches, and its tiny model and data)

SCRIPT = Path(run.__file__)
STEPS = 8


def torchrun(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    """``torchrun --standalone --nproc_per_node 2 tests/distributed_run.py ARGS`` (one thread per rank)."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc_per_node",
        "2",
        str(SCRIPT),
        *args,
    ]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def launched(cwd: Path, *args: str) -> dict:
    done = torchrun(cwd, str(cwd / "result.pt"), *args)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return torch.load(cwd / "result.pt", weights_only=True)


def in_one_process(batch: int, accumulate: int = 1) -> tuple[History, dict[str, Tensor]]:
    model = run.tiny_gpt()
    history = train(model, run.counting(batch), run.config(STEPS, accumulate))
    return history, model.state_dict()


def assert_same_run(history: History, state: dict[str, Tensor], other: dict, atol: float = 1e-4) -> None:
    """Two runs that took the same steps, to float rounding (AdamW's division lets rounding grow a little)."""
    theirs = other["history"]
    assert history.step == theirs["step"] and history.eval_step == theirs["eval_step"]
    assert history.tokens == theirs["tokens"], "tokens count every rank's rows"
    assert history.train_loss == pytest.approx(theirs["train_loss"], abs=1e-5)
    assert history.val_loss == pytest.approx(theirs["val_loss"], abs=1e-5)
    assert state.keys() == other["state"].keys()
    for name, tensor in state.items():
        torch.testing.assert_close(other["state"][name], tensor, atol=atol, rtol=0, msg=name)


@pytest.fixture(scope="module")
def two_process_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The uninterrupted 2-process DDP run: 8 rows per step, 4 on each rank."""
    return launched(tmp_path_factory.mktemp("ddp"), "--batch", "8")


def test_two_processes_with_b_rows_each_take_the_steps_of_one_process_with_2b(two_process_run: dict) -> None:
    history, state = in_one_process(batch=8)
    assert_same_run(history, state, two_process_run)
    assert two_process_run["rows"] == [STEPS * 4, STEPS * 4], "each rank computed the loss on its half of the rows"
    one_process_alone = in_one_process(batch=4)  # what a rank would do if the gradients were not averaged
    assert (
        max(abs(a - b) for a, b in zip(one_process_alone[0].train_loss, two_process_run["history"]["train_loss"]))
        > 1e-3
    )


def test_fsdp_with_gradient_accumulation_takes_the_same_steps(tmp_path: Path) -> None:
    result = launched(tmp_path, "--batch", "4", "--accumulate", "2", "--parallel", "fsdp")
    assert_same_run(*in_one_process(batch=4, accumulate=2), result)
    assert result["rows"] == [STEPS * 2 * 2] * 2


def test_a_killed_job_resumes_to_the_uninterrupted_run_on_two_processes_or_one(
    tmp_path: Path, two_process_run: dict
) -> None:
    checkpoint = tmp_path / "run.pt"
    start = time.perf_counter()
    crashed = torchrun(
        tmp_path,
        str(tmp_path / "never.pt"),
        "--batch",
        "8",
        "--checkpoint",
        str(checkpoint),
        "--fail-rank",
        "1",
        "--fail-at",
        "5",
    )
    seconds = time.perf_counter() - start
    # One rank's crash ends the job (no hang), and torchrun names that rank and its error.
    assert crashed.returncode != 0
    assert seconds < 120
    assert "rank 1 lost its data at batch 6" in crashed.stderr
    root_cause = crashed.stderr[crashed.stderr.index("Root Cause") :]
    assert "rank      : 1 (local_rank: 1)" in root_cause and "rank 1 lost its data" in root_cause
    assert not (tmp_path / "never.pt").exists()
    saved = torch.load(checkpoint, weights_only=True)
    assert saved["step"] == 4 and saved["world_size"] == 2  # checkpoint_every=4: the last whole step before the crash
    on_one = tmp_path / "one.pt"
    shutil.copy(checkpoint, on_one)

    resumed = launched(tmp_path, "--batch", "8", "--checkpoint", str(checkpoint), "--resume")
    assert resumed["history"]["train_loss"] == two_process_run["history"]["train_loss"], (
        "resumed on 2 processes: the same run exactly"
    )
    for name, tensor in two_process_run["state"].items():
        assert torch.equal(resumed["state"][name], tensor), name
    assert resumed["rows"] == [(STEPS - 4) * 4] * 2, "the resumed run took only the steps after the checkpoint"

    model = run.tiny_gpt()
    history = train(model, run.counting(8), run.config(STEPS, checkpoint=on_one), resume=True)
    assert_same_run(history, model.state_dict(), two_process_run)


def test_a_batch_the_ranks_cannot_share_equally_is_refused() -> None:
    rows = torch.arange(12).view(6, 2)
    assert torch.equal(shard(rows, World(rank=1, size=3)), rows[2:4])  # type: ignore[arg-type]
    ids, mask = shard((rows, rows + 100), World(rank=0, size=2))
    assert torch.equal(ids, rows[:3]) and torch.equal(mask, rows[:3] + 100)
    with pytest.raises(ValueError, match="a batch of 6 rows cannot be shared equally by 4 processes"):
        shard(rows, World(rank=0, size=4))
    with pytest.raises(ValueError, match="disagree on their number of rows"):
        shard((rows, rows[:4]), World(rank=0, size=2))
