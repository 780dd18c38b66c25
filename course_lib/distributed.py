"""Data parallelism for :func:`course_lib.train.train`, on PyTorch's own engine (``torch.distributed``).

Launched with ``torchrun --nproc_per_node N ...``, each of the N processes (ranks) runs the same
``train(...)`` call. This module holds what the loop needs to know about them:

* :func:`current_world` (started from torchrun's environment when there is more than one process:
  NCCL on CUDA, gloo on a CPU) and :class:`World`, who this process is;
* :func:`shard`: the rows of a global batch that belong to this rank. Every rank draws the same
  global batch from the same seeded generator and keeps its own ``1/N`` of the rows, so that N
  processes with ``B/N`` rows each take the step that one process with ``B`` rows takes;
* :func:`mean_across`: a loss averaged over the ranks;
* :func:`wrap`: DDP (every rank holds the whole model, gradients averaged during the backward pass)
  or FSDP (``fully_shard``: parameters, gradients and AdamW's moments split across ranks, each
  block gathered only while it computes, for a model that does not fit one device);
* :func:`full_state` and :func:`load_full_state`: the model's and optimiser's whole state, keyed by
  parameter name, whatever the wrapping, so that a checkpoint resumes on any number of processes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import torch
import torch.distributed as dist
from torch import Tensor, nn

__all__ = [
    "Parallel",
    "World",
    "as_number",
    "barrier",
    "current_world",
    "full_model_state",
    "full_state",
    "gather",
    "gradient_sync",
    "load_full_state",
    "mean_across",
    "shard",
    "wrap",
]

Parallel = Literal["ddp", "fsdp"]


@dataclass(frozen=True)
class World:
    """This process's place among the ranks of a job: ``rank`` of ``size`` (``local_rank`` on its machine)."""

    rank: int = 0
    size: int = 1
    local_rank: int = 0

    @property
    def main(self) -> bool:
        """Whether this is rank 0, the one that prints and writes files."""
        return self.rank == 0


def current_world(device_type: str = "cpu") -> World:
    """The job this process belongs to: a single process, or the ranks of an initialised process group.

    Under ``torchrun`` with more than one process (``WORLD_SIZE`` > 1) and no process group yet, one is
    started: NCCL where ``device_type`` is ``"cuda"`` (each rank on GPU ``LOCAL_RANK``), gloo otherwise.
    """
    if not dist.is_available():
        return World()
    if not dist.is_initialized() and int(os.environ.get("WORLD_SIZE", "1")) > 1:
        if device_type == "cuda":
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        dist.init_process_group("nccl" if device_type == "cuda" else "gloo")
    if not dist.is_initialized():
        return World()
    return World(dist.get_rank(), dist.get_world_size(), int(os.environ.get("LOCAL_RANK", "0")))


def shard(batch: Tensor | tuple[Tensor, ...], world: World) -> Tensor | tuple[Tensor, ...]:
    """Rows ``rank * B/N .. (rank + 1) * B/N`` of every tensor of a global batch (first dimension ``B``).

    A ``B`` that ``N`` ranks cannot share equally is refused: the ranks' mean losses would then not
    average to the global batch's.
    """
    if world.size == 1:
        return batch
    tensors = (batch,) if isinstance(batch, Tensor) else batch
    rows = {t.shape[0] for t in tensors}
    if len(rows) != 1:
        raise ValueError(f"the tensors of a batch disagree on their number of rows: {sorted(rows)}")
    (total,) = rows
    if total % world.size:
        raise ValueError(
            f"a batch of {total} rows cannot be shared equally by {world.size} "
            f"processes: make the batch size a multiple of {world.size}"
        )
    per_rank = total // world.size
    mine = tuple(t[world.rank * per_rank : (world.rank + 1) * per_rank] for t in tensors)
    return mine[0] if isinstance(batch, Tensor) else mine


def mean_across(value: Tensor, world: World) -> Tensor:
    """``value`` (a detached tensor) averaged over the ranks; ``value`` itself in a single process."""
    if world.size == 1:
        return value
    value = value.detach().clone()
    dist.all_reduce(value, op=dist.ReduceOp.SUM)
    return value / world.size


def gather(obj: Any, world: World) -> list[Any]:
    """Every rank's ``obj`` (any picklable object), in rank order, on every rank."""
    if world.size == 1:
        return [obj]
    objects: list[Any] = [None] * world.size
    dist.all_gather_object(objects, obj)
    return objects


def barrier(world: World) -> None:
    """Wait until every rank gets here (rank 0 writing a file the others then read)."""
    if world.size > 1:
        dist.barrier()


def wrap(model: nn.Module, parallel: Parallel, world: World, device: torch.device) -> nn.Module:
    """The module the ranks train through: ``model`` itself in a single process; else DDP around it,
    or ``model`` sharded in place by FSDP (each module held in an ``nn.ModuleList``, a block, is a unit
    gathered on its own, then the rest). Parameters must already be on ``device``."""
    if world.size == 1:
        return model
    if parallel == "ddp":
        from torch.nn.parallel import DistributedDataParallel

        return DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    if parallel == "fsdp":
        from torch.distributed.fsdp import fully_shard

        for module in list(model.modules()):
            if isinstance(module, nn.ModuleList):
                for block in module:
                    fully_shard(block)
        fully_shard(model)
        return model
    raise ValueError(f"parallel must be 'ddp' or 'fsdp', got {parallel!r}")


@contextmanager
def gradient_sync(module: nn.Module, sync: bool) -> Iterator[None]:
    """Within it, a backward pass averages gradients across the ranks only when ``sync`` is true (the
    last micro-batch of an accumulated step); the others only add to the local gradients."""
    if sync:
        yield
        return
    wrapper: Any = module  # DDP's and FSDP's methods, found by name
    if hasattr(wrapper, "no_sync"):  # DDP
        with wrapper.no_sync():
            yield
        return
    if hasattr(wrapper, "set_requires_gradient_sync"):  # FSDP
        wrapper.set_requires_gradient_sync(False)
        try:
            yield
        finally:
            wrapper.set_requires_gradient_sync(True)
        return
    yield  # a single process: nothing to synchronise


def as_number(value: Tensor) -> float:
    """A scalar as a float, an FSDP ``DTensor`` (a sharded model's gradient norm) included."""
    full = getattr(value, "full_tensor", None)
    return float(full() if callable(full) else value)


def full_state(model: nn.Module, optimizer: torch.optim.Optimizer) -> tuple[dict[str, Any], dict[str, Any]]:
    """The whole model state dict and optimiser state (keyed by parameter names, on the CPU), whatever
    the wrapping: what a checkpoint holds. Every rank must call it (FSDP gathers the shards)."""
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict

    return get_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True, cpu_offload=True))


def full_model_state(model: nn.Module) -> dict[str, Tensor]:
    """The whole model state dict on the CPU (FSDP's shards gathered); every rank must call it."""
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state: dict[str, Tensor] = dict(get_model_state_dict(model, options=options))  # type: ignore[arg-type]
    return state


def load_full_state(
    model: nn.Module, optimizer: torch.optim.Optimizer, model_state: dict[str, Any], optimizer_state: dict[str, Any]
) -> None:
    """Put :func:`full_state`'s dicts back into ``model`` and ``optimizer`` (wrapped or not, on any
    number of ranks); every rank calls it with the whole dicts."""
    from torch.distributed.checkpoint.state_dict import StateDictOptions, set_state_dict

    set_state_dict(
        model,
        optimizer,
        model_state_dict=model_state,
        optim_state_dict=optimizer_state,
        options=StateDictOptions(full_state_dict=True, strict=True),
    )
