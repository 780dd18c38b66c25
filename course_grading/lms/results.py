"""What grading one submission gives: its :class:`Result` and the statuses a result or a grade row has.

Shared by the grading run (:mod:`course_grading.grade`), its reports and the LMS files
(:mod:`course_grading.lms.reports`, :mod:`course_grading.lms.gradebook_files`); it imports nothing of theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ATTENTION", "GRADED", "GRADER_ERROR", "MISSING", "NOT_GRADED", "Result"]

GRADED, ATTENTION, NOT_GRADED = "graded", "needs attention", "not graded"
MISSING = "missing"  # on the roster, nothing in the export: a row with no score, left out of the LMS files
GRADER_ERROR = "not graded: grader error"  # how the note of a grader-side failure starts


@dataclass
class Result:
    """One submission's grade: points per part (by answer id) and the maxima, its status, the notes the
    instructor and the student read, and what made it (content key, seed, late penalty, overrides)."""

    student: str
    # GRADED | ATTENTION (graded, with zeros the instructor should look at) | NOT_GRADED (the grader failed: no score)
    status: str
    scores: dict[str, float] = field(default_factory=dict)
    max_scores: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    key: str = ""  # content hash: the same key means the same grading input
    seconds: float = 0.0  # how long grading took
    penalty: float = 0.0  # late penalty (points), applied on every run from the policy of that run
    submitted_at: str | None = None  # ISO time, from the export or the file (see notes)
    overridden: dict[str, str] = field(default_factory=dict)  # part -> the instructor's reason
    review: list[str] = field(default_factory=list)  # parts held at 0 for a person (course_grading.sandbox.shortcuts)
    seed: int | None = None  # the seed of the hidden checks' inputs (`course check --seed` replays them)

    @property
    def total(self) -> float:
        return max(0.0, sum(self.scores.values()) - self.penalty)
