"""course_grading.text: the one escaping module every report's text goes through.

The functions themselves (each class of character, the formula prefixes, numbers left alone), and
the real writers (grades.csv, the LMS files, Gradescope's import, summary.txt, the feedback of an
unreadable submission, results.json, the terminal) fed a roster and results that hold ESC, BEL, CR,
U+202E and a ``=HYPERLINK(...)`` email: none of these reaches a written file or the terminal raw."""

from __future__ import annotations

import ast
import csv
import io
import json
import sys
import unicodedata
from pathlib import Path

import nbformat
import pytest

from course_grading import cli
from course_grading.check import PartResult, Report
from course_grading.gradescope import results_json
from course_grading.lms import reports
from course_grading.lms.gradescope_reader import write_import
from course_grading.lms.intake import Intake, Person, Roster, Submission
from course_grading.lms.results import ATTENTION, GRADED, Result
from course_grading.notebook.gradebook import name_parts
from course_grading.text import FORMULA_STARTS, HIDDEN, continued, csv_cell, html_text, shown, source_lines

ESC, BEL, CR, RLO = "\x1b", "\x07", "\r", "\u202e"
HOSTILE = (ESC, BEL, CR, RLO)


# ------------------------------------------------------------------------------------ shown


@pytest.mark.parametrize(
    "char, escape",
    [
        ("\x00", "\\x00"), (BEL, "\\x07"), ("\x08", "\\x08"), ("\x0b", "\\x0b"), ("\x0c", "\\x0c"),  # C0
        (ESC, "\\x1b"), ("\x1f", "\\x1f"),
        ("\n", "\\n"), ("\t", "\\t"), (CR, "\\r"),
        ("\x7f", "\\x7f"), ("\x85", "\\x85"), ("\x9b", "\\x9b"),  # DEL; C1: next line, the one-character CSI
        # bidi embeddings, overrides, isolates
        *((chr(c), f"\\u{c:04x}") for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]),
        ("\u200e", "\\u200e"), ("\u200f", "\\u200f"), ("\u061c", "\\u061c"),  # bidi marks
        ("\u200b", "\\u200b"), ("\u200c", "\\u200c"), ("\u200d", "\\u200d"), ("\u2060", "\\u2060"),  # zero-width
        ("\ufeff", "\\ufeff"),
        ("\u2028", "\\u2028"), ("\u2029", "\\u2029"),  # line and paragraph separators
        ("\ud800", "\\ud800"), ("\udcff", "\\udcff"),  # lone surrogates (a file name read with surrogateescape)
        ("\u00ad", "\\xad"), ("\U000e0041", "\\U000e0041"),  # soft hyphen; a tag character (invisible text)
    ],
)  # fmt: skip
def test_each_hidden_character_is_written_as_a_visible_escape(char: str, escape: str) -> None:
    assert shown(f"a{char}b") == f"a{escape}b"
    assert HIDDEN.search(shown(char * 3)) is None


def test_lines_keeps_newlines_and_tabs_only() -> None:
    assert shown("one\n\ttwo\r\x1b[2J\u202e", lines=True) == "one\n\ttwo\\r\\x1b[2J\\u202e"
    assert shown("one\n\ttwo") == "one\\n\\ttwo"  # one line: a field, a line of the summary


def test_what_is_hidden_is_every_control_format_separator_and_surrogate_of_this_pythons_unicode() -> None:
    hidden = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp", "Cs")}
    missed = sorted(hex(c) for c in hidden if not HIDDEN.fullmatch(chr(c)))
    assert not missed, f"course_grading.text.HIDDEN lacks {missed} (a newer Unicode?): add them"


@pytest.mark.parametrize(
    "text",
    [
        "Zoë Müller",
        "王小明",
        "حداد، سارة",
        "Анна Иванова",
        "Nguyễn Văn An",
        "민준 김",
        "O'Brien-Smith",
        "a\u00a0b",
        "tab\\t and \\x1b",
        "🎓 grad",
    ],
)
def test_ordinary_text_in_any_script_is_left_as_it_is(text: str) -> None:
    assert shown(text) == text and shown(text, lines=True) == text


def test_shown_holds_nothing_to_escape_so_a_second_pass_changes_nothing() -> None:
    once = shown("\x1b]0;x\x07\r\u202e\ud800\n")
    assert shown(once) == once and HIDDEN.search(once) is None


# --------------------------------------------------------------------------------- csv_cell


@pytest.mark.parametrize("start", [*FORMULA_STARTS, "\t", "\r"])
def test_a_formula_start_is_neutralised_with_an_apostrophe(start: str) -> None:
    cell = csv_cell(f'{start}HYPERLINK("http://evil.example","x")')
    assert cell.startswith("'") and HIDDEN.search(cell) is None
    assert csv_cell(f"  {start}1+1").startswith("'")  # after leading whitespace too


def test_csv_cells_of_text() -> None:
    assert (
        csv_cell('=HYPERLINK("http://evil.example","x")@uni.edu') == '\'=HYPERLINK("http://evil.example","x")@uni.edu'
    )
    assert csv_cell("-1.5") == "'-1.5"  # text is text: only a number is written as a number
    assert csv_cell("Ann \x1b[31mLee\x07") == "Ann \\x1b[31mLee\\x07"
    assert csv_cell("a\r\nb") == "a\\r\\nb"  # one line
    assert csv_cell("ann@uni.edu") == "ann@uni.edu" and csv_cell("Smith, John") == "Smith, John" and csv_cell("") == ""
    assert csv_cell("\x1b=1") == "\\x1b=1"  # escaped first: a backslash starts no formula


@pytest.mark.parametrize(
    "value, cell",
    [
        (-1.5, "-1.5"),
        (3.0, "3"),
        (0.0, "0"),
        (-2, "-2"),
        (10, "10"),
        (3.33, "3.33"),
        (1e-7, "1e-07"),
        (None, ""),
        (True, "True"),
    ],
)
def test_numbers_are_written_as_numbers(value: float | None, cell: str) -> None:
    assert csv_cell(value) == cell


def test_html_text_escapes_markup_and_hidden_characters() -> None:
    assert html_text('<b class="x">a & b</b>\x1b\n') == "&lt;b class=&quot;x&quot;&gt;a &amp; b&lt;/b&gt;\\x1b\n"


# ------------------------------------------------------------------------- the real writers


def hostile_batch(tmp_path: Path) -> tuple[list[Result], Intake, Roster]:
    """Three students whose roster rows, notes, file names and rejected entries hold ESC, BEL, CR,
    U+202E, a formula for an email and one for a name; from a Moodle export (so the worksheet is written)."""
    people = [
        Person("s001", "Ann \x1b[31mLee\x07", '=HYPERLINK("http://evil.example","x")@uni.edu', "101"),
        Person("s002", f"Bo {RLO}kraP", "bo@uni.edu", "102"),
        Person("s003", "+cmd|' /C calc'!A0", "@sum(1+1)@uni.edu", "103"),
    ]
    most = {"wordpiece": 2.0, "masks": 3.0}
    outcomes = [
        (
            GRADED,
            {"wordpiece": 2.0, "masks": 1.5},
            [f"needs review: masks: cell 3, line 2: x = '{ESC}]0;pwned{BEL}{CR}{RLO}gnp.exe' (it passed its tests)"],
        ),
        (
            GRADED,
            {"wordpiece": 2.0, "masks": 3.0},
            [
                f"2 notebooks handed in: the latest is graded (Bo_500102_assignsubmission_file/a1{ESC}[2J.ipynb; the "
                f"files' times); not graded: x{CR}.ipynb"
            ],
        ),
        (
            ATTENTION,
            {"wordpiece": 0.0, "masks": 0.0},
            [f"no notebook to grade; handed in: evil{CR}{BEL}.pdf (not a notebook (a PDF))", "-every part scores 0"],
        ),
    ]
    results = [
        Result(p.id, status, scores, dict(most), notes=notes)
        for p, (status, scores, notes) in zip(people, outcomes, strict=True)
    ]
    submissions = {
        p.id: Submission(p.id, None, f"{p.name}_50010{k}_assignsubmission_file/a1.ipynb", None, "none")
        for k, p in enumerate(people, 1)
    }
    taken = Intake(
        submissions,
        [f"weird{ESC}[8mname{RLO}.ipynb: not a notebook", f"=1+1{CR}.ipynb: {BEL}"],
        entries=5,
        rejected_entries=2,
    )
    return results, taken, Roster(people)


def assert_clean_csv(path: Path, encoding: str) -> list[list[str]]:
    """Every cell of a written CSV file: no hidden character, no formula start but a number's."""
    text = path.read_bytes().decode(encoding)
    assert HIDDEN.search(text.replace("\r\n", "")) is None, path.name  # the rows' own line ends (csv's) aside
    table = list(csv.reader(io.StringIO(text, newline="")))
    for row in table:
        for cell in row:
            assert HIDDEN.search(cell) is None, (path.name, cell)
            if cell.lstrip().startswith((*FORMULA_STARTS, "\t", "\r")):
                float(cell)  # a number (a score) is the only cell that may start with a sign
    return table


def test_no_hidden_character_or_formula_reaches_a_written_report(tmp_path: Path) -> None:
    results, taken, roster = hostile_batch(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    warnings = reports.write_reports(
        results,
        {"wordpiece": 2.0, "masks": 3.0},
        taken,
        out,
        "a1",
        roster,
        "77",
        notices=[f"--times t{RLO}.csv: no submission for {ESC}[1mx"],
    )
    reports.write_unreadable_feedback(out / "feedback" / "s003.html", f"s003{RLO}", results[2].notes)
    assert write_import(results, {p.id: p for p in roster.people}, out / "gradescope_import.csv") == 2
    written = sorted(p.name for p in out.rglob("*") if p.suffix in (".csv", ".txt", ".html"))
    assert written == [
        "canvas_import.csv",
        "grades.csv",
        "gradescope_import.csv",
        "moodle_import.csv",
        "moodle_worksheet.csv",
        "s003.html",
        "summary.txt",
    ]
    tables = {
        name: assert_clean_csv(out / name, "utf-8" if name == "gradescope_import.csv" else "utf-8-sig")
        for name in written
        if name.endswith(".csv")
    }
    for name in ("summary.txt", "s003.html"):
        text = next(out.rglob(name)).read_bytes().decode("utf-8")
        assert HIDDEN.search(text.replace("\n", "")) is None, (name, text)
        assert all(char not in text for char in HOSTILE), name

    grades = {row[0]: row for row in tables["grades.csv"][1:]}
    assert grades["s001"][1:3] == ["Ann \\x1b[31mLee\\x07", '\'=HYPERLINK("http://evil.example","x")@uni.edu']
    assert grades["s002"][1] == "Bo \\u202ekraP" and grades["s003"][1:3] == [
        "'+cmd|' /C calc'!A0",
        "'@sum(1+1)@uni.edu",
    ]
    assert "\\x1b]0;pwned\\x07\\r\\u202egnp.exe" in grades["s001"][-1] and grades["s001"][3:6] == ["2", "1.5", "3.5"]
    # Moodle matches by email: an email that needs the apostrophe matches nobody, so the row is left out and said so.
    assert [row[1] for row in tables["moodle_import.csv"][1:]] == ["bo@uni.edu"]
    assert any(w.startswith("Moodle: s001 left out: the email") for w in warnings), warnings
    assert tables["canvas_import.csv"][1:] == [
        ["Ann \\x1b[31mLee\\x07", "101", "", "", "", "3.5"],
        ["Bo \\u202ekraP", "102", "", "", "", "5"],
    ]
    assert tables["gradescope_import.csv"][1][2] == '\'=HYPERLINK("http://evil.example","x")@uni.edu'
    summary = (out / "summary.txt").read_text(encoding="utf-8")
    assert (
        "weird\\x1b[8mname\\u202e.ipynb: not a notebook" in summary
        and "=1+1\\r.ipynb: \\x07" in summary
        and "--times t\\u202e.csv" in summary
    )
    assert "<title>Feedback: s003\\u202e</title>" in (out / "feedback" / "s003.html").read_text()


def test_the_terminal_gets_no_hidden_character(capsys: pytest.CaptureFixture[str]) -> None:
    line = f"[1/1] s001: 3.5  (x = '{ESC}]0;pwned{BEL}{CR}{RLO}')"
    log = io.StringIO()
    cli.ProgressBar(log)(1, 1, line)
    assert log.getvalue() == "[1/1] s001: 3.5  (x = '\\x1b]0;pwned\\x07\\r\\u202e')\n"
    cli._print(f"warning: {line}\nsecond line", file=sys.stderr)
    assert capsys.readouterr().err == "warning: [1/1] s001: 3.5  (x = '\\x1b]0;pwned\\x07\\r\\u202e')\nsecond line\n"
    report = Report(
        "a1",
        [PartResult("Part 1: sdpa", f"ValueError: {ESC}[2J{RLO}", ("    3 | \tx = 1", "      | \t^"))],
        [],
        [f"note{BEL}"],
    )
    rendered = "\n".join(report.render())
    assert (
        HIDDEN.search(rendered.replace("\n", "").replace("\t", "")) is None
        and "\\x1b[2J\\u202e" in rendered
        and "\t^" in rendered
    )


def test_no_line_of_a_students_message_reads_as_a_line_of_the_report() -> None:
    """attacks_n: an exception whose message held newlines put ``  masks   2/2`` and ``total 12/12`` under its
    part's line. Every line after the first sits behind a gutter, in course check's report and its replay's."""
    forged = "ValueError: \n  masks                    2/2\ntotal 12/12\r\n"
    gutter = ["      |   masks                    2/2", "      | total 12/12\r", "      | "]
    assert continued(forged, 6).split("\n")[1:] == gutter
    report = Report("a1", [PartResult("masks", forged), PartResult("sdpa", None)], [PartResult("cell 3", forged)], [])
    lines = "\n".join(report.render()).split("\n")
    assert [line for line in lines if "2/2" in line or "total 12" in line] == [
        "    |   masks                    2/2",
        "    | total 12/12\\r",
    ] * 2


def test_source_lines_are_the_lines_python_numbers() -> None:
    text = "a = 1  # \u2028 b = 2\x0c\x1c\x85\r\nc = 3\rd = 4\n"
    assert source_lines(text) == ["a = 1  # \u2028 b = 2\x0c\x1c\x85", "c = 3", "d = 4"]
    # Python numbers the statements by the same lines: the other characters are no line breaks to it
    assert [source_lines(text)[node.lineno - 1][:5] for node in ast.parse(text).body] == ["a = 1", "c = 3", "d = 4"]


def test_gradescope_results_and_nbgraders_student_fields(tmp_path: Path) -> None:
    release = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("## Part 1: sdpa (2 points)"),
        nbformat.v4.new_code_cell(
            "def sdpa(): ...", metadata={"nbgrader": {"solution": True, "grade": False, "grade_id": "sdpa"}}
        ),
        nbformat.v4.new_code_cell(
            "check()", metadata={"nbgrader": {"solution": False, "grade": True, "grade_id": "test_sdpa", "points": 2}}
        ),
    ])  # fmt: skip
    autograded = nbformat.from_dict(release)
    autograded.cells[2].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text=f"progress{CR}done{ESC}[0m\n"),
        nbformat.v4.new_output("error", ename="ValueError", evalue=f"bad {RLO}input{BEL}", traceback=[]),
    ]
    result = Result("student", GRADED, {"sdpa": 0.0}, {"sdpa": 2.0}, notes=[f"graded a1{RLO}.ipynb{ESC}"])
    payload = json.loads(json.dumps(results_json(result, release, autograded, "visible", f"a1{RLO}.ipynb")))
    texts = [payload["output"], *(test["output"] for test in payload["tests"])]
    assert all(HIDDEN.search(text.replace("\n", "").replace("\t", "")) is None for text in texts), texts
    assert "progress\\rdone\\x1b[0m\nValueError: bad \\u202einput\\x07" in texts[-1]
    fields = name_parts(Person("x", f"Lee{ESC}, =Ann", "+1@x.org"))
    assert fields == {"first_name": "'=Ann", "last_name": "Lee\\x1b", "email": "'+1@x.org"}
