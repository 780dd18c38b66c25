"""What the grader's processes say to each other, written down once.

``course grade`` (:mod:`course_grading.grade`) runs each submission through a trusted worker
(:mod:`course_grading.sandbox.worker`), which runs the student's code in a jailed student process
(:mod:`course_grading.sandbox.student_server`). Past :meth:`course_grading.sandbox.worker.Worker.run` the data
moves as JSON, which neither a reader nor a type checker can follow by itself; these are its
schemas:

* :class:`JailSettings`, the scratch course's ``jail.json``: written by
  :func:`course_grading.sandbox.scratch_course.prepare_template` and :func:`course_grading.grade.grade_one`,
  read by the worker (what the jail shows and hides, the limits its student process runs under);
* :class:`GradeRequest` and :class:`WorkerReply`, one JSON line each way on the worker's stdin and
  stdout;
* :class:`Outcome`, the scratch course's ``outcome.json``: written by the worker only (out of the
  student process's reach), read by ``course grade`` to record the grade.

The frames between the worker and the student process are :mod:`course_grading.sandbox.calls`' (a
length-prefixed ``torch.save`` archive per message, decoded with ``weights_only``: tensors and
plain containers, never code; described there).
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired from evaluated annotations.
import json
from pathlib import Path
from typing import Any, NotRequired, TypedDict, TypeVar, cast

__all__ = ["GradeRequest", "JailSettings", "Outcome", "WorkerReply", "read_message", "write_message"]


class JailSettings(TypedDict):
    """A scratch course's ``jail.json``: what the student process sees and how it is limited."""

    hide: list[str]  # folders never shown in the jail (the course, its grading folder, the batch)
    keep: list[str]  # folders shown read-only (the interpreter and its packages)
    cell_s: int  # seconds per cell and per hidden-check call
    total_s: NotRequired[int]  # the submission's own seconds: the most the cells' re-runs are credited in all
    output_bytes: int  # what the notebook may print in all
    grading: str  # the hidden checks' folder, read by the worker only
    slot: NotRequired[str]  # the job slot the student process's socket lies in (set per submission)
    launch: NotRequired[list[str]]  # the launcher that puts it under the slot's limits (set per submission)
    processes: NotRequired[int]  # the limit of processes and threads (set per submission)
    jail: NotRequired[str]  # "namespace" (the default) or "container" (course_grading.sandbox.container)
    uid: NotRequired[int]  # the container jail: the user its student processes run as (one per job slot)


class GradeRequest(TypedDict):
    """One submission for a worker to grade (a line on its stdin)."""

    scratch: str  # the scratch course holding the submission
    assignment: str
    student: str
    env: dict[str, str]  # the worker's whole environment while it grades this submission
    cwd: str
    seed: int | None  # the hidden inputs' seed; None: derived from the submission
    # parts whose hidden tests an earlier attempt ran past the submission's time in: they fail without running
    skipped: NotRequired[list[str]]


class WorkerReply(TypedDict):
    """A worker's answer (a line on its stdout): None, or the grader's own failure."""

    error: str | None


class Outcome(TypedDict):
    """``outcome.json``: what the worker recorded for a submission it graded."""

    scores: dict[str, float]  # points by part
    max_scores: dict[str, float]
    notes: list[str]  # what the student and the instructor are told
    seed: int  # the hidden inputs' seed, for ``course check --seed``
    review: NotRequired[list[str]]  # parts held at 0 until a person looks (a forbidden route)


Message = TypeVar("Message", JailSettings, Outcome)


def write_message(path: Path, message: JailSettings | Outcome) -> None:
    """Write one of the schemas above as JSON."""
    path.write_text(json.dumps(message))


def read_message(path: Path, schema: type[Message]) -> Message:
    """Read ``path`` as ``schema``; a file without one of its required keys raises ValueError naming
    them (the grader's fault, never the student's: only trusted processes write these files)."""
    data: Any = json.loads(path.read_text())
    # TypedDict's, unknown to mypy on type[...]
    required: frozenset[str] = schema.__required_keys__  # type: ignore[attr-defined]
    missing = sorted(required - set(data)) if isinstance(data, dict) else sorted(required)
    if missing:
        raise ValueError(f"{path.name} lacks {', '.join(missing)}: it does not follow the {schema.__name__} schema")
    return cast(Message, data)
