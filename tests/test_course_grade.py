"""``course grade`` on a class of correct, buggy and hostile a1 submissions, and on a2, a4, a5 and a6
attacks on their own oracles (tests/hostile_submissions.py).

One batch is graded for the whole module (about two minutes on 2 cores): every submission must get
exactly the points it deserves, with a recorded reason where it needed attention; the course, the
answer keys, the other submissions and the grades must come out intact; no hidden test may reach a
feedback page; nothing the notebooks started may outlive the batch; and a second run must grade
only what is new.
"""

from __future__ import annotations

import csv
import hashlib
import html
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import nbformat
import psutil
import pytest

from course_grading import grade as grading
from course_grading.lms.intake import LAYOUTS
from course_grading.notebook import gradebook
from course_grading.notebook.assignments import copy_course
from course_grading.sandbox import limits as sandbox

from assignment_support import ASSIGNMENTS, ROOT, hidden_lines
from hostile_submissions import (
    A2,
    A3,
    A4,
    A5,
    A6,
    ASSIGNMENT,
    FULL,
    REJECTED_FILES,
    REJECTED_PATTERNS,
    Case,
    a2_cases,
    a3_cases,
    a4_cases,
    a5_cases,
    a6_cases,
    hostile_cases,
    notebook,
)
from hostile_submissions import (
    KEY as KEY_A1,
)

pytestmark = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)

LIMITS = sandbox.Limits(cell_s=10, total_s=60, memory_bytes=4 * 2**30)
GUARDED = [
    ASSIGNMENTS / "source",
    ASSIGNMENTS / "release",
    ASSIGNMENTS / "grading",
    ROOT / "solutions",
    ROOT / "tests" / "fixtures",
]


def course_copy(where: Path) -> Path:
    """A scratch copy of the course with its student versions and its own course secret, as a released
    course has them: what the tests grade (the hostile submissions aim at it), so that nothing can
    reach the real one."""
    from course_grading.sandbox.seeds import ensure_secret

    course = copy_course(where, ASSIGNMENTS)
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    ensure_secret(course / "grading")
    return course


def nbgrader_export(course: Path, assignment: str) -> dict[str, float]:
    """Each student's score for ``assignment`` as ``nbgrader export`` reads it from ``course``'s gradebook."""
    subprocess.run(
        [str(Path(sys.executable).parent / "nbgrader"), "export", "--to", "export.csv"],
        cwd=course,
        check=True,
        capture_output=True,
    )
    with (course / "export.csv").open() as f:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(f) if row["assignment"] == assignment}


def digest(*folders: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in folders
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


class Batch:
    def __init__(self, root: Path) -> None:
        self.inbox, self.out = root / "inbox", root / "out"
        self.inbox.mkdir()
        self.course = course_copy(root / "course")
        self.guarded = [*GUARDED, self.course]
        self.listener = socket.create_server(("127.0.0.1", 0))  # a service on the grading machine's loopback
        self.listener.setblocking(False)
        self.cases: dict[str, Case] = hostile_cases(
            str(self.course), str(self.out), str(self.inbox), port=self.listener.getsockname()[1]
        )
        for case in self.cases.values():
            (self.inbox / case.filename).write_bytes(case.content)
        for name, content in REJECTED_FILES.items():
            (self.inbox / name).parent.mkdir(exist_ok=True)
            (self.inbox / name).write_bytes(content)
        self.inbox_before = digest(self.inbox)
        self.course_before = digest(*self.guarded)
        self.progress: list[str] = []
        self.results, self.taken = grading.grade(
            grading.Batch(self.course, ASSIGNMENT, self.inbox, self.out),
            grading.Options(jobs=2, limits=LIMITS),
            progress=lambda done, total, line: self.progress.append(line),
        )
        self.rejected = self.taken.rejected
        self.by_student = {r.student: r for r in self.results}


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return Batch(tmp_path_factory.mktemp("grade"))


@pytest.mark.parametrize("student", list(hostile_cases("c", "o", "i")))
def test_each_submission_gets_exactly_its_points_and_a_reason(batch: Batch, student: str) -> None:
    case, result = batch.cases[student], batch.by_student[student]
    assert result.scores == case.points, result.notes
    notes = "; ".join(result.notes)
    if case.notes:
        assert re.search(case.notes, notes), notes


def test_wrong_entries_are_rejected_with_the_layouts_named(batch: Batch) -> None:
    for pattern in REJECTED_PATTERNS:
        assert any(pattern.search(r) for r in batch.rejected), batch.rejected
    assert all(LAYOUTS in r for r in batch.rejected)
    assert "notes" not in batch.by_student
    assert "graded as the only notebook handed in" in "; ".join(batch.by_student["dave"].notes)  # dave/wrong_name.ipynb


def test_nothing_outside_the_grades_folder_changed(batch: Batch) -> None:
    assert digest(*batch.guarded) == batch.course_before
    assert digest(batch.inbox) == batch.inbox_before


def test_grades_csv_summary_and_figure(batch: Batch) -> None:
    with (batch.out / "grades.csv").open(encoding="utf-8-sig") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    assert set(rows) == set(batch.cases) | {"dave"}
    for student, case in batch.cases.items():
        assert float(rows[student]["total"]) == sum(case.points.values())
    summary = (batch.out / "summary.txt").read_text()
    # the rejected entries are listed last and counted among what needs attention (attacks_s)
    assert re.search(r"needing attention: \d+ \(\d+ rejected entr(y|ies), listed last\)", summary), summary
    assert "rejected entries (each needs attention: nothing of it was graded):" in summary
    assert re.search(r"sdpa\s+\d+/\d+", summary)
    assert (batch.out / "summary.png").stat().st_size > 5000


def test_feedback_reveals_no_hidden_test_or_grading_code(batch: Batch) -> None:
    pages = list((batch.out / "feedback").glob("*.html"))
    assert len(pages) >= len(batch.cases) - 6  # unreadable notebooks and dead kernels get none
    grading_code = [line.strip() for f in (ASSIGNMENTS / "grading").glob("*.py") for line in f.read_text().splitlines()]
    public = lines_of(ASSIGNMENTS / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    secret = {line for line in [*hidden_lines(ASSIGNMENT), *grading_code] if len(line) > 30} - public
    for page in pages:
        content = (
            batch.cases[page.stem].content
            if page.stem in batch.cases
            else REJECTED_FILES[f"{page.stem}/wrong_name.ipynb"]
        )
        own = lines_of_bytes(content)  # a line the student wrote is theirs to see, even if a check has it too
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))  # what the student reads
        leaked = [line for line in secret - own if line in text]
        assert not leaked, (page.name, leaked[:3])


def test_feedback_shows_a_failure_exactly_where_points_were_lost(batch: Batch) -> None:
    """Each test cell of every autograded notebook ends in an error exactly when its part scored 0,
    and no cell claims that hidden tests passed."""
    checked = 0
    for path in (batch.out / "autograded").glob("*.ipynb"):
        scores = batch.by_student[path.stem].scores
        for cell in nbformat.read(path, as_version=4).cells:
            part = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "").removeprefix("test_")
            if cell.cell_type != "code" or not cell.metadata["nbgrader"].get("grade"):
                continue
            failed = any(o.output_type == "error" for o in cell.outputs)
            assert failed == (scores[part] == 0), (path.stem, part, scores)
            assert not any("Hidden tests: passed" in o.get("text", "") for o in cell.outputs)
            checked += 1
    assert checked >= 4 * (len(batch.cases) - 8)


def lines_of_bytes(content: bytes) -> set[str]:
    try:
        nb = nbformat.reads(content.decode(errors="replace"), as_version=4)
    except Exception:  # noqa: BLE001 (not a notebook: nothing of its own to show)
        return set()
    return {line.strip() for cell in nb.cells for line in cell.source.splitlines()}


def lines_of(path: Path) -> set[str]:
    return lines_of_bytes(path.read_bytes())


def test_a_hang_costs_the_cell_time_limit_it_breaks(batch: Batch) -> None:
    """A part that hangs is interrupted at the cell time limit, and the rest is graded as usual. A cell that hangs
    at the top level is interrupted each time the cells run (the first process and each part's fresh one, as the
    first ran them: attacks_q), on the grader's time; a function that hangs, once."""
    correct = batch.by_student["correct"].seconds
    for student, runs in (("loop_top_level", 1 + len(FULL)), ("loop_in_function", 1)):
        seconds = batch.by_student[student].seconds
        assert LIMITS.cell_s <= seconds <= correct + (runs + 1) * LIMITS.cell_s, (student, seconds)


def test_the_notebook_has_no_network(batch: Batch) -> None:
    """The student's process cannot reach the grading machine's loopback services (nor the internet:
    the submission would lose its masks part)."""
    with pytest.raises(BlockingIOError):
        batch.listener.accept()
    assert batch.by_student["connects_out"].scores == FULL


def running_for_another_xdist_worker(process: psutil.Process) -> bool:
    """Whether ``process`` descends from another pytest-xdist worker of this run (a worker is a child
    of the controller, our parent): what that worker's current test is running, not a leftover of
    ours (or it has ended meanwhile). Anything else, ours or orphaned, counts."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return False
    try:
        workers = {p.pid for p in psutil.Process(os.getppid()).children()} - {os.getpid()}
        return any(p.pid in workers for p in process.parents())
    except psutil.NoSuchProcess:
        return not process.is_running()


def test_nothing_the_notebooks_started_is_left_running(batch: Batch) -> None:
    leftovers = [
        p.info["cmdline"]
        for p in psutil.process_iter(["cmdline"])
        if any("course-grade-" in part or part == "600" for part in p.info["cmdline"] or [])
        and not running_for_another_xdist_worker(p)
    ]
    assert not leftovers
    roots = [sandbox.CGROUPS, *(sandbox.CGROUPS / controller for controller in ("pids", "memory", "cpu"))]
    assert not [g for root in roots if root.is_dir() for g in root.glob(f"course-grade-*-{os.getpid()}")]


def test_rerun_grades_nothing_and_a_late_submission_only_itself(batch: Batch, tmp_path: Path) -> None:
    before = (batch.out / "grades.csv").read_text()
    progress: list[str] = []
    results, _ = grading.grade(
        grading.Batch(batch.course, ASSIGNMENT, batch.inbox, batch.out),
        grading.Options(jobs=2, limits=LIMITS),
        progress=lambda done, total, line: progress.append(line),
    )
    assert progress == []
    assert (batch.out / "grades.csv").read_text() == before
    late = tmp_path / "inbox"
    shutil.copytree(batch.inbox, late)
    (late / "late.ipynb").write_bytes(notebook())
    progress = []
    results, _ = grading.grade(
        grading.Batch(batch.course, ASSIGNMENT, late, batch.out),
        grading.Options(jobs=2, limits=LIMITS),
        progress=lambda done, total, line: progress.append(line),
    )
    assert len(progress) == 1 and progress[0].startswith("[1/1] late: 12")
    assert {r.student for r in results} == set(batch.cases) | {"late", "dave"}


def grade_attacks(tmp_path: Path, assignment: str, cases: Callable[[Path], dict[str, Case]]) -> None:
    """Grade ``cases(course)`` with ``course grade``: exactly their points and notes, the course intact."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    course = course_copy(tmp_path / "course")
    made = cases(course)
    for case in made.values():
        (inbox / case.filename).write_bytes(case.content)
    before = digest(*GUARDED, course)
    results, taken = grading.grade(
        grading.Batch(course, assignment, inbox, out),
        grading.Options(jobs=2, limits=LIMITS),
        progress=lambda done, total, line: None,
    )
    assert not taken.rejected
    assert {r.student for r in results} == set(made)
    for result in results:
        case = made[result.student]
        assert result.scores == case.points, (result.student, result.notes)
        assert re.search(case.notes, "; ".join(result.notes)), (result.student, result.notes)
    assert digest(*GUARDED, course) == before


def test_a2_attacks_on_its_oracles_get_no_undeserved_point(tmp_path: Path) -> None:
    grade_attacks(tmp_path, A2, lambda course: a2_cases(str(course)))


def test_a3_attacks_get_no_undeserved_point(tmp_path: Path) -> None:
    """A forbidden route to the right numbers is held for a person; a wrong loss costs its own part."""
    grade_attacks(tmp_path, A3, lambda course: a3_cases())


def test_a4_attacks_on_its_oracles_get_no_undeserved_point(tmp_path: Path) -> None:
    """Every part wrong, each bending its oracle (plain nbgrader gives it full marks): no point."""
    grade_attacks(tmp_path, A4, lambda course: a4_cases())


def test_a5_attacks_on_its_oracles_get_no_undeserved_point(tmp_path: Path) -> None:
    """Every part wrong, each bending its oracle (plain nbgrader gives it full marks): no point."""
    grade_attacks(tmp_path, A5, lambda course: a5_cases())


def test_a6_attacks_on_its_oracles_get_no_undeserved_point(tmp_path: Path) -> None:
    """Every part wrong, each bending its oracle (plain nbgrader gives it full marks): no point. The
    parts of a6 are classes and functions of modules: their checks reach them through drivers run in
    the student's process, and still compare in the grader's."""
    grade_attacks(tmp_path, A6, lambda course: a6_cases())


def test_grades_go_into_the_nbgrader_course_for_its_own_tools(tmp_path: Path) -> None:
    """With ``record``, nbgrader's gradebook and folders hold the results: ``nbgrader export`` sees
    each student's score, and re-grading a changed submission replaces it."""
    course = course_copy(tmp_path / "course")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    cases = hostile_cases(str(course), str(tmp_path / "out"), str(inbox))
    for name in ("correct", "buggy", "not_json"):
        (inbox / cases[name].filename).write_bytes(cases[name].content)

    def export() -> dict[str, float]:
        return nbgrader_export(course, ASSIGNMENT)

    grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, tmp_path / "out"),
        grading.Options(jobs=2, limits=LIMITS, record=True),
        progress=lambda done, total, line: None,
    )
    assert export() == {name: sum(cases[name].points.values()) for name in ("correct", "buggy", "not_json")}
    for folder, name in (("submitted", "ipynb"), ("autograded", "ipynb"), ("feedback", "html")):
        assert (course / folder / "correct" / ASSIGNMENT / f"{ASSIGNMENT}.{name}").is_file(), folder
    autograded = nbformat.read(course / "autograded" / "buggy" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    errors = {
        c.metadata["nbgrader"]["grade_id"]: o.ename
        for c in autograded.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    }
    assert errors == {"test_sdpa": "AssertionError"}, errors
    (inbox / "buggy.ipynb").write_bytes(cases["correct"].content)  # resubmitted, fixed
    grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, tmp_path / "out"),
        grading.Options(jobs=2, limits=LIMITS, record=True),
        progress=lambda done, total, line: None,
    )
    assert export()["buggy"] == sum(cases["correct"].points.values())
    # A notebook that is not JSON still gets a feedback page that says why it scored 0.
    page = (tmp_path / "out" / "feedback" / "not_json.html").read_text()
    assert "could not be graded" in page and "not a valid" in page
    # A manual override survives a regrade, and reaches the gradebook; a student's records can be removed.
    (tmp_path / "out" / "overrides.csv").write_text(
        "student,part,points,reason\nnot_json,sdpa,3,emailed a readable copy\n"
    )
    progress: list[str] = []
    results, _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, tmp_path / "out"),
        grading.Options(jobs=2, limits=LIMITS, record=True, regrade=frozenset({"correct"})),
        progress=lambda done, total, line: progress.append(line),
    )
    assert [line.split(":")[0] for line in progress] == ["[1/1] correct"]
    assert export()["not_json"] == 3 and "sdpa set to 3 by the instructor: emailed a readable copy" in "; ".join(
        {r.student: r for r in results}["not_json"].notes
    )
    assert gradebook.remove(course, ASSIGNMENT, "buggy") and "buggy" not in export()
    assert not (course / "autograded" / "buggy").exists() and not gradebook.remove(course, ASSIGNMENT, "buggy")


def test_a_dry_run_records_nothing(tmp_path: Path) -> None:
    course = course_copy(tmp_path / "course")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "correct.ipynb").write_bytes(notebook())
    before = sorted(p.relative_to(course) for p in course.rglob("*"))
    results, _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, inbox, tmp_path / "out"),
        grading.Options(jobs=1, limits=LIMITS, record=False),
        progress=lambda done, total, line: None,
    )
    assert results[0].total == sum(FULL.values())
    assert sorted(p.relative_to(course) for p in course.rglob("*")) == before


def test_one_submission_cannot_reach_the_next(tmp_path: Path) -> None:
    """Two students graded one after the other by the same zygote: the first tries to rewrite the
    zygote's memory (so that the next student's ``torch.softmax`` computes ``log_softmax``), leaves
    files in /tmp, /dev/shm and its home and a process running; the second, the answer key plus a
    probe that makes its masks wrong if it finds any of those files, keeps every point."""
    attack = (
        "import ctypes, os, subprocess\n"
        "try:\n"
        "    _source = ctypes.string_at(id(torch.log_softmax) + 16, 8)\n"
        "    with open('/proc/1/mem', 'r+b', buffering=0) as _memory:\n"
        "        _memory.seek(id(torch.softmax) + 16)\n"
        "        _memory.write(_source)\n"
        "except OSError:\n"
        "    pass\n"
        "for _folder in ('/tmp', '/dev/shm', os.path.expanduser('~')):\n"
        "    try:\n"
        "        open(os.path.join(_folder, 'left_by_a'), 'w').write('secret')\n"
        "    except OSError:\n"
        "        pass\n"
        "_sleeper = subprocess.Popen(['sleep', '600'])\n"
    )
    probe = (
        "\nimport glob, os\nif glob.glob('/tmp/left_by_a') + glob.glob('/dev/shm/left_by_a') + "
        "glob.glob(os.path.expanduser('~') + '/left_by_a'):\n    causal_mask = None\n"
    )
    key = KEY_A1
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a_first.ipynb").write_bytes(notebook({"sdpa": key["sdpa"] + "\n" + attack}))
    (inbox / "b_second.ipynb").write_bytes(notebook({"masks": key["masks"] + probe}))
    results, _ = grading.grade(
        grading.Batch(course_copy(tmp_path / "course"), ASSIGNMENT, inbox, tmp_path / "out"),
        grading.Options(jobs=1, limits=LIMITS),
        progress=lambda done, total, line: None,
    )
    assert [r.student for r in results] == ["a_first", "b_second"]
    # a_first's sdpa cell imports ctypes and starts a program: every part waits for a person (issue 26, attacks_v)
    held = {"sdpa": 0.0, "masks": 0.0, "split_merge": 0.0, "mha": 0.0}
    assert {r.student: r.scores for r in results} == {"a_first": FULL | held, "b_second": FULL}, [
        r.notes for r in results
    ]
