"""course_grading.lms.late: due dates, extensions, grace, per-day penalties, cut-off; nbgrader's records."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from course_grading.lms.late import (
    LatePolicy,
    duration_text,
    parse_duration,
    parse_penalty,
    parse_when,
    read_times,
    record_in_gradebook,
)

DUE = datetime(2026, 11, 20, 23, 59, 0, tzinfo=UTC)
POLICY = LatePolicy(
    due=DUE,
    extensions={"ext": datetime(2026, 11, 22, 23, 59, 0, tzinfo=UTC)},
    penalty_per_day=0.1,
    grace=timedelta(minutes=15),
    max_days=3,
)


def late(**span: float) -> datetime:
    return DUE + timedelta(**span)


# --------------------------------------------------------------------------------- arithmetic


@pytest.mark.parametrize(
    ("submitted", "days", "penalty"),
    [
        (DUE - timedelta(hours=5), 0, 0.0),  # early
        (DUE, 0, 0.0),  # on time to the second
        (late(seconds=1), 0, 0.0),  # late, but within the grace
        (late(minutes=15), 0, 0.0),  # the grace's last second
        (late(minutes=15, seconds=1), 1, 1.2),  # one second past the grace: a started day
        (late(days=1, minutes=15), 1, 1.2),  # a whole day past the grace is still day 1
        (late(days=1, minutes=15, seconds=1), 2, 2.4),
        (late(days=3, minutes=15), 3, 3.6),  # exactly max_days past the grace: still penalised by day
        (late(days=3, minutes=15, seconds=1), 4, 12.0),  # later than max_days: everything
    ],
)
def test_penalty_at_the_boundaries(submitted: datetime, days: int, penalty: float) -> None:
    result = POLICY.assess("alice", submitted, 12.0)
    assert result.days_late == days
    assert result.penalty == pytest.approx(penalty)
    assert result.late_by == max(submitted - DUE, timedelta(0))
    assert (result.note == "") == (submitted <= DUE)


def test_note_names_the_delay_due_date_extension_and_points() -> None:
    result = POLICY.assess("ext", datetime(2026, 11, 24, 3, 0, 0, tzinfo=UTC), 12.0)
    assert result.late_by == timedelta(days=1, hours=3, minutes=1)
    assert (
        result.note
        == "submitted 1 day 3 h 1 min late (due 2026-11-22 23:59 UTC, extension for this student): -20% (2.4 points)"
    )
    assert POLICY.assess("ext", late(days=2), 12.0).penalty == 0  # before their own due date
    grace = POLICY.assess("alice", late(minutes=10), 12.0)
    assert grace.note == "submitted 10 min late (due 2026-11-20 23:59 UTC): within the 15 min grace period, no penalty"
    cut = POLICY.assess("alice", late(days=5), 7.5)
    assert (cut.penalty, cut.note.endswith("more than 3 days late, scored 0 (-7.5 points)")) == (7.5, True)


def test_penalty_never_exceeds_what_was_earned() -> None:
    steep = LatePolicy(DUE, penalty_per_day=0.4)
    # 3 days x 40% capped at 100%
    assert steep.assess("bob", late(days=2, hours=1), 10.0).penalty == pytest.approx(10.0)
    assert steep.assess("bob", late(days=1), 0.0).penalty == 0.0


def test_unknown_time_is_not_penalised() -> None:
    result = POLICY.assess("alice", None, 12.0)
    assert (result.penalty, result.days_late, result.late_by) == (0.0, 0, timedelta(0))
    assert "unknown" in result.note and "no late penalty" in result.note


def test_no_penalty_policy_still_reports_lateness() -> None:
    result = LatePolicy(DUE).assess("bob", late(hours=2), 5.0)
    assert (result.penalty, result.days_late) == (0.0, 1)
    assert result.note == "submitted 2 h late (due 2026-11-20 23:59 UTC): no penalty"


def test_times_in_other_zones_compare_as_instants() -> None:
    paris = timezone(timedelta(hours=1))
    assert POLICY.assess("alice", datetime(2026, 11, 21, 0, 59, 0, tzinfo=paris), 12.0).late_by == timedelta(0)
    with pytest.raises(ValueError, match="no time zone"):
        POLICY.assess("alice", datetime(2026, 11, 21), 12.0)
    with pytest.raises(ValueError, match="no time zone"):
        LatePolicy(datetime(2026, 11, 20))


# ------------------------------------------------------------------------------------ parsing


def test_from_options(tmp_path: Path) -> None:
    (tmp_path / "ext.csv").write_text("student,due,reason\nalice,2026-11-25,ill\nbob,2026-11-23T12:00+01:00,\n")
    policy = LatePolicy.from_options("2026-11-20T23:59Z", tmp_path / "ext.csv", "10%/day", "15min", 3)
    assert policy.due == DUE
    assert policy.extensions == {
        "alice": datetime(2026, 11, 25, 23, 59, 59).astimezone(),  # a date alone: the end of the day, local time
        "bob": datetime(2026, 11, 23, 11, 0, tzinfo=UTC),
    }
    assert (policy.penalty_per_day, policy.grace, policy.max_days) == (0.1, timedelta(minutes=15), 3)
    bare = LatePolicy.from_options("2026-11-20 23:59", None, None, None, None)
    assert bare.due == datetime(2026, 11, 20, 23, 59).astimezone() and bare.due.tzinfo is not None
    assert (bare.extensions, bare.penalty_per_day, bare.grace, bare.max_days) == ({}, 0.0, timedelta(0), None)


@pytest.mark.parametrize(
    ("text", "value"),
    [("10%/day", 0.1), ("10%", 0.1), ("0.1", 0.1), ("0.25/day", 0.25), ("5 % / day", 0.05), ("0", 0.0)],
)
def test_parse_penalty(text: str, value: float) -> None:
    assert parse_penalty(text) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("15min", timedelta(minutes=15)),
        ("15 minutes", timedelta(minutes=15)),
        ("2h", timedelta(hours=2)),
        ("1d 2h", timedelta(days=1, hours=2)),
        ("30s", timedelta(seconds=30)),
        ("0", timedelta(0)),
    ],
)
def test_parse_duration(text: str, value: timedelta) -> None:
    assert parse_duration(text, "the grace") == value


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: parse_penalty("ten percent"), "the penalty 'ten percent' is not like 10%/day"),
        (lambda: parse_penalty("150%"), "more than 100%"),
        (
            lambda: parse_duration("15 fortnights", "the grace period"),
            "the grace period '15 fortnights' is not a duration",
        ),
        (lambda: parse_when("20/11/2026", "the due date"), "the due date '20/11/2026' is not an ISO date"),
        (lambda: LatePolicy.from_options("2026-11-20", None, None, None, -1), "max_days cannot be negative"),
        (lambda: LatePolicy.from_options("2026-11-20", None, "-0.1", None, None), "is not like 10%/day"),
    ],
)
def test_bad_options_are_named(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,due\nalice,2026-11-25\n", "line 1: the header must name 'student' and 'due'"),
        ("student,due\nalice,2026-11-25\nalice,2026-11-26\n", "line 3: alice has a second extension"),
        ("student,due\nalice,next week\n", "line 2: the due date 'next week' is not an ISO date"),
        ("student,due\n,2026-11-25\n", "line 2: no student"),
    ],
)
def test_bad_extension_files_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "ext.csv").write_text(text)
    with pytest.raises(ValueError, match=message):
        LatePolicy.from_options("2026-11-20", tmp_path / "ext.csv", None, None, None)


def test_duration_text() -> None:
    assert [duration_text(timedelta(seconds=s)) for s in (45, 600, 3600 * 26, 86400 * 2 + 300)] == [
        "45 s",
        "10 min",
        "1 day 2 h",
        "2 days 5 min",
    ]


# ----------------------------------------------------------------------------------- nbgrader


@pytest.mark.slow  # creating a gradebook runs alembic: seconds
def test_record_in_gradebook_makes_nbgraders_records_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nbgrader.api import Gradebook

    # nbgrader runs alembic
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))

    with Gradebook("sqlite:///" + str(tmp_path / "gb.db")) as gb:
        gb.add_assignment("a1")
        gb.add_notebook("a1", "a1")
        gb.add_grade_cell("q1", "a1", "a1", max_score=12, cell_type="code")
        gb.add_student("ext")
        gb.add_submission("a1", "ext")
        gb.find_grade("q1", "a1", "a1", "ext").auto_score = 10
        gb.db.commit()
        submitted = datetime(2026, 11, 24, 3, 0, 0, tzinfo=timezone(timedelta(hours=1)))
        result = record_in_gradebook(gb, "a1", "ext", POLICY, submitted)
        assert result == POLICY.assess("ext", submitted, 10.0)
        assert result.penalty == pytest.approx(2.0) and result.days_late == 2

    with Gradebook("sqlite:///" + str(tmp_path / "gb.db")) as gb:  # what nbgrader reads back
        assert gb.find_assignment("a1").duedate == datetime(2026, 11, 20, 23, 59)  # naive UTC, as nbgrader keeps it
        submission = gb.find_submission("a1", "ext")
        assert submission.extension == timedelta(days=2)
        assert submission.timestamp == datetime(2026, 11, 24, 2, 0)
        assert submission.total_seconds_late == result.late_by.total_seconds()
        assert submission.late_submission_penalty == pytest.approx(2.0)
        assert gb.find_submission_notebook("a1", "a1", "ext").late_submission_penalty == pytest.approx(2.0)

    with Gradebook("sqlite:///" + str(tmp_path / "gb.db")) as gb:  # on time, unknown time, no extension
        gb.add_student("bob")
        assert record_in_gradebook(gb, "a1", "bob", POLICY, DUE).penalty == 0
        submission = gb.find_submission("a1", "bob")
        assert (submission.extension, submission.total_seconds_late, submission.late_submission_penalty) == (None, 0, 0)
        record_in_gradebook(gb, "a1", "carol", POLICY, None)
        assert gb.find_submission("a1", "carol").timestamp is None


# ----------------------------------------------------------------------- submission times (--times)


def test_read_times_from_a_student_time_list(tmp_path: Path) -> None:
    path = tmp_path / "times.csv"
    path.write_text(
        "Student,Submitted at,comment\nann,2026-11-20T22:59:00Z,\nBob@Uni.edu,2026-11-21 00:30,\n12345,,no submission\n"
    )
    times = read_times(path)
    assert times.by_student == {
        "ann": datetime(2026, 11, 20, 22, 59, tzinfo=UTC),
        "bob@uni.edu": datetime(2026, 11, 21, 0, 30).astimezone(),
    }
    assert times.by_participant == {}
    assert times.find(["nobody", "BOB@uni.edu"], []) == ("bob@uni.edu", times.by_student["bob@uni.edu"])
    assert times.find(["nobody"], ["1"]) is None
    assert times.unused({"ann"}) == ["bob@uni.edu"]


def test_read_times_from_moodles_grading_worksheet(tmp_path: Path) -> None:
    """The worksheet Moodle's assignment offers ("Download grading worksheet"), as it writes it."""
    path = tmp_path / "worksheet.csv"
    path.write_text(
        '\ufeffIdentifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed","Last '
        'modified (submission)","Online text","Last modified (grade)","Feedback comments"\n'
        '"Participant 500101","Zoë Müller",zm@uni.edu,"Submitted for grading",,12.00,Yes,"Friday, '
        '20 November 2026, 11:58 PM",,-,\n'
        '"Participant 500102","John Smith",js@uni.edu,"Submitted for grading - 1 hour 2 mins '
        'late",,12.00,Yes,"Saturday, 21 November 2026, 1:01 AM",,-,\n'
        '"Participant 500103","Kim",kim@uni.edu,"No submission",,12.00,Yes,-,,-,\n',
        encoding="utf-8",
    )
    times = read_times(path)
    assert times.by_student == {}
    assert times.by_participant == {
        "500101": datetime(2026, 11, 20, 23, 58).astimezone(),
        "500102": datetime(2026, 11, 21, 1, 1).astimezone(),
    }
    assert times.find(["zm"], ["500102"]) == ("500102", datetime(2026, 11, 21, 1, 1).astimezone())
    assert times.unused({"500101"}) == ["Participant 500102"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "who,when\nann,2026-11-20\n",
            "line 1: the header must name 'student' and 'time', or be Moodle's grading worksheet",
        ),
        ("student,time\nann,yesterday\n", "line 2: the time 'yesterday' is not an ISO date"),
        ("student,time\nann,2026-11-20\nANN,2026-11-21\n", "line 3: ANN is already on line 2"),
        ("student,time\n,2026-11-20\n", "line 2: no student"),
        (
            "Identifier,Last modified (submission)\nParticipant 1,Vendredi 20 novembre 2026\n",
            "line 2: the time 'Vendredi 20 novembre 2026' is neither like 'Friday, 20 November 2026, 11:59 PM'",
        ),
        (
            "Identifier,Last modified (submission)\nsomeone,-\n",
            "line 2: the identifier 'someone' is not like 'Participant 123456'",
        ),
    ],
)
def test_bad_times_files_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "times.csv").write_text(text)
    with pytest.raises(ValueError, match=message):
        read_times(tmp_path / "times.csv")
