"""Grading on Gradescope (course_grading/gradescope.py, gradescope_export.py).

The autograder zip is built from a copy of the course and unpacked into temporary roots; its
run_autograder grades a1 fixtures there (COURSE_AUTOGRADER_ROOT), and each results.json must equal,
part by part, what one `course grade` run gave the same notebooks. That run reads a synthetic
Gradescope "Export Submissions" zip (submission_metadata.yml): its submission times, a late penalty,
and the scores file Gradescope imports. About a minute and a half of CPU: six a1 gradings in all.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

import nbformat
import pytest

from course_grading import cli
from course_grading.gradescope import FEEDBACK_CHARS, ROOT_VARIABLE, TORCH_INDEX, VISIBILITIES, part_feedback
from course_grading.lms.gradebook_files import load_rows
from course_grading.lms.gradescope_reader import IMPORT_COLUMNS, IMPORT_FILE, METADATA, parse_metadata
from course_grading.markers import answer_ids, part_points
from course_grading.notebook.assignments import copy_course
from course_grading.sandbox import limits as sandbox

from assignment_support import ASSIGNMENTS, hidden_lines, imported_distributions
from hostile_submissions import ASSIGNMENT, FULL, MISSING_SCALE, WRONG_SDPA, notebook

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
    ),
]

DUE = datetime.fromisoformat("2026-11-20T23:59:00-08:00")
RELEASE = (ASSIGNMENTS / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes()
OTHER = (ASSIGNMENTS / "release" / "a2_blocks" / "a2_blocks.ipynb").read_bytes()
# Each fixture: its file, and the submitters of its Gradescope submission (name, SID, email), and how late it came.
FIXTURES = {
    "key": ("a1_attention.ipynb", notebook(), [("Ada Lovelace", "1001", "ada@example.edu")], timedelta(hours=-2)),
    "wrong": (
        "a1_attention.ipynb",
        notebook({"sdpa": MISSING_SCALE}),
        [("Bob Babbage", "1002", "bob@example.edu")],
        timedelta(days=1, hours=12),
    ),
    "untouched": ("a1_attention.ipynb", RELEASE, [("Cy Hopper", "1003", "cy@example.edu")], timedelta(0)),
    "unreadable": (
        "a1_attention.ipynb",
        b'{"cells": [',
        [("Eve Noether", "1004", "eve@example.edu"), ("Fay Kovalevskaya", "", "fay@example.edu")],
        timedelta(hours=-1),
    ),
    "other": ("a2_blocks.ipynb", OTHER, [("Gus Turing", "1005", "gus@example.edu")], timedelta(hours=-1)),
    "missing": (
        "answers.pdf",
        b"%PDF-1.4 not a notebook",
        [("Hal Shannon", "1006", "hal@example.edu")],
        timedelta(hours=-1),
    ),
    # In a folder, as a zip or a GitHub repository is unpacked into /autograder/submission:
    # still this student's one notebook.
    "nested": (
        "a1/a1_attention.ipynb",
        notebook({"sdpa": MISSING_SCALE}),
        [("Ida Hopper", "1007", "ida@example.edu")],
        timedelta(hours=-1),
    ),
}
STUDENT_OF = {name: submitters[0][1] or submitters[0][2] for name, (_, _, submitters, _) in FIXTURES.items()}


def ruby_time(when: datetime) -> str:
    """A time as Ruby's YAML writes it (Gradescope's :created_at)."""
    offset = when.strftime("%z")
    return when.strftime("%Y-%m-%d %H:%M:%S.%f000 ") + f"{offset[:3]}:{offset[3:]}"


def export_zip(path: Path) -> Path:
    """A Gradescope "Export Submissions" zip: assignment_<id>_export/ with submission_<id>/ folders and
    submission_metadata.yml."""
    lines = []
    with zipfile.ZipFile(path, "w") as archive:
        for number, (filename, content, submitters, late) in enumerate(FIXTURES.values(), 9001):
            archive.writestr(f"assignment_42_export/submission_{number}/{filename}", content)
            lines.append(f"submission_{number}:\n  :submitters:")
            for person, sid, email in submitters:
                lines.append(
                    f"  - :name: {person}\n    :sid: '{sid}'\n    :email: {email}"
                    if sid
                    else f"  - :name: {person}\n    :email: {email}"
                )
            lines.append(
                f"  :created_at: {ruby_time(DUE + late)}\n  :score: !ruby/object:BigDecimal 18:0.0\n  :history: []"
            )
        archive.writestr(f"assignment_42_export/{METADATA}", "\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The zip built by `course gradescope`, and one `course grade` run of the Gradescope export."""
    tmp = tmp_path_factory.mktemp("gradescope")
    course = copy_course(tmp / "course" / "assignments", ASSIGNMENTS)
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    zip_path = tmp / "a1.zip"
    assert (
        cli.main(
            [
                "--course",
                str(course),
                "gradescope",
                ASSIGNMENT,
                "--out",
                str(zip_path),
                "--visibility",
                "after_published",
            ]
        )
        == 0
    )
    out = tmp / "out"
    status = cli.main(
        [
            "--course",
            str(course),
            "grade",
            ASSIGNMENT,
            str(export_zip(tmp / "export.zip")),
            "--out",
            str(out),
            "--dry-run",
            "--jobs",
            "1",
            "--cell-timeout",
            "20",
            "--due",
            DUE.isoformat(),
            "--late-penalty",
            "10%/day",
        ]
    )
    rows, _, _ = load_rows(out)
    return {"tmp": tmp, "zip": zip_path, "out": out, "status": status, "rows": {row.student: row for row in rows}}


def run_autograder(graded: dict, name: str, files: dict[str, bytes]) -> tuple[dict, subprocess.CompletedProcess]:
    """Unpack the zip into a fresh root, put ``files`` in its submission folder, run run_autograder there."""
    root = graded["tmp"] / f"root_{name}"
    with zipfile.ZipFile(graded["zip"]) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    for filename, content in files.items():
        (root / "submission" / filename).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / filename).write_bytes(content)
    env = dict(
        os.environ, **{ROOT_VARIABLE: str(root), "COURSE_AUTOGRADER_PYTHON": sys.executable, "OMP_NUM_THREADS": "1"}
    )
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=300, cwd="/"
    )
    return json.loads((root / "results" / "results.json").read_text()), run


def check_format(results: dict) -> None:
    """results.json as Gradescope's autograder specification describes it."""
    assert set(results) <= {
        "score",
        "execution_time",
        "output",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    }
    assert isinstance(results["execution_time"], int) and results["execution_time"] >= 0
    for key in ("visibility", "stdout_visibility"):
        assert results.get(key, "visible") in VISIBILITIES
    for test in results.get("tests", []):
        assert set(test) <= {"score", "max_score", "name", "number", "output", "tags", "visibility", "extra_data"}
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert (
            isinstance(test["score"], float)
            and isinstance(test["max_score"], float)
            and 0 <= test["score"] <= test["max_score"]
        )
        assert test.get("visibility", "visible") in VISIBILITIES
    if "score" in results:
        assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))


@pytest.mark.parametrize("name", list(FIXTURES))
def test_run_autograder_equals_course_grade(graded: dict, name: str) -> None:
    filename, content, _, _ = FIXTURES[name]
    results, run = run_autograder(graded, name, {filename: content})
    assert run.returncode == 0, run.stdout + run.stderr
    check_format(results)
    row = graded["rows"][STUDENT_OF[name]]
    release = nbformat.reads(RELEASE.decode(), as_version=4)
    parts = {t["extra_data"]["part"]: t for t in results["tests"] if "extra_data" in t}
    assert list(parts) == answer_ids(release)
    assert {p: t["score"] for p, t in parts.items()} == row.points, (results, row)
    assert {p: t["max_score"] for p, t in parts.items()} == part_points(release) == FULL
    assert results["score"] == sum(row.points.values())  # Gradescope applies its own late policy: no penalty here
    assert results["visibility"] == "after_published" and all("visibility" not in t for t in parts.values())
    submission = results["tests"][0]
    assert submission["name"] == "Submission" and submission["visibility"] == "visible" and submission["max_score"] == 0
    text = json.dumps(results)
    secret = {line for line in hidden_lines(ASSIGNMENT) if len(line) > 30}
    assert not [line for line in secret if line in text]
    expected = {
        "key": sum(FULL.values()),
        "wrong": sum(FULL.values()) - FULL["sdpa"],
        "nested": sum(FULL.values()) - FULL["sdpa"],
    }
    assert results["score"] == expected.get(name, 0.0)
    if name in ("unreadable", "other", "missing"):
        assert "No notebook was graded" in submission["output"]
        reason = {"unreadable": "not a valid Jupyter notebook", "other": "a2_blocks", "missing": "answers.pdf"}[name]
        assert reason in results["output"] and reason in row.notes, (results["output"], row.notes)
    else:
        assert submission["output"].startswith("Graded: a1_attention.ipynb"), submission["output"]
    if name in ("wrong", "nested"):
        assert "Error" in parts["sdpa"]["output"], parts["sdpa"]["output"]
        assert "visible tests passed" in parts["masks"]["output"], parts["masks"]["output"]


def test_grader_fault_is_no_score(graded: dict) -> None:
    """A grader fault (here: the zip's course lost its release) gives no score and exit status 1."""
    root = graded["tmp"] / "root_fault"
    with zipfile.ZipFile(graded["zip"]) as archive:
        archive.extractall(root / "source")
    shutil.rmtree(root / "source" / "project" / "assignments" / "release" / ASSIGNMENT)
    (root / "submission").mkdir()
    (root / "submission" / "a1_attention.ipynb").write_bytes(FIXTURES["key"][1])
    env = dict(os.environ, **{ROOT_VARIABLE: str(root), "COURSE_AUTOGRADER_PYTHON": sys.executable})
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=120, cwd="/"
    )
    results = json.loads((root / "results" / "results.json").read_text())
    assert run.returncode == 1
    assert (
        "score" not in results
        and results["tests"] == []
        and results["output"].startswith("Not graded: the autograder itself failed")
    )
    check_format(results)


def test_zip_holds_what_grading_needs_and_no_secret(graded: dict) -> None:
    with zipfile.ZipFile(graded["zip"]) as archive:
        names = set(archive.namelist())
        setup = archive.read("setup.sh").decode()
        requirements = archive.read("requirements.txt").decode().split()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    assert {
        "setup.sh",
        "run_autograder",
        "gradescope.json",
        "requirements.txt",
        "project/pyproject.toml",
        "project/course_lib/__init__.py",
        "project/course_grading/gradescope.py",
        f"project/assignments/source/{ASSIGNMENT}/{ASSIGNMENT}.ipynb",
        f"project/assignments/grading/{ASSIGNMENT}_checks.py",
        f"project/assignments/grading/{ASSIGNMENT}_reference_parts.py",
    } <= names
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert not [n for n in names if "solutions/" in n or n.endswith(".db") or "graded/" in n or "__pycache__" in n]
    # the course's secret travels with the checks (the same hidden inputs there as with course
    # grade); nothing else of grading/
    assert "project/assignments/grading/course_secret" in names
    assert not [
        n
        for n in names
        if "/grading/" in n
        and not n.rsplit("/", 1)[1].startswith((ASSIGNMENT, "gradinglib", "contracts", "course_secret"))
    ]
    assert not [n for n in names if "/source/" in n and ASSIGNMENT not in n]
    # Installs from the package index and PyTorch's CPU index only, every version pinned.
    assert re.findall(r"https?://\S+", setup) == [TORCH_INDEX]
    assert not re.search(r"--extra-index-url|git\+|curl|wget", setup)
    assert requirements[0] == "torch==2.13.0" and all(
        re.fullmatch(r"[a-z0-9][a-z0-9._-]*==[\w.+!-]+", r) for r in requirements
    ), requirements
    assert {r.split("==")[0] for r in requirements} >= {"nbgrader", "numpy", "tokenizers", "pyyaml"}


def test_export_times_late_penalty_and_import_csv(graded: dict) -> None:
    rows, out = graded["rows"], graded["out"]
    assert graded["status"] == 0
    # both submitters of the group, Fay by email
    assert set(rows) == {"1001", "1002", "1003", "1004", "fay@example.edu", "1005", "1006", "1007"}
    for name, (_, _, _, late) in FIXTURES.items():
        assert rows[STUDENT_OF[name]].submitted_at == DUE + late
    assert rows["1001"].late_penalty == 0 and rows["1001"].total == sum(FULL.values())
    earned = sum(FULL.values()) - FULL["sdpa"]
    # two started days at 10%
    assert rows["1002"].late_penalty == pytest.approx(0.2 * earned) and rows["1002"].total == pytest.approx(
        0.8 * earned
    )
    with (out / IMPORT_FILE).open(newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    assert tuple(table[0]) == IMPORT_COLUMNS
    by_sid = {line[1]: line for line in table[1:]}
    graded_ids = {s for s, row in rows.items() if row.status == "graded"}
    assert {"1001", "1002"} <= graded_ids and set(by_sid) == {s for s in graded_ids if s.isdigit()}
    assert by_sid["1001"] == ["Ada Lovelace", "1001", "ada@example.edu", "12"] and float(
        by_sid["1002"][3]
    ) == pytest.approx(0.8 * earned)


def test_metadata_errors_are_named() -> None:
    with pytest.raises(ValueError, match="not valid YAML"):
        parse_metadata("submission_1: [", "x.yml")
    with pytest.raises(ValueError, match="submission_1 has no :submitters"):
        parse_metadata("submission_1:\n  :created_at: 2026-01-01 00:00:00 +00:00\n", "x.yml")
    with pytest.raises(ValueError, match="is not a time"):
        parse_metadata("submission_1:\n  :submitters:\n  - :name: A\n  :created_at: yesterday\n", "x.yml")
    found = parse_metadata(
        io.StringIO(
            "submission_7:\n  :submitters:\n  - :name: A B\n    :sid: '7'\n"
            "  :created_at: 2026-11-20 23:41:07.123456000 -08:00\n  :score: !ruby/object:BigDecimal 18:0.5e1\n"
        ).read(),
        "x.yml",
    )
    people, when = found["submission_7"]
    assert people[0].lms_id == "7" and when == datetime.fromisoformat("2026-11-20T23:41:07.123456-08:00")


def test_notes_keep_hidden_verdicts_hidden(graded: dict) -> None:
    """A held part's note says whether it passed its hidden tests: it must follow the assignment's
    visibility, not show at once (the Submission test and the top-level output are always shown),
    or a student adds an import the scan holds and reads each part's hidden verdict before the due date."""
    held = WRONG_SDPA + "\nimport threading  # held for review: its note says how the hidden tests judged it\n"
    results, run = run_autograder(graded, "held_note", {"a1_attention.ipynb": notebook({"sdpa": held})})
    assert run.returncode == 0, run.stdout + run.stderr
    check_format(results)
    shown = [results["output"], *(t["output"] for t in results["tests"] if t.get("visibility") == "visible")]
    assert not [text for text in shown if "its tests" in text], shown
    notes = [t for t in results["tests"] if t["name"] == "Notes from the grader"]
    assert len(notes) == 1 and "visibility" not in notes[0] and notes[0]["max_score"] == 0, results["tests"]
    assert "needs review: sdpa" in notes[0]["output"] and "failed its tests" in notes[0]["output"], notes[0]["output"]
    assert results["tests"][0]["output"] == "Graded: a1_attention.ipynb"


def test_a_file_names_line_break_forges_no_line_of_the_report(graded: dict) -> None:
    """attacks_r: a newline in the uploaded file's name printed ``Total: 12.0 of 12.0`` as a line of its own under
    "Graded:" in the always-visible Submission test."""
    forged = "a1_attention\nTotal: 12.0 of 12.0.ipynb"
    results, run = run_autograder(graded, "forged_line", {forged: notebook({"sdpa": WRONG_SDPA})})
    assert run.returncode == 0, run.stdout + run.stderr
    check_format(results)
    submission = results["tests"][0]["output"]
    assert submission.startswith("Graded: a1_attention\\nTotal: 12.0 of 12.0.ipynb"), submission
    assert not any(line.startswith("Total") for line in submission.splitlines()), submission


def test_missing_submission_folder_is_no_score(graded: dict) -> None:
    """Gradescope always makes /autograder/submission: its absence is the platform's fault, not a 0."""
    root = graded["tmp"] / "root_no_submission"
    with zipfile.ZipFile(graded["zip"]) as archive:
        archive.extractall(root / "source")
    env = dict(os.environ, **{ROOT_VARIABLE: str(root), "COURSE_AUTOGRADER_PYTHON": sys.executable})
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=120, cwd="/"
    )
    results = json.loads((root / "results" / "results.json").read_text())
    assert run.returncode == 1 and "score" not in results and results["tests"] == [], results
    assert (
        results["output"].startswith("Not graded: the autograder itself failed") and "submission" in results["output"]
    )


def test_part_feedback_caps_what_the_notebook_printed() -> None:
    """A part's output is at most FEEDBACK_CHARS of what the notebook printed (its head and tail), and
    the error the part ended with always follows it: 4 MiB printed must not bury it or bloat results.json."""
    cell = nbformat.v4.new_code_cell(
        "check()", metadata={"nbgrader": {"grade": True, "solution": False, "grade_id": "test_sdpa", "points": 4}}
    )
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="HEAD\n" + "x" * 2**22 + "\nTAIL\n"),
        nbformat.v4.new_output("error", ename="AssertionError", evalue="sdpa is wrong", traceback=["hidden code"]),
    ]
    text = part_feedback(nbformat.v4.new_notebook(cells=[cell]))["sdpa"]
    assert (
        len(text) < FEEDBACK_CHARS + 200
        and text.startswith("HEAD")
        and "characters printed by the notebook cut" in text
    )
    assert text.endswith("TAIL\nAssertionError: sdpa is wrong") and "hidden code" not in text


def test_a_students_own_metadata_file_does_not_stop_an_unwrapped_export(tmp_path: Path) -> None:
    """An export given unwrapped (its submission_metadata.yml at the top) whose student uploaded a file
    of that name: the top one is the export's, the student's is one of their files."""
    from course_grading.lms.gradescope_reader import regroup
    from course_grading.lms.intake import _Item

    top = "submission_1:\n  :submitters:\n  - :name: A B\n    :sid: '7'\n  :created_at: 2026-11-20 23:41:07 -08:00\n"
    files = {
        (METADATA,): top.encode(),
        ("submission_1", METADATA): b"forged: true\n",
        ("submission_1", "a1_attention.ipynb"): b"{}",
    }
    items = [_Item(parts, len(data), None, False, tmp_path / "/".join(parts)) for parts, data in files.items()]
    regrouped = regroup(items, lambda item, limit: files[item.parts], None, None)
    assert regrouped is not None and not regrouped.rejected
    assert sorted(item.parts for item in regrouped.items) == [("7", "a1_attention.ipynb"), ("7", METADATA)]
    assert regrouped.times.by_student["7"] == datetime.fromisoformat("2026-11-20T23:41:07-08:00")


def _regrouped(tmp_path: Path, metadata: str, roster):  # noqa: ANN001, ANN202
    """A Gradescope export of ``metadata`` (each submission holding an a1_attention.ipynb) through regroup."""
    from course_grading.lms.gradescope_reader import regroup
    from course_grading.lms.intake import _Item

    folders = re.findall(r"^(submission_\d+):", metadata, re.MULTILINE)
    files = {(METADATA,): metadata.encode(), **{(f, "a1_attention.ipynb"): f.encode() for f in folders}}
    items = [_Item(parts, len(data), None, False, tmp_path / "/".join(parts)) for parts, data in files.items()]
    return regroup(items, lambda item, limit: files[item.parts], roster, None)


def _submitter(folder: str, name: str, sid: str, email: str) -> str:
    return f"{folder}:\n  :submitters:\n  - :name: {name}\n    :sid: '{sid}'\n    :email: {email}\n"


def test_an_sid_the_submitter_typed_never_outweighs_the_accounts_email(tmp_path: Path) -> None:
    """attacks_r's class (identity from a field the student controls) in Gradescope's export: a student may type
    their own SID; Eve's account, with Victor's SID, named Victor's row and her notebook was his. An SID that
    another row's email, or another email than its row's, contradicts is not graded; two submissions that name
    one student are neither taken as theirs."""
    from course_grading.lms.intake import Person, Roster

    roster = Roster([Person("1001", "Victor Vic", "victor@uni.edu"), Person("1002", "Eve Smith", "eve@uni.edu")])
    regrouped = _regrouped(
        tmp_path,
        _submitter("submission_1", "Victor Vic", "1001", "victor@uni.edu")
        + _submitter("submission_2", "Eve Smith", "1001", "eve@uni.edu")  # Victor's SID, her own email
        + _submitter("submission_3", "Mallory", "1001", "mallory@else.where"),  # Victor's SID, no row's email
        roster,
    )
    assert regrouped is not None
    assert [item.parts for item in regrouped.items] == [("1001", "a1_attention.ipynb")]
    assert "its SID 1001 is roster row 1001, its email eve@uni.edu row 1002" in " ".join(regrouped.rejected)
    assert "whose email is not the submitter's (mallory@else.where)" in " ".join(regrouped.rejected)

    regrouped = _regrouped(  # no emails to tell: two submissions name one SID
        tmp_path,
        _submitter("submission_1", "Victor Vic", "1001", "") + _submitter("submission_2", "Eve Smith", "1001", ""),
        roster,
    )
    assert regrouped is not None and regrouped.items == [], regrouped.items
    assert any("each names the student 1001: neither is graded" in r for r in regrouped.rejected), regrouped.rejected


def test_the_zip_installs_every_package_the_hidden_checks_import() -> None:
    """Gradescope's container has only what the zip's requirements name: a hidden check that imports a
    package outside them fails there and nowhere else (a7's oracles are Hugging Face's Llama code)."""
    from packaging.utils import canonicalize_name

    from course_grading.gradescope import pinned_requirements

    pinned = {canonicalize_name(line.split("==")[0]) for line in pinned_requirements()} | {"torch"}
    sources = sorted((ASSIGNMENTS / "grading").glob("*.py"))
    missing = {name: files for name, files in imported_distributions(sources).items() if name not in pinned}
    assert not missing, f"imported by the hidden checks, not in the Gradescope zip's requirements: {missing}"


def test_the_import_scan_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The scan's control: a module imported only inside a function is found, with its distribution."""
    source = tmp_path / "a9_checks.py"
    source.write_text("import math\n\ndef oracle():\n    from transformers.models.llama import modeling_llama\n")
    assert imported_distributions([source]) == {"transformers": {"a9_checks.py"}}
