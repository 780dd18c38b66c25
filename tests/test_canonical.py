"""The canonical notebook (course_grading/canonical.py): the student's own code cells are kept where
the student put them, the release's read-only cells cannot be displaced or duplicated, what cannot
be kept is noted, the size rule counts code and text (not outputs), and a notebook of another
assignment is named; then ``course grade`` on such notebooks, in its jail."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.grade import ATTENTION
from course_grading.markers import MAX_SOURCE_BYTES, OWN_CELL, is_own, nbgrader_meta
from course_grading.notebook.assignments import copy_course
from course_grading.notebook.canonical import assignment_of, canonical, rebuild
from course_grading.sandbox import limits as sandbox

from assignment_support import ASSIGNMENTS, release_notebook
from hostile_submissions import FULL, KEY, notebook

A1, A2 = "a1_attention", "a2_blocks"
RELEASES = ASSIGNMENTS / "release"
HELPER = "import numpy as np\n\n\ndef _scale(q):\n    return float(np.sqrt(q.shape[-1]))\n"
USES_HELPER = KEY["sdpa"].replace("/ math.sqrt(q.shape[-1])", "/ _scale(q)")
assert USES_HELPER != KEY["sdpa"]


def ids(nb: nbformat.NotebookNode) -> list[str | None]:
    return [nbgrader_meta(c).get("grade_id") for c in nb.cells]


def after(nb: nbformat.NotebookNode, grade_id: str, *cells: nbformat.NotebookNode) -> None:
    """Insert ``cells`` right after the cell ``grade_id``, as a student would with Jupyter's "+"."""
    at = ids(nb).index(grade_id) + 1
    nb.cells[at:at] = list(cells)


def code(source: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(source)


def write(tmp_path: Path, content: bytes, name: str = "s.ipynb") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def submission(edit) -> nbformat.NotebookNode:  # noqa: ANN001 (a function of the notebook)
    return nbformat.reads(notebook({"sdpa": USES_HELPER}, edit).decode(), as_version=4)


# --- where the student's cells go ----------------------------------------------------------------


def test_an_added_cell_is_kept_where_the_student_put_it() -> None:
    def edit(nb: nbformat.NotebookNode) -> None:
        after(nb, "imports", code(HELPER))
        after(nb, "sdpa", code("CHECKED = True"), nbformat.v4.new_markdown_cell("my notes"), code("   \n"))

    raw = submission(edit)
    rebuilt = rebuild(raw, release_notebook(A1))
    order = ids(rebuilt.nb)
    assert order[:7] == ["intro", "imports", f"{OWN_CELL}1", "part1", "sdpa", f"{OWN_CELL}2", "test_sdpa"]
    own = [c for c in rebuilt.nb.cells if is_own(c)]
    assert [c.source for c in own] == [HELPER, "CHECKED = True"]  # markdown and blank cells are not code to run
    assert all(
        c.id == nbgrader_meta(c)["grade_id"] and not any(nbgrader_meta(c)[k] for k in ("grade", "solution", "locked"))
        for c in own
    )
    assert rebuilt.notes == []  # kept as nbgrader keeps them: nothing to say
    assert [raw.cells[i].source if i is not None else None for i in rebuilt.origin] == [
        c.source for c in rebuilt.nb.cells
    ]


def test_read_only_cells_stay_the_releases_once_and_in_place() -> None:
    """A test cell moved to the top, a copy of it, and an added cell after the moved one: the
    release's cell is graded once, in its place; the added cell follows the moved cell's place."""

    def edit(nb: nbformat.NotebookNode) -> None:
        test = nb.cells.pop(ids(nb).index("test_masks"))
        test.source = "pass"
        nb.cells.insert(0, test)
        nb.cells.insert(1, code("AFTER_THE_MOVED_TEST = 1"))
        nb.cells.append(nbformat.from_dict(json.loads(json.dumps(test))))

    rebuilt = rebuild(submission(edit), release_notebook(A1))
    release = release_notebook(A1)
    read_only = [c.source for c in rebuilt.nb.cells if nbgrader_meta(c).get("locked")]
    assert ids(rebuilt.nb).count("test_masks") == 1
    assert read_only == [c.source for c in release.cells if nbgrader_meta(c).get("locked")]
    assert [i for i in ids(rebuilt.nb) if not i.startswith(OWN_CELL)] == [i for i in ids(release) if i is not None]
    assert ids(rebuilt.nb)[ids(rebuilt.nb).index("test_masks") + 1] == f"{OWN_CELL}1"
    joined = "; ".join(rebuilt.notes)
    assert (
        "read-only cell test_masks appears twice" in joined
        and "read-only cells edited or deleted (test_masks)" in joined
    )


def test_cells_that_cannot_be_kept_are_dropped_with_a_note(tmp_path: Path) -> None:
    def edit(nb: nbformat.NotebookNode) -> None:
        after(nb, "test_mha", code("scaled_dot_product_attention = None"))  # after every test: could only do harm first

    path = write(tmp_path, notebook(None, edit))
    nb, notes = canonical(path, release_notebook(A1))
    assert nb is not None and not any(is_own(c) for c in nb.cells)
    assert any(re.search(r"cell \d+ added after the last test cell was not graded", n) for n in notes), notes
    assert "after the last test cell" in nb.cells[0].source  # the feedback's first cell says it

    def strip(nb: nbformat.NotebookNode) -> None:
        for cell in nb.cells:
            cell.metadata.pop("nbgrader", None)

    nb, notes = canonical(write(tmp_path, notebook(None, strip)), release_notebook(A1))
    assert nb is not None and not any(is_own(c) for c in nb.cells)  # nothing to place them by
    assert any("none of the notebook's cells is this assignment's" in n for n in notes), notes


def test_the_releases_own_ungraded_cell_is_not_the_students(tmp_path: Path) -> None:
    """a1's optional plot after the last part is the release's: skipped silently, as always."""
    assert any(c.cell_type == "code" and not nbgrader_meta(c) for c in release_notebook(A1).cells)
    nb, notes = canonical(write(tmp_path, notebook()), release_notebook(A1))
    assert nb is not None and notes == [] and not any(is_own(c) for c in nb.cells)


# --- size, and another assignment's notebook ------------------------------------------------------


def test_outputs_do_not_count_towards_the_size_limit_and_code_does(tmp_path: Path) -> None:
    def outputs(nb: nbformat.NotebookNode) -> None:
        cell = nb.cells[ids(nb).index("sdpa")]
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "A" * (26 * 10**6)})]

    path = write(tmp_path, notebook(None, outputs))
    assert path.stat().st_size > 26 * 10**6
    nb, notes = canonical(path, release_notebook(A1))
    assert nb is not None and notes == []

    path = write(tmp_path, notebook({"sdpa": KEY["sdpa"] + "\n# " + "x" * MAX_SOURCE_BYTES + "\n"}))
    nb, notes = canonical(path, release_notebook(A1))
    assert nb is None and re.fullmatch(
        r"its cells' code and text come to 20\.0 MiB, over the limit of 20 MiB \(outputs do not count\)", notes[0]
    ), notes


def test_a_notebook_of_many_small_json_values_is_counted_not_parsed(tmp_path: Path) -> None:
    """attacks_r: 30 MB of empty objects in a notebook's metadata cost the grader's own process 5 GB to parse. A
    structure past MAX_JSON_VALUES is refused unread, in little memory (a process of its own measures it); the
    commas and brackets inside strings (a printed tensor, a long markdown cell) count for nothing.

    The peak is the process's own (VmHWM of its address space): ``ru_maxrss`` carries the parent's peak across
    ``exec``, and a pytest worker that has trained models reads 2 GB there before the child does anything."""

    def printed(nb: nbformat.NotebookNode) -> None:  # 2,000,000 commas and brackets, all inside strings
        cell = nb.cells[ids(nb).index("sdpa")]
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="[1, {2}], " * 500_000)]

    nb, notes = canonical(write(tmp_path, notebook(None, printed)), release_notebook(A1))
    assert nb is not None and notes == []

    def bomb(nb: nbformat.NotebookNode) -> None:
        nb.metadata["x"] = [{}] * 3_000_000

    path = write(tmp_path, notebook(None, bomb))
    status = Path("/proc/self/status")
    peak = f"int(Path({str(status)!r}).read_text().split('VmHWM:')[1].split()[0]) // 1024"
    script = (
        "import sys; from pathlib import Path; from course_grading.notebook.canonical import canonical;"
        "from course_grading.markers import MAX_JSON_VALUES;"
        f"from assignment_support import release_notebook; nb, notes = canonical(Path({str(path)!r}), "
        f"release_notebook({A1!r})); print(nb is None, notes[0].startswith(f'the notebook\\'s JSON has more than "
        f"{{MAX_JSON_VALUES:,}}'), {peak if status.exists() else '0'})"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=Path(__file__).parent)
    refused, named, peak_mb = run.stdout.split()
    assert (refused, named) == ("True", "True"), (run.stdout, run.stderr)
    if not status.exists():
        pytest.skip("the peak memory is read from Linux's /proc/self/status; refused unread, not measured here")
    assert int(peak_mb) < 600, (run.stdout, run.stderr)


def test_another_assignments_notebook_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, notebook(assignment=A2), "a1_attention.ipynb")
    nb, notes = canonical(path, release_notebook(A1), RELEASES)
    assert nb is None and notes == [
        f"this is {A2}'s notebook, not {A1}'s (its answer and test cells are {A2}'s): "
        "not graded, for a person to look at"
    ]
    assert assignment_of({"sdpa", "test_mha", "intro", "setup"}, RELEASES) == A1
    assert assignment_of({"intro", "setup", "part1"}, RELEASES) is None  # headings and set-up are in every assignment
    nb, notes = canonical(write(tmp_path, notebook(), "other.ipynb"), release_notebook(A1), RELEASES)
    assert nb is not None and notes == []


# --- graded ----------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)
def test_grading_runs_added_cells_in_the_students_process(tmp_path: Path) -> None:
    """A helper cell a part uses earns that part its points (it scored 0 when added cells were
    dropped); an added cell that fails, hangs or stops its process is the student's, costs no part
    and is no grader error; a cell after the last test is dropped with a note; an a2 notebook handed
    in for a1 needs attention, named."""
    course = copy_course(tmp_path / "course", ASSIGNMENTS)
    shutil.copytree(RELEASES, course / "release")
    inbox = tmp_path / "inbox"
    inbox.mkdir()

    def helper(nb: nbformat.NotebookNode) -> None:
        after(nb, "imports", code(HELPER))
        after(nb, "test_mha", code("scaled_dot_product_attention = None"))

    def hostile(nb: nbformat.NotebookNode) -> None:
        nb.cells.insert(1, code("import a_module_nobody_has"))  # before the set-up cell
        after(nb, "sdpa", code(HELPER + "\nwhile True:\n    pass\n"))
        after(nb, "masks", code("import os\nos._exit(3)"))

    (inbox / "helper.ipynb").write_bytes(notebook({"sdpa": USES_HELPER}, helper))
    (inbox / "hostile.ipynb").write_bytes(notebook(None, hostile))
    (inbox / "other.ipynb").write_bytes(notebook(assignment=A2))
    limits = sandbox.Limits(cell_s=5, total_s=60, memory_bytes=4 * 2**30)
    results, _ = grading.grade(
        grading.Batch(course, A1, inbox, tmp_path / "out"),
        grading.Options(jobs=1, limits=limits),
        progress=lambda *_: None,
    )
    by_student = {r.student: r for r in results}
    assert by_student["helper"].scores == FULL and by_student["helper"].status == grading.GRADED
    assert "added after the last test cell was not graded" in "; ".join(by_student["helper"].notes)
    assert by_student["hostile"].scores == FULL and by_student["hostile"].status == grading.GRADED, by_student[
        "hostile"
    ].notes
    assert re.search(r"time limit.*|stopped the notebook's process", "; ".join(by_student["hostile"].notes))
    feedback = (tmp_path / "out" / "feedback" / "hostile.html").read_text()
    assert "ModuleNotFoundError" in feedback  # an added cell's outputs are shown where it is
    other = by_student["other"]
    assert other.status == ATTENTION and sum(other.scores.values()) == 0
    assert f"this is {A2}'s notebook, not {A1}'s" in "; ".join(other.notes)


def test_nbgrader_markers_in_a_students_cells_are_defused() -> None:
    from course_grading.markers import ANY_MARKER, defused

    source = "x = 1\n### BEGIN HIDDEN TESTS\n# End Solution\ns = 'begin solution'\n"
    assert ANY_MARKER.search(source) and not ANY_MARKER.search(defused(source))
    assert defused("y = 2\n") == "y = 2\n"
