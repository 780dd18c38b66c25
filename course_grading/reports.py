"""The reports of a graded batch: ``grades.csv`` (points per part, total, maximum, percentage, late
penalty), the Canvas and Moodle gradebook imports (:mod:`course_grading.exports`), ``summary.txt``,
``summary.png``, and a feedback page for a submission that could not be read.

A submission the grader failed on (status ``"not graded"``) has no score anywhere: its row in
``grades.csv`` has empty points and total, it is left out of the LMS files, and the summary counts it
apart. Text that UTF-8 cannot encode (a lone surrogate in a file name) is written as escapes."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .exports import NOT_GRADED, GradeRow, write_all
from .intake import Intake, Roster, batch_warning

if TYPE_CHECKING:
    from .grade import Result


def write_reports(results: list[Result], maxima: dict[str, float], taken: Intake, out: Path, assignment: str, roster: Roster | None, canvas_assignment_id: str | None, notices: Sequence[str] = ()) -> list[str]:
    """Every report under ``out``; returns the warnings (``notices`` from the caller, students left
    out of an LMS import, a mostly rejected batch), which the summary lists too."""
    people = {p.id: p for p in roster.people} if roster is not None else {}
    rows = []
    for r in results:
        person = people.get(r.student)
        graded = r.status != NOT_GRADED
        rows.append(GradeRow(
            student=r.student, name=person.name if person else "", email=person.email if person else "", lms_id=person.lms_id if person else "",
            points={p: r.scores.get(p, 0.0) for p in maxima} if graded else {}, max_points=maxima, late_penalty=r.penalty, total=r.total if graded else None,
            status=r.status, notes="; ".join(r.notes), submitted_at=datetime.fromisoformat(r.submitted_at) if r.submitted_at else None,
        ))  # fmt: skip
    warnings = write_all(rows, out, assignment, canvas_assignment_id)
    warning = batch_warning(taken)
    warnings = [*notices, *([warning] if warning else []), *warnings]
    (out / "summary.txt").write_text(summary(results, list(maxima), taken.rejected, warnings), encoding="utf-8", errors="backslashreplace")
    _figure([r for r in results if r.status != NOT_GRADED], list(maxima), out / "summary.png")
    return warnings


def write_unreadable_feedback(path: Path, student: str, notes: list[str]) -> None:
    """The feedback of a submission that could not be graded at all: why it scored 0."""
    path.parent.mkdir(parents=True, exist_ok=True)
    reasons = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    path.write_text(f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Feedback: {html.escape(student)}</title></head>"
                    f"<body><h1>Your submission could not be graded</h1><p>Every part scores 0, because:</p><ul>{reasons}</ul>"
                    "<p>Open the notebook in Jupyter, check that it runs, save it, and hand it in again.</p></body></html>\n", encoding="utf-8", errors="backslashreplace")


def summary(results: list[Result], parts: list[str], rejected: list[str], warnings: list[str]) -> str:
    graded = [r for r in results if r.status != NOT_GRADED]
    failed = len(results) - len(graded)
    lines = [f"WARNING: {w}" for w in warnings] + [f"{len(graded)} submissions graded" + (f"; {failed} NOT GRADED because of grader errors (no score recorded anywhere; see logs/<student>.log, and run again to grade them)" if failed else "")]
    for r in results:
        lines.append(f"  {r.student:<24} {r.total:>6g}" if r.status != NOT_GRADED else f"  {r.student:<24} NOT GRADED")
    lines.append("pass rate per part:")
    for p in parts:
        passed = sum(1 for r in graded if r.max_scores.get(p) and r.scores.get(p) == r.max_scores.get(p))
        lines.append(f"  {p:<24} {passed}/{len(graded)}")
    attention = [r for r in results if r.status != "graded" or r.notes]
    if attention:
        lines.append("needing attention:")
        lines += [f"  {r.student}: {'; '.join(r.notes)}" for r in attention]
    if rejected:
        lines.append("rejected entries:")
        lines += [f"  {reason}" for reason in rejected]
    return "\n".join(lines) + "\n"


def _figure(results: list[Result], parts: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
    left.hist([r.total for r in results], bins=min(20, max(1, len(results))))
    left.set(title="total scores", xlabel="points", ylabel="students")
    rates = [sum(1 for r in results if r.max_scores.get(p) and r.scores.get(p) == r.max_scores[p]) / max(1, len(results)) for p in parts]
    right.bar(parts, rates)
    right.set(title="share of students with full marks, per part", ylim=(0, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)
