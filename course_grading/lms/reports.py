"""The reports of a graded batch: ``grades.csv`` (points per part, total, maximum, percentage, late
penalty), the Canvas and Moodle gradebook imports (:mod:`course_grading.lms.gradebook_files`), ``summary.txt``,
``summary.png``, and a feedback page for a submission that could not be read.

A submission the grader failed on (status ``"not graded"``) has no score anywhere: its row in
``grades.csv`` has empty points and total, it is left out of the LMS files, and the summary counts it
apart. Every line of the summary goes through :func:`course_grading.text.shown` (a control, bidi or
zero-width character in a name, file name or quoted source line is written as a visible escape, a
newline in a note cannot start a line of its own), every CSV field through
:func:`course_grading.text.csv_cell`, and the feedback page of an unreadable submission through
:func:`course_grading.text.html_text`.

``summary.txt`` says how many submissions were graded in this run and how many came from the cache,
and separates what needs the instructor from what is for information. A student *needs attention*
when their status is not "graded" (held for review, unreadable, not graded) or one of their notes is
not :data:`INFORMATIONAL`; informational notes (times the export does not record, ids made from
names, late penalties applied, the instructor's own overrides) are counted by kind instead of being
repeated per student. A note no pattern knows needs attention: a new kind of note is seen until it
is classified here."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from datetime import datetime
from pathlib import Path

from course_grading.lms.gradebook_files import GradeRow, load_rows, save_rows, write_all
from course_grading.lms.intake import Intake, Roster, batch_warning
from course_grading.lms.results import MISSING, NOT_GRADED, Result
from course_grading.text import html_text, shown

__all__ = ["informational", "participant_id", "remove_student", "summary", "write_reports", "write_unreadable_feedback"]


INFORMATIONAL = re.compile(
    "|".join([
        r"submission time unknown",  # LMS exports record no time; the late policy says what it did
        r"submission time taken from",  # a plain file's modification time
        r"no roster: student id",  # an id made from the export's name
        r"matched to the roster by name",
        r"'[^']*' is \S+ on the roster",  # a plain entry named by email or LMS id
        r"Canvas marked it LATE",
        r"Moodle .* ignored \(only uploaded files are graded\)",  # online text beside the notebook
        # a rule decided which (an undecided choice is held, its status says so)
        r"\d+ notebooks handed in: the latest is graded",
        r"submitted .* late \(due",  # a late penalty (or none) applied by the policy
        r"\S+ set to \S+ by the instructor",  # an override: the instructor's own decision
    ])
)  # fmt: skip
UNSCORED = (NOT_GRADED, MISSING)  # rows with no score: empty points and total, not in the LMS files or the figure
# Moodle 3 and 4 folder and flat-file names
MOODLE_ENTRY = re.compile(r"^[^/]*_(?P<participant>\d+)_assignsubmission_[a-z]+")


def informational(note: str) -> bool:
    """Whether a note is for information only (nothing for the instructor to do)."""
    return INFORMATIONAL.match(note) is not None


def write_reports(
    results: list[Result],
    maxima: dict[str, float],
    taken: Intake,
    out: Path,
    assignment: str,
    roster: Roster | None,
    canvas_assignment_id: str | None,
    notices: Sequence[str] = (),
    from_cache: Collection[str] = (),
    jail: str = "",
) -> list[str]:
    """Every report under ``out``; returns the warnings (``notices`` from the caller, students left
    out of an LMS import, a mostly rejected batch), which the summary lists too. ``from_cache``: the
    students whose result was not graded in this run but taken from the cache; ``jail``: the jail
    student code ran in (said in the summary's last line)."""
    people = {p.id: p for p in roster.people} if roster is not None else {}
    rows = []
    for r in results:
        person = people.get(r.student)
        graded = r.status not in UNSCORED
        rows.append(GradeRow(
            student=r.student, name=person.name if person else "", email=person.email if person else "",
            lms_id=person.lms_id if person else "",
            points={p: r.scores.get(p, 0.0) for p in maxima} if graded else {}, max_points=maxima,
            late_penalty=r.penalty, total=r.total if graded else None,
            status=r.status, notes="; ".join(r.notes),
            submitted_at=datetime.fromisoformat(r.submitted_at) if r.submitted_at else None,
            participant_id=participant_id(taken, r.student),
        ))  # fmt: skip
    warnings = write_all(rows, out, assignment, canvas_assignment_id)
    save_rows(rows, out, assignment, canvas_assignment_id)
    warning = batch_warning(taken)
    warnings = [*notices, *([warning] if warning else []), *warnings]
    text = summary(results, list(maxima), taken.rejected, warnings, from_cache) + (
        f"student code ran in the {jail} jail\n" if jail else ""
    )
    (out / "summary.txt").write_text(text, encoding="utf-8", errors="backslashreplace")
    _figure([r for r in results if r.status not in UNSCORED], list(maxima), out / "summary.png", assignment)
    return warnings


def participant_id(taken: Intake, student: str) -> str:
    """The Moodle participant id of the student's submission, if it came from a Moodle export."""
    submission = taken.submissions.get(student)
    match = MOODLE_ENTRY.match(submission.entry) if submission else None
    return match["participant"] if match else ""


def remove_student(out: Path, student: str) -> list[str]:
    """Take ``student`` out of the reports under ``out``: their rows in ``grades.csv`` and the LMS
    files (written again from the rows the last run kept), their feedback page, autograded notebook
    and log; ``summary.txt`` gets a first line saying so. Returns what was changed (empty when
    ``out`` held nothing of theirs)."""
    changed = []
    for kind, suffix in (("feedback", "html"), ("autograded", "ipynb"), ("logs", "log")):
        path = out / kind / f"{student}.{suffix}"
        if path.exists():
            path.unlink()
            changed.append(f"{kind}/{path.name}")
    try:
        rows, assignment, canvas_assignment_id = load_rows(out)
    except FileNotFoundError:
        return changed
    kept = [row for row in rows if row.student != student]
    if len(kept) < len(rows):
        write_all(kept, out, assignment, canvas_assignment_id)
        save_rows(kept, out, assignment, canvas_assignment_id)
        changed.append("grades.csv and the LMS import files")
        summary_file = out / "summary.txt"
        if summary_file.exists():
            summary_file.write_text(
                f"NOTE: {shown(student)} was removed (course remove) after this summary was written: no "
                "report lists them now\n" + summary_file.read_text(encoding="utf-8"),
                encoding="utf-8",
                errors="backslashreplace",
            )
    return changed


def write_unreadable_feedback(path: Path, student: str, notes: list[str]) -> None:
    """The feedback of a submission that could not be graded at all: why it scored 0."""
    path.parent.mkdir(parents=True, exist_ok=True)
    reasons = "".join(f"<li>{html_text(note)}</li>" for note in notes)
    path.write_text(
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Feedback: {html_text(student)}</title></head>"
        f"<body><h1>Your submission could not be graded</h1><p>Every part scores 0, because:</p><ul>{reasons}</ul>"
        "<p>Open the notebook in Jupyter, check that it runs, save it, and hand it in again.</p></body></html>\n",
        encoding="utf-8",
        errors="backslashreplace",
    )


def summary(
    results: list[Result], parts: list[str], rejected: list[str], warnings: list[str], from_cache: Collection[str] = ()
) -> str:
    """``summary.txt``: the warnings, the counts, each student's total, the pass rate per part, who
    needs attention and why, the informational notes counted by kind, and the rejected entries;
    each line :func:`course_grading.text.shown`."""
    graded = [r for r in results if r.status not in UNSCORED]
    failed = sum(1 for r in results if r.status == NOT_GRADED)
    cached = sum(1 for r in graded if r.student in from_cache)
    lines = [f"WARNING: {w}" for w in warnings]
    lines.append(
        f"{len(graded) - cached} graded, {cached} from the cache (unchanged since they were graded)"
        + (
            f"; {failed} NOT GRADED because of grader errors (no score recorded anywhere; see "
            "logs/<student>.log, and run again to grade them)"
            if failed
            else ""
        )
    )
    for r in results:
        lines.append(
            f"  {r.student:<24} {r.total:>6g}"
            if r.status not in UNSCORED
            else f"  {r.student:<24} {'NOT GRADED' if r.status == NOT_GRADED else r.status}"
        )
    lines.append("pass rate per part:")
    for p in parts:
        passed = sum(1 for r in graded if r.max_scores.get(p) and r.scores.get(p) == r.max_scores.get(p))
        lines.append(f"  {p:<24} {passed}/{len(graded)}")
    attention = [(r, [n for n in r.notes if not informational(n)]) for r in results]
    # the missing are listed apart
    attention = [(r, notes) for r, notes in attention if r.status != MISSING and (r.status != "graded" or notes)]
    # a rejected entry needs a person too: nothing of it was graded, and its student may be someone the export
    # names wrongly (attacks_s: a classmate's SID typed into Gradescope held both submissions back)
    waiting = len(attention) + len(rejected)
    lines.append(
        f"needing attention: {waiting}"
        + (f" ({len(rejected)} rejected entr{'y' if len(rejected) == 1 else 'ies'}, listed last)" if rejected else "")
        if waiting
        else "needing attention: none"
    )
    lines += [f"  {r.student} ({r.status}): {'; '.join(notes) or 'see its feedback'}" for r, notes in attention]
    absent = [r.student for r in results if r.status == MISSING]
    if absent:
        lines.append(f"missing (on the roster, nothing in the export; no score, not in the LMS files): {len(absent)}")
        lines.append(f"  {', '.join(absent)}")
    kinds = Counter(note for r in results for note in dict.fromkeys(r.notes) if informational(note))
    if kinds:
        lines.append("for information (nothing to do):")
        lines += [
            f"  {note} ({count} student{'s' if count != 1 else ''})"
            for note, count in sorted(kinds.items(), key=lambda kind: -kind[1])
        ]
    if rejected:
        lines.append("rejected entries (each needs attention: nothing of it was graded):")
        lines += [f"  {reason}" for reason in rejected]
    return "\n".join(shown(line) for line in lines) + "\n"


def _figure(results: list[Result], parts: list[str], path: Path, assignment: str) -> None:
    """The histogram of totals and the share of full marks per part, titled with the assignment and
    the number graded; the parts are rows, so that long names never run together."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 1.6 + 0.35 * max(4, len(parts))), layout="constrained")
    fig.suptitle(f"{assignment}: {len(results)} submission{'s' if len(results) != 1 else ''} graded")
    left.hist([r.total for r in results], bins=min(20, max(1, len(results))))
    left.set(title="total scores", xlabel="points", ylabel="students")
    rates = [
        sum(1 for r in results if r.max_scores.get(p) and r.scores.get(p) == r.max_scores[p]) / max(1, len(results))
        for p in parts
    ]
    right.barh(parts, rates)
    right.set(title="share of students with full marks, per part", xlim=(0, 1))
    right.invert_yaxis()  # the first part on top
    fig.savefig(path, dpi=100)
    plt.close(fig)
