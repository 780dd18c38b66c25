"""course_lib.train: the schedule, one step against a hand-made AdamW step, learning, evaluation,
and a resumed run that reproduces the uninterrupted one exactly."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import Tensor

from course_lib.gpt import GPT, GPTConfig
from course_lib.train import StepEnd, TrainConfig, lr_at, param_groups, pick_device, train

VOCAB, T = 12, 16


def tiny_gpt(dropout: float = 0.0) -> GPT:
    torch.manual_seed(0)
    return GPT(GPTConfig(vocab_size=VOCAB, block_size=T, n_layers=2, n_heads=2, d_model=32, dropout=dropout))


def on_cpu(**settings: Any) -> TrainConfig:
    """A test's TrainConfig: ``settings``, on the CPU, without a progress bar."""
    return TrainConfig(progress=False, device="cpu", **settings)


def counting(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
    """Sequences that count up modulo VOCAB from a random start: the next token is learnable."""
    start = torch.randint(0, VOCAB, (8, 1), generator=generator)
    seq = (start + torch.arange(T + 1)) % VOCAB  # (8, T + 1)
    return seq[:, :-1], seq[:, 1:]


def test_warmup_then_cosine() -> None:
    config = TrainConfig(steps=101, lr=1.0, min_lr=0.1, warmup_steps=10)
    assert lr_at(0, config) == pytest.approx(0.1)
    assert lr_at(4, config) == pytest.approx(0.5)
    assert lr_at(9, config) == pytest.approx(1.0)
    assert lr_at(10, config) == pytest.approx(1.0)
    assert lr_at(55, config) == pytest.approx(0.55)  # half way through the decay: the mean of the two
    assert lr_at(100, config) == pytest.approx(0.1)
    lrs = [lr_at(s, config) for s in range(10, 101)]
    assert all(a >= b for a, b in zip(lrs, lrs[1:]))


def test_one_step_is_adamw_with_clipping_at_the_scheduled_rate() -> None:
    config = on_cpu(steps=5, lr=3e-3, min_lr=3e-4, warmup_steps=4, weight_decay=0.1, grad_clip=0.05, eval_every=100)
    model = tiny_gpt()
    replica = copy.deepcopy(model)
    train(model, counting, TrainConfig(**{**config.__dict__, "steps": 1}))
    inputs, targets = counting("train", torch.Generator().manual_seed(config.seed))
    loss = F.cross_entropy(replica(inputs).flatten(0, 1), targets.flatten())
    loss.backward()
    grads = [p.grad for p in replica.parameters()]
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    assert norm > config.grad_clip  # so that the clipping matters
    for p in replica.parameters():
        p.grad.mul_(config.grad_clip / norm)  # type: ignore[union-attr]
    decayed = [p for p in replica.parameters() if p.ndim >= 2]
    others = [p for p in replica.parameters() if p.ndim < 2]
    torch.optim.AdamW(
        [{"params": decayed, "weight_decay": 0.1}, {"params": others, "weight_decay": 0.0}],
        lr=config.lr / 4,
        betas=(0.9, 0.95),
    ).step()
    for ours, theirs in zip(model.parameters(), replica.parameters()):
        torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=1e-5)


def test_weight_decay_spares_biases_and_norms() -> None:
    decayed, spared = param_groups(tiny_gpt(), 0.1)
    assert all(p.ndim >= 2 for p in decayed["params"]) and all(p.ndim == 1 for p in spared["params"])
    assert spared["weight_decay"] == 0.0 and len(spared["params"]) > 0


def test_it_learns_and_evaluates_on_schedule() -> None:
    history = train(
        tiny_gpt(),
        counting,
        on_cpu(steps=150, lr=1e-2, min_lr=1e-3, warmup_steps=10, eval_every=50, eval_batches=2),
    )
    assert history.step == list(range(150)) and len(history.train_loss) == 150
    assert history.eval_step == [49, 99, 149]
    assert history.train_loss[0] > math.log(VOCAB) - 0.5
    assert history.val_loss[-1] < 0.1  # counting is deterministic after the first token
    assert history.tokens == 150 * 8 * T and history.seconds > 0


def test_a_resumed_run_reproduces_the_uninterrupted_one(tmp_path: Path) -> None:
    base = dict(steps=30, lr=3e-3, warmup_steps=5, eval_every=10, eval_batches=2)
    straight = tiny_gpt(dropout=0.2)  # dropout: the global random state must be restored too
    full = train(straight, counting, on_cpu(**base))
    # the same run, killed during step 25 (its checkpoint is from step 20), then resumed afresh
    interrupted = tiny_gpt(dropout=0.2)
    half = on_cpu(**base, checkpoint=tmp_path / "run.pt", checkpoint_every=20)
    _run_until(interrupted, half, stop_after=24)
    resumed_model = tiny_gpt(dropout=0.2)
    torch.manual_seed(1234)  # whatever state the new process has
    resumed = train(resumed_model, counting, half, resume=True)
    assert resumed.train_loss == full.train_loss
    assert resumed.val_loss == full.val_loss
    for a, b in zip(resumed_model.parameters(), straight.parameters()):
        assert torch.equal(a, b)


def test_a_job_stopped_by_its_time_limit_resumes_on_the_same_schedule(tmp_path: Path) -> None:
    base = dict(steps=12, lr=3e-3, warmup_steps=2, eval_every=4, eval_batches=1)
    straight = tiny_gpt()
    full = train(straight, counting, on_cpu(**base))
    first_job = on_cpu(**base, checkpoint=tmp_path / "run.pt", stop_after=7)
    partial = train(tiny_gpt(), counting, first_job)
    assert partial.step == list(range(7)) and partial.lr == full.lr[:7], "the schedule is the 12-step one"
    assert torch.load(tmp_path / "run.pt", weights_only=True)["step"] == 7, "checkpointed where it stopped"
    resumed_model = tiny_gpt()
    resumed = train(
        resumed_model, counting, first_job.__class__(**{**base, "checkpoint": tmp_path / "run.pt"}), resume=True
    )  # type: ignore[arg-type]
    assert resumed.train_loss == full.train_loss and resumed.val_loss == full.val_loss
    assert all(torch.equal(a, b) for a, b in zip(resumed_model.parameters(), straight.parameters()))


def test_accumulating_two_half_batches_takes_the_step_of_the_whole_batch() -> None:
    g = torch.Generator().manual_seed(5)
    halves = [counting("train", g) for _ in range(2 * 6)]  # six steps of two half-batches (8 rows each)

    def whole(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        if split == "val":
            return halves[0]
        a, b = halves[2 * whole.calls], halves[2 * whole.calls + 1]  # type: ignore[attr-defined]
        whole.calls += 1  # type: ignore[attr-defined]
        return torch.cat([a[0], b[0]]), torch.cat([a[1], b[1]])

    def half(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        if split == "val":
            return halves[0]
        half.calls += 1  # type: ignore[attr-defined]
        return halves[half.calls - 1]  # type: ignore[attr-defined]

    whole.calls = half.calls = 0  # type: ignore[attr-defined]
    base = dict(steps=6, lr=3e-3, eval_every=100)
    one, two = tiny_gpt(), tiny_gpt()
    h1 = train(one, whole, on_cpu(**base), loss_fn=_train_only)
    h2 = train(two, half, on_cpu(**base, accumulate=2), loss_fn=_train_only)
    assert h2.train_loss == pytest.approx(h1.train_loss, abs=1e-6), "the recorded loss is the whole batch's mean"
    assert h2.tokens == h1.tokens == 6 * 16 * T
    for a, b in zip(one.parameters(), two.parameters()):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=0)
    assert not torch.allclose(tiny_gpt().lm_head.weight, one.lm_head.weight, atol=1e-3)  # it did train


def _train_only(model: GPT, inputs: Tensor, targets: Tensor) -> Tensor:
    """The language-model loss; a fixed zero in evaluation (these runs have no validation data)."""
    if not model.training:
        return torch.zeros(())
    return F.cross_entropy(model(inputs).flatten(0, 1), targets.flatten())


def _run_until(model: GPT, config: TrainConfig, stop_after: int) -> None:
    """Train, but die after ``stop_after`` steps, as a killed job would (the checkpoint stays)."""

    class Killed(Exception):
        pass

    calls = 0

    def batches(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        nonlocal calls
        if split == "train":
            calls += 1
            if calls > stop_after:
                raise Killed
        return counting(split, generator)

    with pytest.raises(Killed):
        train(model, batches, config)
    assert config.checkpoint is not None and config.checkpoint.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("grad_clip", -1.0, "grad_clip must be > 0"),
        ("grad_clip", 0.0, "grad_clip must be > 0"),
        ("eval_every", 0, "eval_every must be at least 1"),
        ("eval_batches", 0, "eval_batches must be at least 1"),
        ("steps", 0, "steps must be at least 1"),
        ("min_lr", 2e-3, r"min_lr \(0.002\) must not exceed lr"),
        ("lr", 0.0, "lr must be > 0"),
        ("warmup_steps", -5, "warmup_steps must be >= 0"),
        ("betas", (0.9, 1.0), "betas must be in"),
        ("accumulate", 0, "accumulate must be at least 1"),
        ("stop_after", 0, "stop_after must be at least 1"),
        ("parallel", "zero3", "parallel must be 'ddp' or 'fsdp'"),
    ],
)
def test_a_bad_config_is_refused_by_name(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainConfig(**{"steps": 10, "lr": 1e-3, field: value})  # type: ignore[arg-type]


def test_a_checkpoint_given_as_a_string_is_a_path(tmp_path: Path) -> None:
    config = on_cpu(steps=2, eval_every=2, eval_batches=1, checkpoint=str(tmp_path / "run.pt"))
    assert config.checkpoint == tmp_path / "run.pt"
    train(tiny_gpt(), counting, config)
    assert (tmp_path / "run.pt").is_file()


def test_device_choice() -> None:
    assert pick_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
    assert pick_device().type == expected


def test_log_prints_one_line_per_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    history = train(
        tiny_gpt(), counting, TrainConfig(steps=25, eval_every=10, eval_batches=2, progress=False, log=True)
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(history.val_loss) == 3  # steps 10, 20 and the last, 25
    for line, step, val in zip(lines, [10, 20, 25], history.val_loss):
        assert line.startswith(f"step {step}/25:") and f"validation loss {val:.3f}" in line


def test_no_log_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    train(tiny_gpt(), counting, TrainConfig(steps=5, eval_every=2, eval_batches=1, progress=False))
    assert capsys.readouterr().out == ""


def test_callbacks_see_every_step_and_its_evaluation_and_cannot_leave_the_model_in_eval_mode() -> None:
    """A callback measures what the loop does not (here the loss on a fixed
    batch, at each evaluation), sees the history as it stands, and the loop keeps training after a
    callback switched the model to eval mode (dropout must stay on)."""
    seen: list[tuple[int, bool, int, int]] = []
    probe_loss: list[float] = []  # at each evaluation
    modes: list[bool] = []
    probe_inputs, probe_targets = counting("val", torch.Generator().manual_seed(7))

    def record(end: StepEnd) -> None:
        modes.append(end.model.training)
        seen.append((end.step, end.evaluated, len(end.history.train_loss), len(end.history.val_loss)))
        if end.evaluated:
            end.model.eval()
            with torch.no_grad():
                probe_loss.append(
                    F.cross_entropy(end.model(probe_inputs).flatten(0, 1), probe_targets.flatten()).item()
                )

    history = train(
        tiny_gpt(dropout=0.1),
        counting,
        on_cpu(steps=60, lr=2e-3, eval_every=20, eval_batches=1),
        callbacks=[record, lambda end: None],
    )
    assert [s for s, _, _, _ in seen] == list(range(60))
    assert [s for s, evaluated, _, _ in seen if evaluated] == history.eval_step == [19, 39, 59]
    assert all(n_train == step + 1 for step, _, n_train, _ in seen)
    assert [n_val for _, evaluated, _, n_val in seen if evaluated] == [1, 2, 3]
    assert all(modes), "every step must run in training mode, even after a callback called eval()"
    assert len(probe_loss) == 3 and probe_loss[0] > probe_loss[1] > probe_loss[2]  # the probe's loss falls
