"""Due dates, extensions and late penalties: pure functions, and a record of them in nbgrader's gradebook.

A :class:`LatePolicy` holds an assignment's due date, each student's own due date where they have an
extension, a penalty per started day late (a fraction of the points earned), a grace period and a
cut-off after which a submission scores 0. :meth:`LatePolicy.assess` turns a submission time into
a :class:`LateAssessment`: how late, how many days count, how many points come off, and a note for the
student.

Dates given as text (:meth:`LatePolicy.from_options`) are ISO 8601: ``2026-11-20``,
``2026-11-20 23:59``, ``2026-11-20T23:59:00+01:00``, ``...Z``. A date without a time means the end of
that day (23:59:59); a time without a zone is in **this machine's local zone**.

How lateness is counted: ``late_by`` is the time after the student's due date (their extension's, if
they have one). The grace period is then forgiven: a submission late by no more than the grace costs
nothing, and ``days_late`` counts the started days after the grace (1 second to 24 hours past the
grace is 1 day). Each of those days takes ``penalty_per_day`` of the points earned, never more than
all of them; later than ``max_days`` days past the grace, the submission scores 0. An unknown
submission time is never penalised: the note says so.

Relation to nbgrader's own mechanism (nbgrader 0.9.6)
-----------------------------------------------------
nbgrader keeps an assignment's ``duedate`` (``api.Assignment``), a per-submission ``extension``
(``api.SubmittedAssignment``, a time interval added to the due date: ``SubmittedAssignment.duedate``)
and the submission's ``timestamp`` (read by ``nbgrader autograde`` from ``timestamp.txt``), all as
naive UTC. ``SubmittedAssignment.total_seconds_late`` is ``timestamp - (duedate + extension)``. During
autograding its ``AssignLatePenalties`` preprocessor asks the configured ``LateSubmissionPlugin`` for
each notebook's penalty from ``(student_id, score, total_seconds_late)``; the built-in plugin knows
only ``none`` (the default) and ``zero``, with no grace period or per-day fraction.

A custom nbgrader plugin is not a natural fit here: nbgrader instantiates it by class through its
configuration (no way to hand it a policy with per-student dates), it sees only seconds past the
extended due date, and this course grades each submission in a scratch nbgrader course of its own.
So the course computes penalties itself with :meth:`LatePolicy.assess`, leaves nbgrader's plugin at
``none`` (no double penalty), and :func:`record_in_gradebook` writes the policy into a gradebook
afterwards so that nbgrader's own records agree: the assignment's ``duedate``, the student's
``extension`` (their due date minus the assignment's), the submission ``timestamp`` (so
``total_seconds_late`` equals ``late_by``), and each notebook's ``late_submission_penalty`` (so
``nbgrader export`` and the formgrader show the same penalty). nbgrader has no grace period: its
``total_seconds_late`` counts the grace as late, only the recorded penalty honours it.

Submission times from a list
----------------------------
Canvas and Moodle exports record no submission time (:mod:`course_grading.lms.intake`), so
:func:`read_times` (``course grade --times CSV``) reads them from a CSV of one of two shapes:

* a header naming ``student`` and ``time`` (or ``submitted at``): ``student`` is a course id, a roster
  email or lms_id, or a Canvas user id; ``time`` is ISO 8601 as above (Canvas's submissions API gives
  ``submitted_at`` so: ``2026-11-20T22:59:00Z``). Canvas's gradebook export holds no submission times.
* Moodle's grading worksheet (Assignment > Submissions > "Download grading worksheet"): its
  ``Identifier`` ("Participant 123456", the participant id of the export's folders) and ``Last
  modified (submission)`` ("Friday, 20 November 2026, 11:59 PM", Moodle's default English format,
  in the time zone of the Moodle user who downloaded it: read in this machine's zone, like ``--due``).

An empty time, or Moodle's ``-`` (no submission), leaves the time unknown.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

__all__ = [
    "LateAssessment",
    "LatePolicy",
    "SubmissionTimes",
    "duration_text",
    "parse_duration",
    "parse_penalty",
    "parse_when",
    "points_text",
    "read_extensions",
    "read_times",
    "record_in_gradebook",
]

DAY = timedelta(days=1)
# by first letter
DURATION_UNITS = {"d": DAY, "h": timedelta(hours=1), "m": timedelta(minutes=1), "s": timedelta(seconds=1)}
DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(days?|d|hours?|h|minutes?|mins?|m|seconds?|secs?|s)\b", re.IGNORECASE)
PENALTY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%?)\s*(?:/\s*(?:day|d))?\s*\Z", re.IGNORECASE)


MOODLE_TIME = "%A, %d %B %Y, %I:%M %p"  # Moodle's strftimedaydatetime in English: "Friday, 20 November 2026, 11:59 PM"
MOODLE_WORKSHEET = ("identifier", "last modified (submission)")
TIME_COLUMNS = ("time", "submitted at", "submitted_at", "submitted")


@dataclass(frozen=True)
class SubmissionTimes:
    """When each submission was handed in, from a list (:func:`read_times`): by student (a course id,
    email or LMS user id, any case) or by Moodle participant id."""

    source: Path
    by_student: dict[str, datetime] = field(default_factory=dict)  # keys casefolded
    by_participant: dict[str, datetime] = field(default_factory=dict)  # Moodle participant id (digits)

    def find(self, keys: list[str], participants: list[str]) -> tuple[str, datetime] | None:
        """The first of ``keys`` (then of the Moodle ``participants``) the list has, and its time."""
        for key in keys:
            if key.casefold() in self.by_student:
                return key.casefold(), self.by_student[key.casefold()]
        for participant in participants:
            if participant in self.by_participant:
                return participant, self.by_participant[participant]
        return None

    def unused(self, used: set[str]) -> list[str]:
        """The list's students that are not in ``used`` (keys :meth:`find` returned), sorted."""
        return sorted(set(self.by_student) - used) + [
            f"Participant {p}" for p in sorted(set(self.by_participant) - used)
        ]


@dataclass(frozen=True)
class LateAssessment:
    """How late one submission was and what it costs."""

    late_by: timedelta  # past the student's due date; zero if on time or unknown
    days_late: int  # started days after the grace period
    penalty: float  # points taken off (never more than earned)
    note: str  # for the student; "" if on time


@dataclass(frozen=True)
class LatePolicy:
    """An assignment's due date, per-student extensions and late penalty."""

    due: datetime  # timezone-aware
    extensions: dict[str, datetime] = field(default_factory=dict)  # per student: their own due date
    penalty_per_day: float = 0.0  # fraction of the earned points lost per started day late (e.g. 0.1)
    grace: timedelta = timedelta(0)
    max_days: int | None = None  # later than this many days (after the grace): scores 0

    def __post_init__(self) -> None:
        for who, when in [("the due date", self.due)] + [(f"{s}'s extension", d) for s, d in self.extensions.items()]:
            if when.tzinfo is None:
                raise ValueError(f"{who} ({when}) has no time zone")
        if not 0 <= self.penalty_per_day <= 1:
            raise ValueError(f"the penalty per day must be between 0 and 1 (100%), not {self.penalty_per_day}")
        if self.grace < timedelta(0):
            raise ValueError(f"the grace period cannot be negative ({self.grace})")
        if self.max_days is not None and self.max_days < 0:
            raise ValueError(f"max_days cannot be negative ({self.max_days})")

    @classmethod
    def from_options(
        cls, due: str, extensions: Path | None, penalty: str | None, grace: str | None, max_days: int | None
    ) -> LatePolicy:
        """A policy from command-line text: ISO due date, extensions CSV (``student,due``), penalty
        ("10%/day", "10%", "0.1"), grace ("15min", "2h", "1d 2h"). Raises ValueError naming the bad value."""
        return cls(
            due=parse_when(due, "the due date"),
            extensions=read_extensions(extensions) if extensions else {},
            penalty_per_day=parse_penalty(penalty) if penalty else 0.0,
            grace=parse_duration(grace, "the grace period") if grace else timedelta(0),
            max_days=max_days,
        )

    def due_for(self, student: str) -> datetime:
        """The student's due date: their extension's, else the assignment's."""
        return self.extensions.get(student, self.due)

    def assess(self, student: str, submitted_at: datetime | None, earned: float) -> LateAssessment:
        """What submitting at ``submitted_at`` costs ``student``, who earned ``earned`` points."""
        if submitted_at is None:
            return LateAssessment(timedelta(0), 0, 0.0, "submission time unknown: no late penalty applied")
        if submitted_at.tzinfo is None:
            raise ValueError(f"the submission time {submitted_at} has no time zone")
        due = self.due_for(student)
        late_by = max(submitted_at - due, timedelta(0))
        if not late_by:
            return LateAssessment(late_by, 0, 0.0, "")
        whose = ", extension for this student" if student in self.extensions else ""
        zone = due.tzname() or due.strftime("%z")
        when = f"submitted {duration_text(late_by)} late (due {due:%Y-%m-%d %H:%M} {zone}{whose})"
        past_grace = late_by - self.grace
        if past_grace <= timedelta(0):
            return LateAssessment(
                late_by, 0, 0.0, f"{when}: within the {duration_text(self.grace)} grace period, no penalty"
            )
        days = math.ceil(past_grace / DAY)
        earned = max(earned, 0.0)
        if self.max_days is not None and past_grace > self.max_days * DAY:
            return LateAssessment(
                late_by,
                days,
                earned,
                f"{when}: more than {self.max_days} days late, scored 0 (-{points_text(earned)} points)",
            )
        fraction = min(1.0, self.penalty_per_day * days)
        if not fraction:
            return LateAssessment(late_by, days, 0.0, f"{when}: no penalty")
        penalty = min(earned, round(earned * fraction, 6))
        return LateAssessment(late_by, days, penalty, f"{when}: -{fraction * 100:g}% ({points_text(penalty)} points)")


# ------------------------------------------------------------------------------------ parsing


def parse_when(text: str, what: str) -> datetime:
    """An ISO 8601 date or date and time; a date alone is the end of that day, no zone is local time."""
    text = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            when = datetime.combine(date.fromisoformat(text), time(23, 59, 59))
        else:
            when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"{what} {text!r} is not an ISO date like 2026-11-20 or 2026-11-20 23:59 or 2026-11-20T23:59+01:00"
        ) from None
    return when if when.tzinfo else when.astimezone()


def parse_penalty(text: str) -> float:
    """The fraction lost per day: "10%/day", "10%" and "0.1" are all 0.1."""
    match = PENALTY.match(text)
    if not match:
        raise ValueError(f"the penalty {text!r} is not like 10%/day or 0.1")
    value = float(match[1]) / (100 if match[2] else 1)
    if value > 1:
        raise ValueError(f"the penalty {text!r} is more than 100% a day")
    return value


def parse_duration(text: str, what: str) -> timedelta:
    """A duration like "15min", "2h", "1d 2h", "30s" or "0"."""
    if text.strip() == "0":
        return timedelta(0)
    parts = DURATION.findall(text)
    if not parts or DURATION.sub("", text).strip():
        raise ValueError(f"{what} {text!r} is not a duration like 15min, 2h or 1d 2h")
    return sum((float(number) * DURATION_UNITS[unit[0].lower()] for number, unit in parts), timedelta(0))


def read_extensions(path: Path) -> dict[str, datetime]:
    """Each student's own due date, from a CSV with a header naming ``student`` and ``due``."""
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
        if not {"student", "due"} <= columns.keys():
            raise ValueError(
                f"{path}, line 1: the header must name 'student' and 'due' (found {', '.join(columns) or 'nothing'})"
            )
        extensions: dict[str, datetime] = {}
        for row in reader:
            student, due = ((row.get(columns[key]) or "").strip() for key in ("student", "due"))
            where = f"{path}, line {reader.line_num}"
            if not student:
                raise ValueError(f"{where}: no student")
            if student in extensions:
                raise ValueError(f"{where}: {student} has a second extension")
            extensions[student] = parse_when(due, f"{where}: the due date")
    return extensions


def read_times(path: Path) -> SubmissionTimes:
    """Submission times from a ``student, time`` CSV or Moodle's grading worksheet (see the module
    docstring). Raises ValueError naming the line: an unknown header, a time that cannot be read, a
    student given twice."""
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
        moodle = all(c in columns for c in MOODLE_WORKSHEET)
        when_column = (
            columns[MOODLE_WORKSHEET[1]] if moodle else next((columns[c] for c in TIME_COLUMNS if c in columns), None)
        )
        who_column = columns[MOODLE_WORKSHEET[0]] if moodle else columns.get("student")
        if who_column is None or when_column is None:
            raise ValueError(
                f"{path}, line 1: the header must name 'student' and 'time', or be Moodle's grading worksheet with "
                f"'Identifier' and 'Last modified (submission)' (found {', '.join(columns) or 'nothing'})"
            )
        times: dict[str, datetime] = {}
        seen: dict[str, int] = {}
        for row in reader:
            where = f"{path}, line {reader.line_num}"
            who, text = ((row.get(column) or "").strip() for column in (who_column, when_column))
            key = _participant(who, where) if moodle else who.casefold()
            if not key:
                raise ValueError(f"{where}: no student")
            if key in seen:
                raise ValueError(f"{where}: {who} is already on line {seen[key]}")
            seen[key] = reader.line_num
            if text not in ("", "-"):
                times[key] = _moodle_time(text, where) if moodle else parse_when(text, f"{where}: the time")
    return SubmissionTimes(path, {} if moodle else times, times if moodle else {})


def _participant(identifier: str, where: str) -> str:
    """The participant id in a Moodle worksheet's identifier ("Participant 123456" -> "123456")."""
    match = re.fullmatch(r"\D*?(\d+)", identifier)
    if match is None:
        raise ValueError(f"{where}: the identifier {identifier!r} is not like 'Participant 123456'")
    return match[1]


def _moodle_time(text: str, where: str) -> datetime:
    """A time as Moodle's worksheet writes it ("Friday, 20 November 2026, 11:59 PM"), or ISO 8601; in this machine's
    zone."""
    try:
        return datetime.strptime(" ".join(text.split()), MOODLE_TIME).astimezone()
    except ValueError:
        pass
    try:
        return parse_when(text, "")
    except ValueError:
        raise ValueError(
            f"{where}: the time {text!r} is neither like 'Friday, 20 November 2026, 11:59 PM' (Moodle, in "
            "English) nor ISO like 2026-11-20T23:59"
        ) from None


# --------------------------------------------------------------------------------- formatting


def duration_text(span: timedelta) -> str:
    """A duration in words, to the minute: "1 day 3 h", "2 days", "3 h 5 min", "45 s"."""
    seconds = round(span.total_seconds())
    if seconds < 60:
        return f"{seconds} s"
    days, rest = divmod(seconds // 60, 24 * 60)
    hours, minutes = divmod(rest, 60)
    words = [
        f"{days} day{'s' if days != 1 else ''}" if days else "",
        f"{hours} h" if hours else "",
        f"{minutes} min" if minutes else "",
    ]
    return " ".join(w for w in words if w)


def points_text(points: float) -> str:
    """Points to two decimals at most: 1.2, 3, 0.33."""
    return f"{points:.2f}".rstrip("0").rstrip(".")


# --------------------------------------------------------------------------------- nbgrader


def record_in_gradebook(
    gradebook: Any, assignment: str, student: str, policy: LatePolicy, submitted_at: datetime | None
) -> LateAssessment:
    """Make nbgrader's records of one submission agree with ``policy``; return the submission's assessment.

    Sets the assignment's ``duedate``, the submission's ``extension`` and ``timestamp`` (left alone when
    ``submitted_at`` is None), and each notebook's ``late_submission_penalty``. Call it after autograding:
    ``nbgrader autograde`` resets the penalties. ``gradebook`` is an open ``nbgrader.api.Gradebook``."""
    gradebook.update_or_create_assignment(assignment, duedate=policy.due)
    gradebook.update_or_create_student(student)
    extra = {"timestamp": submitted_at} if submitted_at is not None else {}
    submission = gradebook.update_or_create_submission(assignment, student, **extra)
    own_due = policy.due_for(student)
    submission.extension = own_due - policy.due if own_due != policy.due else None
    for notebook in submission.notebooks:
        penalty = policy.assess(student, submitted_at, notebook.score).penalty
        notebook.late_submission_penalty = penalty or None
    gradebook.db.commit()
    return policy.assess(student, submitted_at, submission.score)
