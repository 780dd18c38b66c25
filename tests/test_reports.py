"""course_grading.lms.reports: the summary says what needs the instructor and what came from the cache,
the figure is titled, and a removed student leaves every report."""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib.image
import pytest

from course_grading import grade as grading
from course_grading.lms import reports
from course_grading.lms.intake import Intake, Person, Roster, Submission

MAXIMA = {"wordpiece": 2.0, "mask_tokens": 3.0}
CANVAS_TIME = "submission time unknown: Canvas's export does not record it"
LATE_UNKNOWN = "submission time unknown: no late penalty applied"


def result(
    student: str,
    scores: tuple[float, float] = (2.0, 3.0),
    status: str = grading.GRADED,
    notes: tuple[str, ...] = (CANVAS_TIME, LATE_UNKNOWN),
) -> grading.Result:
    return grading.Result(student, status, scores=dict(zip(MAXIMA, scores)), max_scores=dict(MAXIMA), notes=list(notes))


def section(summary: str, title: str) -> list[str]:
    """The indented lines right under the summary line that starts with ``title``."""
    lines = summary.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title)) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return [line.strip() for line in lines[start:end]]


def test_needing_attention_lists_only_what_needs_it_and_counts_the_rest() -> None:
    """Problem 12: every student had two "time unknown" notes, and all 28 were listed as needing attention."""
    results = [
        result("s001"),
        result(
            "s002",
            scores=(0.0, 3.0),
            notes=(
                CANVAS_TIME,
                "no roster: student id 's002' made from the name 'Zoë' in the export",
                "wordpiece set to 0 by the instructor: copied",
            ),
        ),
        result(
            "s003",
            scores=(0.0, 0.0),
            status=grading.ATTENTION,
            notes=(CANVAS_TIME, "the file is empty", "every part scores 0"),
        ),
        result(
            "s004", notes=(CANVAS_TIME, "read-only cells edited or deleted (test_wordpiece): the originals were graded")
        ),
        result("s005", notes=(CANVAS_TIME, "submitted 2 h late (due 2026-11-20 23:59 UTC): -10% (0.5 points)")),
        grading.Result("s006", grading.NOT_GRADED, notes=["not graded: grader error: the worker died"]),
        grading.Result("s007", "missing", notes=["on the roster, nothing in this export"]),
    ]
    summary = reports.summary(results, list(MAXIMA), [], [])
    attention = section(summary, "needing attention")
    assert "needing attention: 3" in summary
    assert attention == [
        "s003 (needs attention): the file is empty; every part scores 0",
        "s004 (graded): read-only cells edited or deleted (test_wordpiece): the originals were graded",
        "s006 (not graded): not graded: grader error: the worker died",
    ]
    assert section(summary, "missing") == ["s007"]
    # attacks_s: a rejected entry (a classmate's SID typed into Gradescope) is counted among what needs a person
    rejected = ["submission_1, submission_2: each names the student 1815: neither is graded as theirs"]
    with_rejected = reports.summary(results, list(MAXIMA), rejected, [])
    assert "needing attention: 4 (1 rejected entry, listed last)" in with_rejected
    assert section(with_rejected, "rejected entries") == rejected
    only_rejected = reports.summary(results[:1], list(MAXIMA), rejected, [])
    assert "needing attention: 1 (1 rejected entry" in only_rejected
    information = section(summary, "for information")
    assert information[0] == f"{CANVAS_TIME} (5 students)"
    assert (
        f"{LATE_UNKNOWN} (1 student)" in information
        and "wordpiece set to 0 by the instructor: copied (1 student)" in information
    )


@pytest.mark.parametrize(
    "note, expected",
    [
        ("submission time unknown: the file has no time", True),
        ("submission time taken from the file's modification time (the export records none)", True),
        ("matched to the roster by name ('Zoë Ångström'): the Canvas user id 4 is not in its lms_id column", True),
        ("'zoe@uni.edu' is s001 on the roster", True),
        ("Canvas marked it LATE", True),
        ("submitted 3 days late (due 2026-11-20 23:59 UTC): more than 2 days late, scored 0 (-9 points)", True),
        (
            "2 notebooks handed in: the latest is graded (a4_bert-1.ipynb; Canvas's resubmission "
            "number); not graded: a4_bert.ipynb",
            True,
        ),
        (
            "Moodle online text ignored (only uploaded files are graded): "
            "Eve_5_assignsubmission_onlinetext/onlinetext.html",
            True,
        ),
        (
            "2 notebooks handed in: nothing tells which is the latest (a4_bert.ipynb); not graded: a4_bert-1.ipynb",
            False,
        ),
        ("answer cell wordpiece is missing: graded as not answered", False),
        ("a cell ran out of memory", False),
        ("timed out: grading took longer than 60 s in all; every part scores 0", False),
        ("a note nobody classified yet", False),
    ],
)
def test_which_notes_are_informational(note: str, expected: bool) -> None:
    assert reports.informational(note) is expected


def test_a_cached_run_says_none_was_graded(tmp_path: Path) -> None:
    """Problem 15: "28 submissions graded" when all 28 came from the cache."""
    results = [
        result("s001"),
        result("s002"),
        grading.Result("s003", grading.NOT_GRADED, notes=["not graded: grader error: x"]),
    ]
    reports.write_reports(results, MAXIMA, Intake({}, []), tmp_path, "a4_bert", None, None, from_cache={"s001", "s002"})
    assert (
        "0 graded, 2 from the cache (unchanged since they were graded); 1 NOT GRADED"
        in (tmp_path / "summary.txt").read_text()
    )
    reports.write_reports(results, MAXIMA, Intake({}, []), tmp_path, "a4_bert", None, None, from_cache={"s002"})
    assert "1 graded, 1 from the cache" in (tmp_path / "summary.txt").read_text()


def test_the_figure_is_titled_and_its_part_names_do_not_overlap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Problem 24: the per-part labels ran together (``wordpiecemask_tokensmlm_loss``) and there was no title."""
    import matplotlib.pyplot as plt

    drawn: list[plt.Figure] = []
    monkeypatch.setattr(plt, "close", drawn.append)  # keep the figure to measure it
    parts = {"wordpiece": 2.0, "mask_tokens": 3.0, "mlm_loss": 2.0, "encoder_block": 3.0, "pair_inputs": 2.0}
    results = [
        grading.Result(f"s{i}", grading.GRADED, scores=dict.fromkeys(parts, 1.0), max_scores=parts) for i in range(4)
    ]
    reports._figure(results, list(parts), tmp_path / "summary.png", "a4_bert")
    (figure,) = drawn
    assert figure.get_suptitle() == "a4_bert: 4 submissions graded"
    renderer = figure.canvas.get_renderer()
    boxes = [label.get_window_extent(renderer) for label in figure.axes[1].get_yticklabels()]
    assert [label.get_text() for label in figure.axes[1].get_yticklabels()] == list(parts)
    assert len(boxes) == 5 and not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))
    assert matplotlib.image.imread(tmp_path / "summary.png").shape[1] >= 900
    monkeypatch.undo()
    plt.close(figure)


def test_a_removed_student_leaves_every_report(tmp_path: Path) -> None:
    """Problem 22: after ``course remove``, OUT still listed the student until the next ``grade``."""
    roster = Roster([Person("s001", "Ann Lee", "ann@uni.edu", "101"), Person("s002", "Bo Park", "bo@uni.edu", "102")])
    taken = Intake(
        {
            s: Submission(s, tmp_path / f"{s}.ipynb", f"{name}_{pid}_assignsubmission_file/a4_bert.ipynb", None, "none")
            for s, name, pid in (("s001", "Ann Lee", 500101), ("s002", "Bo Park", 500102))
        },
        [],
    )
    reports.write_reports([result("s001"), result("s002")], MAXIMA, taken, tmp_path, "a4_bert", roster, "77")
    for kind, suffix in (("feedback", "html"), ("autograded", "ipynb"), ("logs", "log")):
        (tmp_path / kind).mkdir()
        for student in ("s001", "s002"):
            (tmp_path / kind / f"{student}.{suffix}").write_text("x")
    files = ("grades.csv", "canvas_import.csv", "moodle_import.csv", "moodle_worksheet.csv")
    before = {name: (tmp_path / name).read_text(encoding="utf-8-sig") for name in files}
    assert all("Bo Park" in text for text in before.values())
    changed = reports.remove_student(tmp_path, "s002")
    assert changed == [
        "feedback/s002.html",
        "autograded/s002.ipynb",
        "logs/s002.log",
        "grades.csv and the LMS import files",
    ]
    for name in files:
        text = (tmp_path / name).read_text(encoding="utf-8-sig")
        assert "Bo Park" not in text and "Ann Lee" in text, name
    with (tmp_path / "canvas_import.csv").open(encoding="utf-8-sig") as f:
        assert next(csv.reader(f))[-1] == "a4_bert (77)"
    assert (tmp_path / "feedback" / "s001.html").exists() and not (tmp_path / "feedback" / "s002.html").exists()
    assert (tmp_path / "summary.txt").read_text().startswith("NOTE: s002 was removed")
    assert reports.remove_student(tmp_path, "s002") == []
