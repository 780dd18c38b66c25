"""Every assignment end to end through plain nbgrader, in a scratch course directory.

Generates the student version from the source, autogrades the answer key, the untouched student
version, a right answer in another style, a wrong answer of every part (from tests/fixtures/<id>/, which
test_assignment_checks grades one by one in-process) in two submissions, the first part hanging and the last
unfinished, generates the feedback, and checks the scores cell by cell and that nothing hidden reaches a student.

The wrong answers share submissions because each autograde runs the whole notebook in a fresh kernel (10-20 s
each): the odd-numbered parts wrong in one, the even-numbered in the other, so every part's hidden tests meet a
wrong answer under nbgrader, and every part that follows or precedes a wrong one is graded beside it (what
leaks from a part leaks first to its neighbours); each submission must lose exactly its wrong parts.
"""

from __future__ import annotations

import nbformat
import pytest

from course_grading.markers import answer_code, answer_ids, with_answers
from course_grading.notebook.assignments import answer_key, copy_course, nbgrader_api

from assignment_support import (
    ASSIGNMENTS,
    GRADING,
    ROOT,
    assignment_ids,
    fixtures,
    grade_id,
    hidden_lines,
    imported_distributions,
    release_notebook,
    solution_lines,
    source_notebook,
    submission_notebook,
    variants,
)

pytestmark = pytest.mark.slow
IDS = assignment_ids()
CELL_TIMEOUT_S = 30  # what each hang waits out; an answer key's cell passed 15 s with the machine oversubscribed
SLOW_IMPORTS = {"transformers": 40}  # a check cell that imports these cold took past 15 s on a busy machine


def cell_timeout_s(assignment: str) -> int:
    """nbgrader's cell limit for ``assignment``: longer where its hidden checks import a slow package."""
    imported = imported_distributions([GRADING / f"{assignment}_checks.py"])
    return max([CELL_TIMEOUT_S] + [s for name, s in SLOW_IMPORTS.items() if name in imported])


def roundtrip_submissions(assignment: str) -> dict[str, tuple[dict[str, str], frozenset[str]]]:
    """Name -> (the answer cells that differ from the key, the parts it must lose): the fixture whose feedback is
    checked, the first right answer in another style (by name), and a wrong answer of every part (the first
    fixture by name that breaks that part alone) in two submissions, the odd-numbered parts and the even-numbered."""
    feedback = FEEDBACK_EXAMPLE[assignment][0]
    found = {f.name: f for f in fixtures(assignment)}
    chosen = {feedback: (found[feedback].cells, found[feedback].loses)}
    alternative = next(f for f in found.values() if not f.loses)
    chosen[alternative.name] = (alternative.cells, alternative.loses)
    wrong = {}
    for f in found.values():
        if len(f.loses) == 1 and set(f.cells) == set(f.loses):
            wrong.setdefault(next(iter(f.loses)), f.cells)
    parts = answer_ids(source_notebook(assignment))
    for parity, name in ((0, "wrong_parts_1_3_5"), (1, "wrong_parts_2_4_6")):
        cells = {part: wrong[part][part] for part in parts[parity::2] if part in wrong}
        chosen[name] = (cells, frozenset(cells))
    return chosen


# A buggy submission per assignment and what its feedback must say about the failed hidden check.
FEEDBACK_EXAMPLE = {
    "a1_attention": ("bug_mha_mask_ignored", "multi_head_attention: the output differs from the expected values"),
    "a2_blocks": (
        "bug_dec_no_causal",
        "decoder_block: decoder_block(x, memory, p, n_heads) differs from the expected values",
    ),
    "a3_gpt": ("bug_cache_no_scale", "cached_attention_step: the output differs from the expected values"),
    "a4_bert": ("bug_mask_random_any_id", "mask_tokens: chosen positions hold"),
    "a5_t5": (
        "bug_cross_attention_mask_first_step_only",
        "cross_attention_step: the output differs from the expected values",
    ),
    "a6_finetune": ("bug_several_08", "freeze_except: returned"),
    "a7_llama": ("bug_rotary_float32_angles", "apply_rotary: apply_rotary(...) differs from the expected values"),
}
SUBMISSIONS = {a: roundtrip_submissions(a) for a in IDS}


@pytest.fixture(scope="module", params=IDS)
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Generate, submit, autograde and give feedback for every submission; return what came out."""
    assignment = request.param
    course = copy_course(tmp_path_factory.mktemp("course"))
    with (course / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.Execute.timeout = {cell_timeout_s(assignment)}\n")
    api = nbgrader_api(course)
    assert api.generate_assignment(assignment, force=True)["success"]
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    submissions = {"answer_key": submission_notebook(assignment, None, release), "untouched": release}
    submissions |= {
        name: with_answers(release, KEYS[assignment] | cells) for name, (cells, _) in SUBMISSIONS[assignment].items()
    }
    name, answers, _ = broken(assignment)
    submissions[name] = with_answers(release, KEYS[assignment] | answers)
    for student, nb in submissions.items():
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{assignment}.ipynb")
    for student in submissions:
        result = api.autograde(assignment, student, force=True, create=True)
        assert result["success"], result["log"]
    assert api.generate_feedback(assignment, force=True)["success"]

    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(api.coursedir.db_url) as gradebook:
        for student in submissions:
            notebook = gradebook.find_submission_notebook(assignment, assignment, student)
            scores[student] = {g.name.removeprefix("test_"): (g.score, g.max_score) for g in notebook.grades}
    return {"assignment": assignment, "course": course, "scores": scores, "release": release}


def broken(assignment: str) -> tuple[str, dict[str, str], set[str]]:
    """Plain nbgrader's share of tests/test_independent_parts.py's submissions, in one notebook (one
    autograde fewer): the first part hanging (the one after which every other part must still be graded)
    and the last part left unfinished. Its name, its answer cells, and the two parts it must lose."""
    parts = answer_ids(source_notebook(assignment))
    made = variants(assignment)
    (first, hangs), (last, unfinished) = made[f"{parts[0]}-hangs"], made[f"{parts[-1]}-unfinished"]
    assert first != last and len(parts) >= 3, "the parts between must show that the hang costs no later part"
    return "first-hangs-last-unfinished", hangs | unfinished, {first, last}


KEYS = {a: answer_code(source_notebook(a)) for a in IDS}


def test_a_part_hanging_or_unfinished_costs_its_own_points_only(graded: dict) -> None:
    """Plain ``nbgrader autograde`` (trusted notebooks only): a hang waits out the cell time limit and the later
    parts are graded all the same; an unfinished part scores 0 and no other part loses."""
    name, _, parts = broken(graded["assignment"])
    assert {part for part, (score, max_score) in graded["scores"][name].items() if score < max_score} == parts


def test_release_is_committed_and_in_sync(graded: dict) -> None:
    """The committed student version is what nbgrader generates from the source now."""
    assert release_notebook(graded["assignment"]) == graded["release"], "run `make assignments` and commit the result"


@pytest.mark.parametrize("assignment", IDS)
def test_answer_key_file_is_in_sync(assignment: str) -> None:
    committed = nbformat.read(ROOT / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    assert committed == answer_key(source_notebook(assignment)), "run `make assignments` and commit the result"


def test_answer_key_gets_full_marks(graded: dict) -> None:
    scores = graded["scores"]["answer_key"]
    assert scores and all(score == max_score for score, max_score in scores.values()), scores


def test_untouched_release_gets_zero_everywhere(graded: dict) -> None:
    scores = graded["scores"]["untouched"]
    assert set(scores) == set(answer_ids(source_notebook(graded["assignment"])))
    assert all(score == 0 for score, _ in scores.values()), scores


def cell_errors(graded: dict, student: str, parts: set[str]) -> dict[str, str]:
    """The error each of ``parts``' test cells ended with in ``student``'s autograded notebook."""
    assignment = graded["assignment"]
    nb = nbformat.read(graded["course"] / "autograded" / student / assignment / f"{assignment}.ipynb", as_version=4)
    errors = {}
    for cell in nb.cells:
        part = (grade_id(cell) or "").removeprefix("test_")
        if part in parts:
            shown = [
                f"{out.get('ename')}: {out.get('evalue')}"
                for out in cell.get("outputs", [])
                if out.get("output_type") == "error"
            ]
            errors[part] = "; ".join(shown) or "no error shown"
    return errors


def test_each_submission_loses_exactly_its_part(graded: dict) -> None:
    wrong = {}
    for name, (_, loses) in SUBMISSIONS[graded["assignment"]].items():
        scores = graded["scores"][name]
        lost = {part for part, (score, max_score) in scores.items() if score < max_score}
        if lost != set(loses) or not all(score in (0, max_score) for score, max_score in scores.values()):
            wrong[name] = {
                "expected to lose": sorted(loses),
                "scores": scores,
                "errors": cell_errors(graded, name, lost ^ set(loses)),
            }
    assert not wrong


@pytest.mark.parametrize("assignment", IDS)
def test_every_part_meets_a_wrong_answer_under_nbgrader(assignment: str) -> None:
    """The two shared submissions break every part between them, each part in exactly one."""
    chosen = SUBMISSIONS[assignment]
    odd, even = chosen["wrong_parts_1_3_5"][1], chosen["wrong_parts_2_4_6"][1]
    assert not odd & even and odd | even == set(answer_ids(source_notebook(assignment)))


@pytest.mark.parametrize("assignment", IDS)
def test_release_reveals_no_solution_or_hidden_test(assignment: str) -> None:
    """Not its own, nor any other assignment's: code one assignment gives out may be another's answer (a7 once
    gave a1's ``merge_heads`` as a helper)."""
    text = (ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb").read_text()
    secret = set().union(*(hidden_lines(other) | solution_lines(other) for other in IDS))
    leaked = {line for line in secret if line in text}
    assert not leaked, leaked
    assert "_checks" not in text and "BEGIN HIDDEN" not in text and "BEGIN SOLUTION" not in text


@pytest.mark.parametrize("assignment", IDS)
def test_answer_key_file_has_no_hidden_test(assignment: str) -> None:
    text = (ROOT / "solutions" / assignment / f"{assignment}.ipynb").read_text()
    assert not {line for line in hidden_lines(assignment) if line in text}


def test_feedback_reveals_no_hidden_test(graded: dict) -> None:
    assignment = graded["assignment"]
    pages = sorted((graded["course"] / "feedback").glob(f"*/{assignment}/{assignment}.html"))
    assert len(pages) == len(graded["scores"])
    markers = hidden_lines(assignment) | {f"{assignment}_checks", "HIDDEN TESTS"}
    for page in pages:
        text = page.read_text()
        assert not {m for m in markers if m in text}, page
    # A failing hidden check still tells the student what went wrong.
    student, message = FEEDBACK_EXAMPLE[assignment]
    assert message in (graded["course"] / "feedback" / student / assignment / f"{assignment}.html").read_text()


def test_hidden_checks_ship_with_nothing_students_get() -> None:
    """The checks live in assignments/grading/, which is neither released nor part of course_lib."""
    for path in list((ROOT / "course_lib").rglob("*.py")) + list((ASSIGNMENTS / "release").rglob("*")):
        if path.is_file():
            assert "_checks" not in path.read_text(), path
    assert not list((ASSIGNMENTS / "release").rglob("*.py"))
