"""Attacks through the code cells a student adds to an assignment notebook (course_grading/canonical.py
keeps them, where the student put them, as ``student-cell-N``): an added cell must give the student's
code no power it has not in an answer cell. The shortcut scan reads it as it reads an answer cell;
metadata that makes a cell look like a test, an answer or the grader's own marks nothing; a cell of
any shape cannot stop the rebuild. Most tests rebuild and scan in-process (milliseconds); one
``course grade`` batch shows that an added cell carrying torch's attention gets no point, and that
``course check`` agrees with grading on a cell added after a test (both run every cell before the tests).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from test_shortcuts import failed_in_one_process

from course_grading import grade as grading
from course_grading.check import check_notebook
from course_grading.markers import (
    OWN_CELL,
    answer_code,
    answer_ids,
    is_answer,
    is_own,
    is_test,
    nbgrader_meta,
    part_points,
    with_answers,
)
from course_grading.notebook.assignments import copy_course
from course_grading.notebook.canonical import MAX_ADDED_CELLS, canonical, own_cell, rebuild
from course_grading.sandbox import limits as sandbox
from course_grading.sandbox import shortcuts, student_server, worker
from course_grading.sandbox.worker import load_checks

from assignment_support import (
    ASSIGNMENTS,
    GRADING,
    assignment_ids,
    release_notebook,
    source_notebook,
    students_course,
)
from hostile_submissions import (
    _FUSED_BODY,
    FULL,
    KEY,
    MISSING_SCALE,
    SHORTCUT_ANSWERS,
    hostile_cases,
    notebook,
    without,
)

A1 = "a1_attention"
RULES = load_checks(GRADING, A1).shortcuts


def ids(nb: nbformat.NotebookNode) -> list[str | None]:
    return [nbgrader_meta(c).get("grade_id") for c in nb.cells]


def after(nb: nbformat.NotebookNode, grade_id: str, *cells: nbformat.NotebookNode) -> None:
    """Insert ``cells`` right after the cell ``grade_id``, as a student would with Jupyter's "+"."""
    at = ids(nb).index(grade_id) + 1
    nb.cells[at:at] = list(cells)


def code(source: str, nbgrader: dict | None = None) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    if nbgrader is not None:
        cell.metadata["nbgrader"] = nbgrader
    return cell


def rebuilt(content: bytes) -> nbformat.NotebookNode:
    return rebuild(nbformat.reads(content.decode(), as_version=4), release_notebook(A1)).nb


def held(content: bytes) -> set[str]:
    """The parts the shortcut scan holds for review in the canonical notebook of ``content``."""
    return set(shortcuts.review(rebuilt(content), RULES))


def moved_to_added_cells(content: bytes) -> bytes:
    """The same submission with each answer that is not the key's moved into a cell added right after
    that answer cell (which gets the key back): the same code, run at the same point."""
    nb = nbformat.reads(content.decode(), as_version=4)
    moved = []
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if is_answer(cell) and cell.source != KEY[gid]:
            moved.append((gid, cell.source))
            cell.source = KEY[gid]
    for gid, source in moved:
        after(nb, gid, code(source))
    return nbformat.writes(nb).encode()


# --- (b) the shortcut scan reads added cells as it reads answer cells ------------------------------


def _answer_attacks() -> dict[str, bytes]:
    """Every hostile a1 submission whose answer cells the scan holds, and every route round the
    refusal of torch's attention (tests/hostile_submissions.py)."""
    attacks = {name: notebook(answers) for name, answers in SHORTCUT_ANSWERS.items()}
    attacks |= {
        name: case.content
        for name, case in hostile_cases("/course", "/out", "/inbox").items()
        if "needs review" in case.notes
    }
    return attacks


ANSWER_ATTACKS = _answer_attacks()


@pytest.mark.parametrize("name", sorted(ANSWER_ATTACKS))
def test_an_attack_moved_into_an_added_cell_is_held_as_in_the_answer_cell(name: str) -> None:
    """Before: an added cell was not read at all (only its names and imports, as the release's set-up
    cells'), so each of these got round the scan by moving into a cell of its own."""
    content = ANSWER_ATTACKS[name]
    in_answers = held(content)
    assert in_answers, name  # the attack is one the scan catches where it was
    added = moved_to_added_cells(content)
    assert any(is_own(c) for c in rebuilt(added).cells)
    assert held(added) >= in_answers, name


def test_an_added_cell_that_saves_torchs_attention_for_the_answer_is_held() -> None:
    """The split attack: the added cell keeps torch's kernel where the refusal does not look, the
    answer cell (clean by itself) calls it; a plain import of the kernel in an added cell too."""
    saved = "import torch.nn.functional as F\n_KERNELS = (F.scaled_dot_product_attention,)\n"
    answer = "def scaled_dot_product_attention(q, k, v, mask=None):\n    _fused = _KERNELS[0]\n" + _FUSED_BODY
    assert held(notebook({"sdpa": answer}, lambda nb: after(nb, "imports", code(saved)))) >= {"sdpa"}
    imported = "from torch.nn.functional import scaled_dot_product_attention as _fast\n"
    answer = answer.replace("_KERNELS[0]", "_fast")
    assert held(notebook({"sdpa": answer}, lambda nb: after(nb, "imports", code(imported)))) >= {"sdpa"}
    assert (
        held(
            notebook(
                None,
                lambda nb: after(
                    nb, "imports", code("import math\n\ndef _scale(q):\n    return math.sqrt(q.shape[-1])\n")
                ),
            )
        )
        == set()
    )


def test_an_added_cells_import_of_the_course_library_is_not_the_releases() -> None:
    """Before: what an added cell imports counted as what the release's own cells import, which an
    answer may import too, so that ``import course_lib.attention`` there let the masks answer use it."""
    lib = "import course_lib.attention\ncausal_mask = course_lib.attention.causal_mask\n"
    assert "masks" in held(notebook({"masks": lib}))
    assert "masks" in held(
        notebook({"masks": lib}, lambda nb: after(nb, "imports", code("import course_lib.attention\n")))
    )
    assert "masks" in held(
        notebook(
            {"masks": "def causal_mask(T):\n    return _lib_mask(T)\n"},
            lambda nb: after(nb, "imports", code("from course_lib.attention import causal_mask as _lib_mask\n")),
        )
    )


@pytest.mark.parametrize(
    "magic",
    [
        "%matplotlib inline\n",
        "%%time\nx = 1\n",
        "!pip list\n",
        "files = !ls\n",
        "%load_ext autoreload\n%autoreload 2\n",
    ],
)
def test_an_added_cell_of_ipython_magics_is_not_held(magic: str) -> None:
    """The grader's student process runs no magic (its ``get_ipython()`` skips them all): an added
    ``%matplotlib inline`` is no evidence, where every part would be held for a person. Calling the shell for
    anything else, or rebinding it, still is, in every part (code the scan cannot read)."""
    every = {"sdpa", "masks", "split_merge", "mha"}
    assert held(notebook(None, lambda nb: after(nb, "imports", code(magic)))) == set()
    assert held(notebook(None, lambda nb: after(nb, "imports", code("get_ipython().run_cell(text)\n")))) == every
    assert (
        held(notebook(None, lambda nb: after(nb, "imports", code("from IPython import get_ipython\n" + magic))))
        == every
    )


def test_a_timed_cell_runs_its_code_and_the_scan_reads_it() -> None:
    """``%%time`` and ``%time`` run their code in Jupyter, so grading runs it too (a helper defined
    under ``%%time`` exists afterwards, as ``course check`` finds), and the scan reads it as code."""
    namespace: dict = {}
    exec(student_server._python("%%time\ndef _helper(x):\n    return 2 * x\n%time y = _helper(3)\n"), namespace)
    assert namespace["_helper"](1) == 2 and namespace["y"] == 6
    assert held(notebook({"sdpa": CALLS_SAVED}, lambda nb: after(nb, "imports", code("%%time\n" + SAVED_KERNEL)))) == {
        "sdpa"
    }


HONEST_CELLS = (
    "%matplotlib inline\nimport matplotlib.pyplot as plt\n",
    "import numpy as np\nfrom collections import Counter\n\n\ndef _shape(x):\n    return tuple(x.shape)\n",
    "x = torch.randn(2, 3)\nprint(x.shape, x.dtype)\n",
    "%%time\ny = sum(range(10))\n",
    "!nvidia-smi\n",
)


@pytest.mark.parametrize("assignment", assignment_ids())
def test_the_added_cells_honest_students_write_hold_nothing(assignment: str) -> None:
    """Plots, prints, helpers and magics added after each answer of every assignment's key hold no part."""
    release = release_notebook(assignment)

    def edit(nb: nbformat.NotebookNode) -> None:
        for gid in answer_ids(release):
            after(nb, gid, *map(code, HONEST_CELLS))

    nb = rebuild(nbformat.reads(notebook(None, edit, assignment=assignment).decode(), as_version=4), release).nb
    assert sum(map(is_own, nb.cells)) == len(HONEST_CELLS) * len(answer_ids(release))
    assert shortcuts.review(nb, load_checks(GRADING, assignment).shortcuts) == {}


# --- (a) metadata that makes an added cell look like a test, an answer or the grader's own ---------


FAKES = {
    "a test cell worth 100": {
        "grade": True,
        "solution": False,
        "locked": True,
        "points": 100,
        "grade_id": "test_bonus",
    },
    "a manually graded answer": {"grade": True, "solution": True, "points": 50, "grade_id": "bonus"},
    "the grader's own mark": {"grade": False, "solution": False, "locked": False, "grade_id": f"{OWN_CELL}1"},
    "the grader's own mark, as an answer": {"grade": True, "solution": True, "points": 9, "grade_id": f"{OWN_CELL}2"},
}


def test_metadata_on_an_added_cell_marks_nothing() -> None:
    """Each fake (placed between answers and tests) is kept as a plain added cell, renumbered: no
    new test, answer or points, every grade id once, the release's tests and points unchanged."""

    def edit(nb: nbformat.NotebookNode) -> None:
        after(nb, "sdpa", *[code(f"FAKE_{i} = {i}\n", dict(meta)) for i, meta in enumerate(FAKES.values())])

    nb = rebuilt(notebook(None, edit))
    release = release_notebook(A1)
    own = [c for c in nb.cells if is_own(c)]
    assert [c.source for c in own] == [f"FAKE_{i} = {i}\n" for i in range(len(FAKES))]
    assert [nbgrader_meta(c)["grade_id"] for c in own] == [f"{OWN_CELL}{i}" for i in range(1, len(FAKES) + 1)]
    assert not any(is_test(c) or is_answer(c) or nbgrader_meta(c).get("points") for c in own)
    assert part_points(nb) == part_points(release) and answer_ids(nb) == answer_ids(release)
    assert len(set(ids(nb))) == len(nb.cells) and len({c.id for c in nb.cells}) == len(nb.cells)


def test_a_fake_test_cell_before_the_real_one_changes_no_test_and_no_points() -> None:
    """A cell claiming to be test_sdpa (100 points, ``pass``) between the answer and the real test:
    the release's test_sdpa is graded, once, in its place, with its points; both are noted."""

    def edit(nb: nbformat.NotebookNode) -> None:
        after(
            nb,
            "sdpa",
            code("pass\n", {"grade": True, "solution": False, "locked": True, "points": 100, "grade_id": "test_sdpa"}),
        )

    raw = nbformat.reads(notebook({"sdpa": MISSING_SCALE}, edit).decode(), as_version=4)
    result = rebuild(raw, release_notebook(A1))
    release = release_notebook(A1)
    tests = [(nbgrader_meta(c)["grade_id"], c.source) for c in result.nb.cells if is_test(c)]
    assert tests == [(nbgrader_meta(c)["grade_id"], c.source) for c in release.cells if is_test(c)]
    assert part_points(result.nb) == part_points(release) and not any(is_own(c) for c in result.nb.cells)
    assert any("read-only cell test_sdpa appears twice" in n for n in result.notes) and any(
        "edited or deleted (test_sdpa)" in n for n in result.notes
    )


def test_an_answer_cell_made_to_look_added_is_not_graded_as_the_answer() -> None:
    """A correct answer whose grade id was changed: run as an added cell (before the release's stub,
    which replaces it), the part noted as not answered; a read-only copy of a test cell with a
    different grade id and a wrong answer before it is an added cell too, not a test."""

    def relabel(nb: nbformat.NotebookNode) -> None:
        cell = nb.cells[ids(nb).index("sdpa")]
        cell.metadata["nbgrader"]["grade_id"] = f"{OWN_CELL}1"

    raw = nbformat.reads(notebook(None, relabel).decode(), as_version=4)
    result = rebuild(raw, release_notebook(A1))
    order = ids(result.nb)
    assert order.index(f"{OWN_CELL}1") < order.index("sdpa") < order.index("test_sdpa")
    assert (
        result.nb.cells[order.index("sdpa")].source
        == release_notebook(A1).cells[ids(release_notebook(A1)).index("sdpa")].source
    )
    assert "answer cell sdpa is missing: graded as not answered" in result.notes


def test_a_copy_of_a_test_cell_above_everything_moves_no_added_cell_before_its_part() -> None:
    """A copy of the last test cell put first: graded once, in its place (the copy is noted); the
    added cell after the copy follows the last test, so it is dropped, and runs nowhere."""

    def edit(nb: nbformat.NotebookNode) -> None:
        copy = nbformat.from_dict(json.loads(json.dumps(nb.cells[ids(nb).index("test_mha")])))
        copy.source = "assert True"
        nb.cells[0:0] = [copy, code("scaled_dot_product_attention = None\n")]

    raw = nbformat.reads(notebook(None, edit).decode(), as_version=4)
    result = rebuild(raw, release_notebook(A1))
    assert not any(is_own(c) for c in result.nb.cells)
    assert ids(result.nb).count("test_mha") == 1
    assert any("appears twice" in n for n in result.notes) and any(
        "after the last test cell" in n for n in result.notes
    )


# --- (c) a cell of any shape is rebuilt, never a grader's failure ----------------------------------


@pytest.mark.parametrize("cell_id, kept", [(7, True), (None, True), (["a", "list"], False), ({"a": "dict"}, False)])
def test_an_added_cell_with_a_cell_id_of_any_shape_is_rebuilt_or_refused_with_a_reason(
    tmp_path: Path, cell_id: object, kept: bool
) -> None:
    """A cell id that is not text: a number or null is rebuilt (the added cell kept); one that cannot
    be hashed is not a notebook to nbformat, which says so: never an exception of the grader."""
    nb = nbformat.reads(notebook().decode(), as_version=4)
    after(nb, "sdpa", code("ADDED = 1\n"))
    raw = json.loads(nbformat.writes(nb))
    raw["cells"][ids(nb).index("sdpa") + 1]["id"] = cell_id
    path = tmp_path / "s.ipynb"
    path.write_text(json.dumps(raw))
    graded, notes = canonical(path, release_notebook(A1))
    if kept:
        assert graded is not None and [c.source for c in graded.cells if is_own(c)] == ["ADDED = 1\n"], notes
    else:
        assert graded is None and re.match(r"not a valid Jupyter notebook \(TypeError: unhashable", notes[0]), notes


def test_a_flood_of_added_cells_is_bounded_and_noted_in_a_few_words() -> None:
    """Before: every added cell was kept (20,000 tiny ones took 13 s to rebuild, in the batch's own
    process, before any of the student's limits; a 128 MiB notebook holds a million), each with
    its own note when it held a lone surrogate, and a note named every dropped cell. Now the first
    MAX_ADDED_CELLS are graded, and each note names ten cells and counts the rest."""
    flood = 3 * MAX_ADDED_CELLS

    def edit(nb: nbformat.NotebookNode) -> None:
        after(nb, "sdpa", *[code(f"_x{i} = '\\ud800'\n") for i in range(flood)])
        after(nb, "test_mha", *[code(f"_y{i} = {i}\n") for i in range(flood)])

    raw = nbformat.reads(notebook(None, edit).decode(), as_version=4)
    for cell in raw.cells:
        cell.source = cell.source.replace("\\ud800", "\ud800")  # a lone surrogate, as a notebook's JSON can hold one
    result = rebuild(raw, release_notebook(A1))
    own = [c for c in result.nb.cells if is_own(c)]
    assert len(own) == MAX_ADDED_CELLS and own[-1].source == f"_x{MAX_ADDED_CELLS - 1} = '\\ud800'\n"
    assert len(result.notes) == 3 and all(len(note) < 300 for note in result.notes), result.notes
    first = ids(raw).index("sdpa") + 2  # the first added cell, counted from 1
    assert (
        f"cells {first}, {first + 1}, " in result.notes[0]
        and f"and {flood - 10} more hold characters UTF-8 cannot encode" in result.notes[0]
    )
    assert (
        f"and {flood - MAX_ADDED_CELLS - 10} more were not graded: a notebook's first "
        f"{MAX_ADDED_CELLS} added code cells are"
    ) in " ".join(result.notes)
    assert f"and {flood - 10} more added after the last test cell were not graded" in " ".join(result.notes)


def test_an_added_cell_runs_in_the_students_process_with_every_other_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the worker hands the student process: the added cell, by its grade id, between the cells
    around it; test cells are not among them (they run later, each with correct other parts)."""
    nb = rebuilt(notebook(None, lambda nb: after(nb, "test_sdpa", code("ADDED = 1\n"))))
    monkeypatch.setattr(worker, "_ZYGOTE", object())  # no process is started: only the cells are listed
    cells = worker.student_process({"cell_s": 1, "output_bytes": 1}, nb).cells
    names = [gid for gid, _ in cells]
    assert f"{OWN_CELL}1" in names and not any(n.startswith("test_") for n in names)
    assert names.index("sdpa") < names.index(f"{OWN_CELL}1") < names.index("masks")


# --- end to end: one batch, and course check on one of its notebooks ---------------------------------

SAVED_KERNEL = "import torch.nn.functional as F\n_KERNELS = (F.scaled_dot_product_attention,)\n"
CALLS_SAVED = "def scaled_dot_product_attention(q, k, v, mask=None):\n    _fused = _KERNELS[0]\n" + _FUSED_BODY
LATE_VARIANT = "# trying the unscaled version, after the tests passed\n" + MISSING_SCALE


def test_the_split_attack_is_caught_by_what_runs_and_by_the_scan() -> None:
    """The kernel kept in an added cell: run in one process in grading's order (every code cell, then
    each test cell, hidden tests included), the call of the captured builtin goes, under the operator
    trace's function mode, through the name torch resolves it by, where the refusal sits: the part
    fails. (Before the trace it scored there; the scan named it.) The scan still names it."""
    source = source_notebook(A1)
    nb = with_answers(source, answer_code(source) | {"sdpa": CALLS_SAVED})
    nb.cells.insert(ids(nb).index("imports") + 1, own_cell(SAVED_KERNEL, 1))
    failed = failed_in_one_process(nb)
    assert set(failed) == {"sdpa"} and "calls a library function" in failed["sdpa"]
    assert "sdpa" in shortcuts.review(nb, RULES)


class Batch:
    def __init__(self, root: Path) -> None:
        course = copy_course(root / "course", ASSIGNMENTS)
        shutil.copytree(ASSIGNMENTS / "release", course / "release")
        self.course, self.inbox = course, root / "inbox"
        self.inbox.mkdir()
        (self.inbox / "split_kernel.ipynb").write_bytes(
            notebook({"sdpa": CALLS_SAVED}, lambda nb: after(nb, "imports", code(SAVED_KERNEL)))
        )
        (self.inbox / "magic.ipynb").write_bytes(
            notebook(
                None,
                lambda nb: after(
                    nb, "imports", code("%matplotlib inline\nimport math\n\ndef _half(x):\n    return x / 2\n")
                ),
            )
        )
        (self.inbox / "late_variant.ipynb").write_bytes(
            notebook(None, lambda nb: after(nb, "test_sdpa", code(LATE_VARIANT)))
        )
        limits = sandbox.Limits(cell_s=10, total_s=60, memory_bytes=4 * 2**30)
        results, _ = grading.grade(
            grading.Batch(course, A1, self.inbox, root / "out"),
            grading.Options(jobs=2, limits=limits),
            progress=lambda *_: None,
        )
        self.by_student = {r.student: r for r in results}


needs_sandbox = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return Batch(tmp_path_factory.mktemp("added"))


@pytest.mark.slow
@needs_sandbox
def test_course_grade_holds_torchs_attention_carried_by_an_added_cell(batch: Batch) -> None:
    """An sdpa on torch's fused attention, kept in an added cell before the (clean) answer that calls
    it: before, it scored the part (the refusal in the student's process never sees a kernel kept in
    a tuple); now it is held for a person. An added magic cell and an added helper cost nothing."""
    split = batch.by_student["split_kernel"]
    assert split.scores == without("sdpa"), split.notes
    assert re.search(r"needs review: sdpa: cell student-cell-1", "; ".join(split.notes)), split.notes
    assert batch.by_student["magic"].scores == FULL, batch.by_student["magic"].notes


@pytest.mark.slow
@needs_sandbox
def test_course_check_agrees_with_grading_on_a_cell_added_after_a_test(batch: Batch, tmp_path: Path) -> None:
    """A student who, after part 1's tests passed, adds a cell below them to try a variant (wrong):
    grading runs every cell before the tests, and so does ``course check``; both say why."""
    report = check_notebook(batch.inbox / "late_variant.ipynb", students_course(tmp_path / "course"), timeout=10)
    checked = report.parts[0].failure is None
    graded = batch.by_student["late_variant"].scores["sdpa"] > 0
    note = "defines `scaled_dot_product_attention` again, below the test cell test_sdpa"
    assert any(note in n for n in report.notes) and any(note in n for n in batch.by_student["late_variant"].notes)
    assert checked == graded, (report.render(), batch.by_student["late_variant"].notes)
