"""The grading layer's pure parts, without a sandbox: the markers and notebook helpers, the
canonical notebook, the cache key, the reference swap, the replayed outputs and the overrides.
(Intake, late work and the LMS exports have their own test files.)"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.markers import (
    HIDDEN_BLOCK,
    SOLUTION_BLOCK,
    answer_code,
    defined_names,
    hidden_tests,
    nbgrader_meta,
    part_names,
    part_points,
    without_hidden_tests,
)
from course_grading.notebook import assignments
from course_grading.notebook.canonical import canonical
from course_grading.sandbox.calls import Reply, call_in, judged, restore_own, use_references
from course_grading.sandbox.replay import TEST_NOTE, as_nbformat

from assignment_support import ASSIGNMENTS, assignment_ids, release_notebook, source_notebook, submission_notebook

A1 = "a1_attention"


def test_markers_find_every_block_of_the_sources_and_none_of_the_releases() -> None:
    assert len(assignment_ids()) >= 6
    for assignment in assignment_ids():
        source = "\n".join(c.source for c in source_notebook(assignment).cells)
        released = "\n".join(c.source for c in release_notebook(assignment).cells)
        tests = [
            c
            for c in source_notebook(assignment).cells
            if nbgrader_meta(c).get("grade") and not nbgrader_meta(c).get("solution")
        ]
        # begin_part before, end_part after the visible tests
        assert len(HIDDEN_BLOCK.findall(source)) == 2 * len(tests)
        assert (
            SOLUTION_BLOCK.search(source) and not SOLUTION_BLOCK.search(released) and not HIDDEN_BLOCK.search(released)
        )


def test_hidden_blocks_are_cut_whole_and_only_them() -> None:
    cell = (
        "a = 1\n  ### BEGIN HIDDEN TESTS\nsecret()\n### END HIDDEN TESTS  \nb = 2\n"
        "### BEGIN HIDDEN TESTS\nmore()\n### END HIDDEN TESTS"
    )
    assert without_hidden_tests(cell) == "a = 1\nb = 2\n"
    assert hidden_tests(cell) == ["secret()\n", "more()\n"]
    assert (
        without_hidden_tests("### BEGIN HIDDEN TESTS without an end\nx = 1\n")
        == "### BEGIN HIDDEN TESTS without an end\nx = 1\n"
    )


def test_each_part_is_made_of_the_functions_its_stub_defines() -> None:
    assert part_names(release_notebook(A1)) == {
        "test_sdpa": ["scaled_dot_product_attention"], "test_masks": ["causal_mask", "padding_mask"],
        "test_split_merge": ["split_heads", "merge_heads"], "test_mha": ["multi_head_attention"],
    }  # fmt: skip
    assert part_points(release_notebook(A1)) == {"sdpa": 4.0, "masks": 2.0, "split_merge": 2.0, "mha": 4.0}
    assert defined_names("def f(:\n") == []


def test_the_reference_swap_keeps_the_part_under_test_and_undoes_itself() -> None:
    namespace: dict = {}
    exec(
        "def causal_mask(T):\n    return 'mine'\nalias = causal_mask\ndef multi_head_attention():\n    return alias(3)",
        namespace,
    )
    references = "def causal_mask(T):\n    return 'reference'\ndef multi_head_attention():\n    return 'reference'"
    use_references(namespace, references, exclude=["multi_head_attention"])
    assert namespace["causal_mask"](3) == "reference" and namespace["alias"](3) == "reference"  # aliases too
    # the part under test stays the student's
    assert namespace["multi_head_attention"].__code__.co_filename == "<string>"
    assert namespace["multi_head_attention"]() == "reference"  # and calls the correct other part
    exec("def causal_mask(T):\n    return 'defined again'", namespace)  # code run since keeps its definition
    use_references(namespace, references, exclude=["causal_mask"])  # a second swap undoes the first
    assert namespace["causal_mask"](3) == "defined again" and namespace["alias"](3) == "mine"
    assert namespace["multi_head_attention"]() == "reference"
    restore_own(namespace)
    assert namespace["multi_head_attention"]() == "mine" and namespace["causal_mask"](3) == "defined again"


def test_a_driver_reaches_the_students_classes_for_one_call_only() -> None:
    """A check's driver (source it hands to ``call``) is defined beside the student's code for one
    call, in the kernel and in the student's process alike: it finds the student's class by its name,
    returns plain values, and leaves nothing behind (a student's function of the same name comes
    back); what the student's code raises reaches the check as the student's error."""
    import torch

    from course_grading.sandbox.calls import LocalStudent, StudentRaised, unwire, wire
    from course_grading.sandbox.student_server import answer

    namespace: dict = {}
    exec("class Doubler:\n    def __init__(self, k):\n        self.k = k\n"
         "    def __call__(self, x):\n        return 2 * self.k * x\n\n"
         "def _drive(k, x):\n    return 'mine'\n", namespace)  # fmt: skip
    driver = (
        "def _drive(k, x):\n    return _helper(Doubler(k), x)\n\ndef _helper(layer, x):\n"
        "    return {'out': layer(x), 'k': layer.k}\n"
    )
    reply = LocalStudent(namespace).call("_drive", (3, torch.ones(2)), driver=driver)
    assert torch.equal(reply.value["out"], torch.full((2,), 6.0)) and reply.value["k"] == 3
    assert namespace["_drive"](0, 0) == "mine" and "_helper" not in namespace
    with pytest.raises(StudentRaised, match="AttributeError"):
        LocalStudent(namespace).call("_drive", (1, 1), driver="def _drive(k, x):\n    return Doubler(k).weight\n")
    request = {
        "op": "call",
        "name": "_drive",
        "args": wire((3, torch.ones(2))),
        "grad_args": [],
        "forbid": [],
        "references": [],
        "driver": driver,
    }
    # the student process's side
    served = answer(namespace, request, cell_s=10, allowance=[10_000], requests=-1, replies=-1)
    assert torch.equal(unwire(served["value"])["out"], torch.full((2,), 6.0))
    assert namespace["_drive"](0, 0) == "mine" and "_helper" not in namespace


def test_the_student_process_reports_aliases_and_differentiates_every_asked_output() -> None:
    """What crosses the boundary for a call: whether a returned tensor shares memory with an argument, and
    the gradients of the probes of every output asked for (item 1 detached: only item 0's part remains)."""
    import torch

    from course_grading.sandbox.calls import unwire, wire
    from course_grading.sandbox.student_server import answer

    namespace: dict = {}
    exec("def view(x):\n    return x[1:]\n\ndef copy(x):\n    return x[1:].clone()\n\n"
         "def two(x):\n    return 2 * x, 3 * x\n\n"
         "def half(x):\n    return 2 * x, (3 * x).detach()\n", namespace)  # fmt: skip

    def served(name: str, **fields: object) -> dict:
        request = {
            "op": "call",
            "name": name,
            "args": wire((torch.randn(4),)),
            "grad_args": [],
            "forbid": [],
            "references": [],
        }
        return answer(namespace, request | fields, cell_s=10, allowance=[10_000], requests=-1, replies=-1)

    # the server reports plain facts; the grader judges the flags from them
    assert judged(Reply(None, (), None, False, facts=served("view")["facts"]), "enabled").aliased
    assert not judged(Reply(None, (), None, False, facts=served("copy")["facts"]), "enabled").aliased
    assert not any(flag in served("copy") for flag in ("aliased", "global_rng_moved", "inference", "overlapping"))
    probe = torch.linspace(-1, 1, 4)
    both = served("two", grad_args=[0], grad_outputs=[0, 1])
    assert both["differentiable"] and torch.allclose(unwire(both["grads"])[0], 2 * probe + 3 * probe)
    first = served("two", grad_args=[0])  # by default the first output only
    assert torch.allclose(unwire(first["grads"])[0], 2 * probe)
    assert served("half", grad_args=[0], grad_outputs=[0, 1])["differentiable"] is False


def test_the_flags_of_a_reply_are_judged_by_the_grader_from_plain_facts() -> None:
    """Every flag comes from what the student's process saw (digests, storage addresses, shapes and strides), judged
    in the grader's process; a fact that is missing or malformed raises its flag, never lowers it."""
    import torch

    namespace: dict = {}
    exec(
        "import random\nimport torch\n\n"
        "def expanded(x):\n    return x[:1].clone().expand(3, 4)\n\n"
        "def overlap(x):\n    return torch.zeros(6).as_strided((3, 3), (1, 1))\n\n"
        "def transposed(x):\n    return torch.zeros(5, 3).t()\n\n"
        "def draws(x):\n    random.random()\n    return x + 1\n",
        namespace,
    )
    x = torch.randn(3, 4)
    flags = {name: call_in(namespace, name, (x,), global_seed=1) for name in ("expanded", "overlap", "transposed")}
    assert flags["expanded"].overlapping and flags["overlap"].overlapping and not flags["transposed"].overlapping
    assert call_in(namespace, "draws", (x,), global_seed=1).global_rng_moved
    honest = call_in(namespace, "transposed", (x,), global_seed=1)
    assert not (honest.global_rng_moved or honest.aliased or honest.inference or honest.overlapping)
    for broken in ({}, {"rng": "same"}, dict(honest.facts, layouts=[[2, 3]]), dict(honest.facts, arg_storages=None)):
        again = judged(Reply(None, (), None, False, facts=broken), "enabled")
        assert again.global_rng_moved or again.aliased or again.overlapping
    assert judged(
        Reply(None, (), None, False, facts=dict(honest.facts, layouts=[[2, 3, 3, 0, 1]])), "enabled"
    ).overlapping
    # a reply cannot make the grader list more entries than its budget: past it, counted as overlapping
    many = [[2, 2048, 2048, 1, 1]] * 2
    assert judged(Reply(None, (), None, False, facts=dict(honest.facts, layouts=many)), "enabled").overlapping


def _write(path: Path, nb: nbformat.NotebookNode) -> Path:
    nbformat.write(nb, path)
    return path


def test_canonical_takes_answers_only_and_notes_the_rest(tmp_path: Path) -> None:
    release = release_notebook(A1)
    nb = submission_notebook(A1, None, release)
    key = answer_code(source_notebook(A1))
    test = next(c for c in nb.cells if nbgrader_meta(c).get("grade_id") == "test_sdpa")
    test.source = "pass"
    test.metadata["nbgrader"]["points"] = 100
    nb.cells = [c for c in nb.cells if nbgrader_meta(c).get("grade_id") != "masks"]
    graded, notes = canonical(_write(tmp_path / "s.ipynb", nb), release)
    assert graded is not None
    cells = {nbgrader_meta(c).get("grade_id"): c for c in graded.cells}
    assert cells["test_sdpa"].source == next(
        c.source for c in release.cells if nbgrader_meta(c).get("grade_id") == "test_sdpa"
    )
    assert cells["test_sdpa"].metadata["nbgrader"]["points"] == 4
    assert cells["sdpa"].source.strip() == key["sdpa"].strip()
    assert "raise NotImplementedError" in cells["masks"].source  # missing: graded as not answered
    joined = "; ".join(notes)
    assert "answer cell masks is missing" in joined and "read-only cells edited or deleted (test_sdpa)" in joined
    # shown in the feedback
    assert (
        graded.cells[0].cell_type == "markdown"
        and "read-only cells edited or deleted (test_sdpa)" in graded.cells[0].source
    )


@pytest.mark.parametrize(("content", "reason"), [(b"", "empty"), (b'{"cells": [', "not a valid Jupyter notebook")])
def test_canonical_refuses_what_is_not_a_notebook(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "s.ipynb").write_bytes(content)
    graded, notes = canonical(tmp_path / "s.ipynb", release_notebook(A1))
    assert graded is None and reason in notes[0]


def test_the_cache_key_follows_the_answers_and_the_checks(tmp_path: Path) -> None:
    from course_grading.notebook.assignments import copy_course
    from course_grading.sandbox.seeds import SECRET_FILE, ensure_secret

    course = copy_course(tmp_path / "course", ASSIGNMENTS)
    ensure_secret(course / "grading")
    nb = submission_notebook(A1, None, release_notebook(A1))
    key = grading.content_key(nb, course, A1)
    assert grading.content_key(nbformat.from_dict(nb), course, A1) == key
    changed = nbformat.from_dict(nb)
    next(c for c in changed.cells if nbgrader_meta(c).get("grade_id") == "sdpa").source += "\n# edited"
    assert grading.content_key(changed, course, A1) != key
    (course / "grading" / SECRET_FILE).unlink()
    ensure_secret(course / "grading")  # another course secret: other hidden inputs, so the cache does not hold
    assert grading.content_key(nb, course, A1) != key
    key = grading.content_key(nb, course, A1)
    (course / "grading" / "gradinglib.py").write_text(
        (course / "grading" / "gradinglib.py").read_text() + "\n# a check changed\n"
    )
    assert grading.content_key(nb, course, A1) != key


def test_replayed_outputs_score_test_cells_by_their_errors_only() -> None:
    warned = {"stdout": "Part 1: visible tests passed.\n", "stderr": "UserWarning: ...\n", "error": None}
    outputs = as_nbformat(warned, test_cell=True)
    # nbgrader fails a cell on stderr
    assert [o.output_type for o in outputs] == ["stream"] and outputs[0].name == "stdout"
    assert outputs[0].text.startswith(TEST_NOTE)
    failed = as_nbformat(
        {
            "stdout": "",
            "stderr": "",
            "error": ["AssertionError", "sdpa: wrong", ['  File "<cell t>", line 1\n    x\n']],
        },
        test_cell=True,
    )
    assert failed[-1].output_type == "error" and failed[-1].traceback[-1] == "AssertionError: sdpa: wrong"
    answer = as_nbformat({"stdout": "hi\n", "stderr": "careful\n", "error": None}, test_cell=False)
    assert [(o.name, o.text) for o in answer] == [("stdout", "hi\n"), ("stderr", "careful\n")]


def test_overrides_are_read_and_applied_after_the_cache(tmp_path: Path) -> None:
    """(The validation of overrides.csv: tests/test_overrides.py.)"""
    (tmp_path / "overrides.csv").write_text("student,part,points,reason\neve,sdpa,3,regraded by hand\n")
    parts = grading.Parts({"sdpa": 4.0, "mha": 4.0}, {"sdpa": "sdpa", "mha": "mha"})
    overrides = grading.read_overrides(tmp_path / "overrides.csv", parts, {"eve"})
    assert overrides == {"eve": {"sdpa": (3.0, "regraded by hand")}}
    result = grading.Result("eve", "graded", scores={"sdpa": 0.0, "mha": 4.0})
    grading.finish(result, None, grading.Options(), overrides["eve"])
    assert result.total == 7.0 and "sdpa set to 3 by the instructor: regraded by hand" in result.notes
    (tmp_path / "overrides.csv").write_text("student,part,points\neve,sdpa,three\n")
    with pytest.raises(ValueError, match="line 2"):
        grading.read_overrides(tmp_path / "overrides.csv", parts, {"eve"})


def test_a_cached_result_round_trips_through_json() -> None:
    result = grading.Result(
        "eve", "graded", scores={"sdpa": 4.0}, penalty=1.0, submitted_at="2026-11-20T23:59:00+00:00"
    )
    assert grading.Result(**json.loads(json.dumps(grading.asdict(result)))) == result


def test_a_missing_hidden_check_is_found_without_importing_the_checks(tmp_path: Path) -> None:
    checks = tmp_path / "a9_checks.py"
    checks.write_text("import not_installed_anywhere\nCHECKS: dict = {'test_one': f, 'test_two': g}\n")
    assert assignments.checked_cells(checks) == {"test_one", "test_two"}
    checks.write_text("CHECKS = make_checks()\n")
    with pytest.raises(RuntimeError, match="no CHECKS dict literal"):
        assignments.checked_cells(checks)


def test_a_part_keeps_the_functions_its_stub_defines_whatever_the_student_wrote() -> None:
    """A part whose cell does not parse, or defines its function by assignment, still has its own
    functions protected from the reference swap (from the student version's stub), plus helpers."""
    from course_grading.sandbox.worker import HiddenChecks, run_submission

    release = release_notebook(A1)
    nb = submission_notebook(A1, None, release)
    cells = {nbgrader_meta(c).get("grade_id"): c for c in nb.cells}
    cells[
        "masks"
    ].source = (
        "causal_mask = lambda T: None\ndef padding_mask(lengths, T):\n    return None\ndef _helper():\n    pass\n"
    )
    cells["sdpa"].source = "def scaled_dot_product_attention(q, k, v, mask=None):\n    return (\n"  # does not parse
    protected: dict[str, list[str]] = {}

    class Recorder:
        under_test: list[str] = []

        def run_cells(self) -> dict:
            return {}

        def run(self, cell_id: str, source: str, references: str | None, exclude: list[str]) -> dict:
            protected[cell_id] = sorted(exclude)
            return {"stdout": "", "stderr": "", "error": None}

    run_submission(Recorder(), nb, release, HiddenChecks({}), 0)  # type: ignore[arg-type]
    assert protected["test_masks"] == ["_helper", "causal_mask", "padding_mask"]
    assert protected["test_sdpa"] == ["scaled_dot_product_attention"]
    assert protected["test_mha"] == ["multi_head_attention"]


def test_the_uniform_law_test_rejects_two_points_with_the_uniforms_moments() -> None:
    """gradinglib's law test of a uniform initialisation (a6's A and down, issue 36): at the fewest
    values a6's check reads a law from (``LAW_MIN``), a law on the two values +-bound/sqrt(3), which
    has the uniform's mean and mean square (what the former z-tests read) and lies within its bound,
    fails on every draw, through the bins and the repeated values each on its own; 200 correct draws
    (kaiming_uniform_, float32; torch.rand, float64) pass."""
    import math
    import sys

    import torch

    from assignment_support import GRADING

    sys.path.insert(0, str(GRADING))
    import a6_finetune_checks

    import gradinglib

    n, bound = a6_finetune_checks.LAW_MIN, 1 / math.sqrt(37)
    g = torch.Generator().manual_seed(0)
    for _ in range(200):
        two_points = (torch.randint(0, 2, (n,), generator=g).float() * 2 - 1) * (bound / math.sqrt(3))
        assert abs(float(two_points.mean())) < 0.1 * bound
        assert math.isclose(float((two_points**2).mean()), bound**2 / 3, rel_tol=1e-5)
        counts = gradinglib.uniform_bin_counts(two_points, -bound, bound, 10)
        with pytest.raises(gradinglib.CheckFailed, match="do not follow the rule"):  # the bins alone
            gradinglib.expect_law(counts, [0.1] * 10, "A", "a case")
        with pytest.raises(gradinglib.CheckFailed, match="repeat an earlier one"):  # the repeats alone
            gradinglib.expect_distinct(two_points, "A", "a case")
        with pytest.raises(gradinglib.CheckFailed):
            gradinglib.expect_uniform_law(two_points, -bound, bound, "A", "a case")
        kaiming = torch.nn.init.kaiming_uniform_(torch.empty(n // 37 + 1, 37), a=math.sqrt(5), generator=g)
        gradinglib.expect_uniform_law(kaiming, -bound, bound, "A", "a case")
        uniform = (2 * torch.rand(n, generator=g, dtype=torch.float64) - 1) * bound
        gradinglib.expect_uniform_law(uniform, -bound, bound, "A", "a case")


def test_a_string_argument_is_a_new_object_in_the_kernel_as_in_the_students_process() -> None:
    """The in-process harness (the tests' and ``course check``'s) gives the student's code what the wire gives
    it in the sandbox: a string argument is another object than the checks' literal, so an answer that
    compares it by identity (``pooling is "mean"``) fails in both places alike (corpus F's
    ``cls_identity_comparison`` passed in the kernel only)."""
    import io

    import torch

    from course_grading.sandbox.calls import LocalStudent, wire

    namespace: dict = {}
    exec("OWN = 'mean'\n\ndef same(x, y):\n    return [x is OWN, x == OWN, x is y]\n", namespace)
    literal = "mean"
    assert namespace["OWN"] is literal  # one interned object, until a call copies it
    assert LocalStudent(namespace).call("same", (literal, literal)).value == [False, True, True]
    buffer = io.BytesIO()
    torch.save(wire([literal, literal]), buffer)
    decoded = torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    assert decoded[0] is not literal and decoded[0] is decoded[1]


def test_a_call_option_no_student_knows_is_refused_not_ignored() -> None:
    """A check that misspells an option of ``Student.call`` (``grad_arg`` for ``grad_args``) would otherwise grade
    without what it asked (no gradient compared): the call raises TypeError naming the option, and a known option
    still works."""
    import torch

    from course_grading.sandbox.calls import LocalStudent, with_defaults

    namespace: dict = {}
    exec("def square(x):\n    return x * x\n", namespace)
    student = LocalStudent(namespace)
    with pytest.raises(TypeError, match="grad_arg"):
        student.call("square", (torch.ones(2, requires_grad=True),), grad_arg=(0,))  # type: ignore[call-arg]
    x = torch.tensor([1.0, 3.0], requires_grad=True)
    reply = student.call("square", (x,), grad_args=(0,))
    assert torch.equal(reply.value, torch.tensor([1.0, 9.0]))
    assert reply.grads is not None and torch.equal(reply.grads[0], torch.tensor([-2.0, 6.0]))  # 2x * probe
    assert with_defaults({"driver": "d"})["grad_outputs"] == (0,) and with_defaults({"driver": "d"})["driver"] == "d"
