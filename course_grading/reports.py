"""The reports of a graded batch: ``grades.csv``, ``summary.txt`` and ``summary.png``."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .grade import Result


def write_reports(results: list[Result], parts: list[str], rejected: list[str], out: Path) -> None:
    """grades.csv, summary.txt and summary.png under ``out``."""
    with (out / "grades.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", *parts, "total", "status", "notes"])
        for r in results:
            writer.writerow([r.student, *(f"{r.scores.get(p, 0):g}" for p in parts), f"{r.total:g}", r.status, "; ".join(r.notes)])
    (out / "summary.txt").write_text(summary(results, parts, rejected))
    _figure(results, parts, out / "summary.png")


def summary(results: list[Result], parts: list[str], rejected: list[str]) -> str:
    lines = [f"{len(results)} submissions graded"]
    for r in results:
        lines.append(f"  {r.student:<24} {r.total:>6g}")
    lines.append("pass rate per part:")
    for p in parts:
        passed = sum(1 for r in results if r.max_scores.get(p) and r.scores.get(p) == r.max_scores.get(p))
        lines.append(f"  {p:<24} {passed}/{len(results)}")
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
