"""The grader self-test: mutation operators, the report's arithmetic, and the gate every assignment
must pass (its tests kill at least 90% of the answer key's mutants not reviewed as equivalent)."""

from __future__ import annotations

import pytest
import torch

from course_grading.class_mutants import is_class_mutant
from course_grading.mutants import THRESHOLD, Mutant, Outcome, Report, mutants_of, read_equivalents, self_test
from course_grading.notebook.assignments import copy_course

from assignment_support import ASSIGNMENTS, assignment_ids

SNIPPET = '''def attend(q, k, mask=None):
    """Docstring: never mutated."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights, torch.tril(weights)
'''


@pytest.fixture(scope="module")
def snippet_mutants() -> dict[str, str]:
    return {m.ident: m.code for m in mutants_of("part", SNIPPET)}


@pytest.mark.parametrize(
    "expected",
    [
        "scores = q @ k.transpose(-2, -1)\n",  # the missing scale
        "scores = q @ k.transpose(-2, -1) * math.sqrt(q.shape[-1])",  # multiplied instead
        "scores.masked_fill(mask, float('-inf'))",  # mask polarity
        "torch.softmax(scores, dim=1)",  # the wrong axis
        "torch.softmax(scores)\n",  # dim dropped
        "if mask is None:",  # condition flipped
        "return (torch.tril(weights), weights)",  # outputs swapped
        "torch.triu(weights)",  # the other triangle
        "float('inf')",  # the sign of the fill
    ],
)
def test_mutation_operators_cover_the_classic_bugs(snippet_mutants: dict[str, str], expected: str) -> None:
    assert any(expected in code for code in snippet_mutants.values()), expected


def test_mutants_leave_docstrings_alone_and_compile(snippet_mutants: dict[str, str]) -> None:
    assert len(snippet_mutants) == len(set(snippet_mutants.values())) > 20
    for code in snippet_mutants.values():
        assert "Docstring: never mutated." in code
        compile(code, "<mutant>", "exec")


def test_statement_deletion_and_swap(snippet_mutants: dict[str, str]) -> None:
    kinds = {ident.split(":")[3] for ident in snippet_mutants}
    assert {"delete statement", "swap with next statement"} <= kinds
    deleted = [
        code
        for ident, code in snippet_mutants.items()
        if ident.startswith("part:5:") and ident.endswith("delete statement")
    ]
    assert len(deleted) == 1 and "masked_fill" not in deleted[0]


def outcome(ident: str, killed: bool) -> Outcome:
    return Outcome(Mutant(ident.split(":")[0], ident, "", ""), killed, "x" if killed else "survived")


def test_report_counts_reviewed_equivalents_out_and_flags_stale_entries() -> None:
    outcomes = [outcome(f"a:{i}:0-1:op", True) for i in range(8)] + [
        outcome("a:9:0-1:op", False),
        outcome("b:1:0-1:op", False),
    ]
    report = Report(outcomes, {"a:9:0-1:op": "same value", "b:7:0-1:gone": "no longer exists"})
    assert report.score == pytest.approx(8 / 9)
    assert [o.mutant.ident for o in report.survivors] == ["b:1:0-1:op"]
    assert report.stale == ["b:7:0-1:gone"]
    assert report.by_part() == {"a": (8, 1, 9), "b": (0, 0, 1)}
    assert "SURVIVED b:1:0-1:op" in report.render() and "STALE" in report.render()


def test_equivalents_file_needs_a_reason(tmp_path) -> None:
    path = tmp_path / "x_equivalent_mutants.txt"
    path.write_text("# comment\n\nsdpa:1:0-4:op | same values\n")
    assert read_equivalents(path) == {"sdpa:1:0-4:op": "same values"}
    path.write_text("sdpa:1:0-4:op\n")
    with pytest.raises(ValueError, match="expected '<mutant id> | <reason>'"):
        read_equivalents(path)


@pytest.mark.parametrize("assignment", assignment_ids())
def test_hidden_tests_kill_the_mutants_of_the_answer_key(assignment: str, tmp_path) -> None:
    # mutants run in a copy of the course
    report = self_test(assignment, copy_course(tmp_path / "course", ASSIGNMENTS), jobs=2)
    assert len(report.outcomes) >= 50
    assert report.score >= THRESHOLD, report.render()
    assert not report.stale, report.render()
    for part, (killed, equivalent, total) in report.by_part().items():
        assert killed / max(1, total - equivalent) >= THRESHOLD, (part, report.render())
    # the bugs of whole classes (issue 37): every one killed, or reviewed as equivalent with a reason
    assert not [o.mutant.ident for o in report.survivors if is_class_mutant(o.mutant.ident)], report.render()


def test_a_mutant_runs_only_up_to_its_own_test_cell() -> None:
    """Cells after the part's test cell cannot change its verdict: they are not run (the answer
    cell of a part, graded or not, is never taken for its test cell)."""
    from course_grading.markers import nbgrader_meta
    from course_grading.mutants import up_to_test_of

    from assignment_support import source_notebook

    for assignment in assignment_ids():
        for part in answer_code_ids(assignment):
            nb = up_to_test_of(source_notebook(assignment), part)
            assert nbgrader_meta(nb.cells[-1])["grade_id"] == f"test_{part}"
            assert not nbgrader_meta(nb.cells[-1]).get("solution")


def test_a_mutant_is_judged_by_its_own_parts_test_cell_alone() -> None:
    """The other parts' test cells are not run for a mutant (``course grade`` judges each part with the
    others' correct versions in place): an earlier part's test that fails changes nothing, and is not waited
    for."""
    from course_grading.markers import nbgrader_meta, part_of
    from course_grading.notebook.harness import run_tests

    from assignment_support import GRADING, source_notebook

    nb = source_notebook("a1_attention")
    tests = [c for c in nb.cells if nbgrader_meta(c).get("grade") and not nbgrader_meta(c).get("solution")]
    first, last = part_of(nbgrader_meta(tests[0])["grade_id"]), part_of(nbgrader_meta(tests[-1])["grade_id"])
    tests[0].source = "raise AssertionError('the first test cell ran')"
    assert run_tests(nb, GRADING, {last}) == {last: None}
    every = run_tests(nb, GRADING)  # the control: run in full, the first test cell fails
    assert "the first test cell ran" in str(every[first]) and every[last] is None


def test_a_key_that_fails_a_part_alone_is_refused_not_counted_as_killing_its_mutants() -> None:
    """A test cell that needed something an earlier test cell defined would fail for every mutant of its part,
    and the self-test would report them all killed: the key is run first, as a mutant is, and refused."""
    from course_grading.markers import nbgrader_meta, part_of
    from course_grading.mutants import run_mutants

    from assignment_support import GRADING, source_notebook

    nb = source_notebook("a1_attention")
    tests = [c for c in nb.cells if nbgrader_meta(c).get("grade") and not nbgrader_meta(c).get("solution")]
    tests[-1].source = "helper_from_an_earlier_test_cell()\n" + tests[-1].source
    last = part_of(nbgrader_meta(tests[-1])["grade_id"])
    with pytest.raises(ValueError, match=f"the answer key fails {last}'s test cell run alone .*NameError"):
        run_mutants(nb, GRADING)


def answer_code_ids(assignment: str) -> list[str]:
    from course_grading.markers import answer_ids

    from assignment_support import source_notebook

    return answer_ids(source_notebook(assignment))


def test_the_methods_of_a_class_are_mutated_too() -> None:
    """A part may be a class (a6's layers): its methods' statements are deleted and swapped, and
    their expressions changed, as a function's are."""
    code = (
        "class Layer:\n    def __init__(self, w):\n        self.w = w\n        self.frozen = True\n\n"
        "    def forward(self, x):\n        return x @ self.w\n"
    )
    mutated = {m.ident: m.code for m in mutants_of("part", code)}
    assert any(ident.endswith("delete statement") and "self.frozen" not in text for ident, text in mutated.items())
    assert any(ident.endswith("swap with next statement") for ident in mutated)
    assert any("x * self.w" in text for text in mutated.values())


CLASS_SNIPPET = '''def step(x, cache_k, W, p, eos_id, cache=None):
    """Docstring."""
    T = x.shape[1]
    mask = torch.ones(T, T).tril()
    k = torch.cat([cache_k, x @ W], dim=1)
    out = (mask @ k) * p["gain"]
    ids = [out.shape[0], eos_id]
    return out, k
'''


@pytest.mark.parametrize("expected", [
    "torch.ones(min(T, 1024), min(T, 1024))",  # a fixed buffer
    "return (out.float(), k)",  # a float32 output
    "x.detach() @ W", "p['gain'].detach()",  # an argument detached; a dict's entry detached
    "with torch.no_grad():\n        k = torch.cat",  # a statement under no_grad
    "torch.manual_seed(0)",  # the global generator reseeded
    "cache = None", "cache_k = cache_k[:, :, :0]",  # the state dropped
    "if x.dim() < 2:", "if x.dim() < 3:",  # a batch dimension required
    # a special id skipped when already there
    "[e for e in [out.shape[0], eos_id] if not (len(x) and int(x[-1]) == e)]",
    "@torch.inference_mode()\ndef step(",  # run under inference_mode: its outputs inference tensors
])  # fmt: skip
def test_class_operators_write_each_class_of_bug(expected: str) -> None:
    texts = [m.code for m in mutants_of("part", CLASS_SNIPPET)]
    assert any(expected in text for text in texts), expected


OUTPUT_SNIPPET = '''def attend(scores, v, tokens):
    """Docstring."""
    weights = torch.softmax(scores, dim=-1)
    logp = F.log_softmax(scores, -1)
    if len(tokens) == 2:
        return tokens.clone()
    return weights @ v, weights, logp
'''


@pytest.mark.parametrize("expected", [
    # a second output detached
    "return (weights @ v, weights.detach(), logp)", "return (weights @ v, weights, logp.detach())",
    "weights = torch.exp(scores) / torch.exp(scores).sum(-1, keepdim=True)",  # softmax without the maximum subtracted
    "logp = scores - torch.log(torch.exp(scores).sum(-1, keepdim=True))",  # and log_softmax
    "return tokens\n",  # the input returned where a copy was
])  # fmt: skip
def test_class_operators_for_outputs_extremes_and_copies(expected: str) -> None:
    texts = [m.code for m in mutants_of("part", OUTPUT_SNIPPET)]
    assert any(expected in text for text in texts), expected


def test_class_operators_leave_shapes_and_metadata_alone() -> None:
    """No mutant detaches an argument only to read its shape, or puts a statement that reads no tensor's
    values under no_grad: both would be equivalent to the key."""
    texts = [m.code for m in mutants_of("part", CLASS_SNIPPET)]
    assert not any("x.detach().shape" in text for text in texts)
    assert not any("with torch.no_grad():\n        T = x.shape[1]" in text for text in texts)


DEFAULTS_SNIPPET = '''def norm(x, gain, eps=1e-6, flag=True, scale=2, offset=0):
    """Docstring."""
    return gain * x / ((x * x).sum(-1, keepdim=True) / x.shape[-1] + eps).sqrt() * scale + offset
'''


def test_class_operators_read_an_explicit_zero_as_the_default_and_hand_out_kept_results() -> None:
    """Corpus q's classes: a numeric default (not a bool, not 0) put in place of an explicit 0 (``eps or 1e-6``),
    and the result kept under the arguments' values and the same object handed out again (an lru_cache)."""
    mutants = {m.ident.rsplit(":", 1)[-1]: m.code for m in mutants_of("part", DEFAULTS_SNIPPET)}
    assert "eps = eps or 1e-06" in mutants["falsy eps"] and "scale = scale or 2" in mutants["falsy scale"]
    assert not any(what in mutants for what in ("falsy flag", "falsy offset"))
    namespace: dict = {"torch": torch}
    exec(mutants["memo by value"], namespace)
    x, gain = torch.randn(2, 4), torch.ones(4)
    first = namespace["norm"](x, gain)
    assert namespace["norm"](x.clone(), gain.clone()) is first  # equal values: the kept object again
    assert namespace["norm"](x + 1, gain) is not first


CHUNKS_SNIPPET = '''def attend(x, W, mask=None, cache=None):
    """Docstring."""
    scores = (x @ W) @ x.transpose(-2, -1)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    k = x if cache is None else torch.cat([cache, x], dim=-2)
    return scores.softmax(-1) @ x, k
'''


def test_class_operators_of_corpus_r_show_only_where_their_check_looks() -> None:
    """Corpus r's classes: a batch cut into blocks with one argument's offset not advanced (wrong only past
    CHUNK rows), a three-dimensional mask given a head axis (wrong only for a 3-D mask), and a returned state kept
    in a buffer shared between calls (an earlier call's return changed only by a later call of the same size)."""
    from course_grading.class_mutants import CHUNK

    mutants = {m.ident.rsplit(":", 1)[-1]: m.code for m in mutants_of("part", CHUNKS_SNIPPET)}
    assert {"batch chunk x", "batch chunk mask", "mask head axis mask", "shared state 1"} <= set(mutants)

    def run(what: str):
        namespace: dict = {"torch": torch}
        exec(mutants[what] if what else CHUNKS_SNIPPET, namespace)
        return namespace["attend"]

    key, chunked, masked = run(""), run("batch chunk x"), run("mask head axis mask")
    W = torch.randn(4, 4)
    for rows, differs in ((3, False), (CHUNK + 5, True)):
        x = torch.randn(rows, 2, 4)
        assert (
            (chunked(x, W)[0] - key(x, W)[0]).abs().max().item() > 0
            if differs
            else chunked(x, W)[0].equal(key(x, W)[0])
        )
    x = torch.randn(3, 3, 3, 4)  # as many batch rows as heads: a mask read per row still broadcasts
    two, three = torch.rand(3, 3) > 0.3, torch.rand(3, 3, 3) > 0.3
    two[:, 0] = three[..., 0] = True
    assert masked(x, W, two)[0].equal(key(x, W, two)[0])
    assert not torch.allclose(masked(x, W, three)[0], key(x, W, three)[0])
    shared = run("shared state 1")
    prefix = torch.randn(1, 3, 4)
    first = shared(torch.randn(1, 1, 4), W, cache=prefix)[1]
    kept = first.clone()
    shared(torch.randn(1, 1, 4), W, cache=prefix)  # a second continuation of the same prefix
    assert not first.equal(kept)  # has changed what the first returned
