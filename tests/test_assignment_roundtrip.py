"""Every assignment end to end through plain nbgrader, in a scratch course directory.

Generates the student version from the source, autogrades the answer key, the untouched student
version, a sample of the buggy and alternative submissions under tests/fixtures/<id>/ (one wrong answer per
part; test_assignment_checks grades them all in-process), the first part hanging and the last unfinished,
generates the feedback, and checks the scores cell by cell and that nothing hidden reaches a student.
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
BUGS_PER_PART = 1  # test_assignment_checks runs every fixture through the same checks in-process; here a sample
ALTERNATIVES = 2  # of the right answers in other styles, by name
CELL_TIMEOUT_S = 15  # what each hang waits out
SLOW_IMPORTS = {"transformers": 40}  # a check cell that imports these cold took past 15 s on a busy machine


def cell_timeout_s(assignment: str) -> int:
    """nbgrader's cell limit for ``assignment``: longer where its hidden checks import a slow package."""
    imported = imported_distributions([GRADING / f"{assignment}_checks.py"])
    return max([CELL_TIMEOUT_S] + [s for name, s in SLOW_IMPORTS.items() if name in imported])


def roundtrip_fixtures(assignment: str) -> dict:
    """The first few right answers in other styles and the first few wrong answers (by name) of each part
    (with the one whose feedback is checked): nbgrader's path against the in-process one (which grades
    every fixture), at a cost that does not grow with every bug class added to the fixtures."""
    chosen, per_part, alternatives = {}, {}, 0
    for fixture in fixtures(assignment):
        first = sorted(fixture.loses)[0] if fixture.loses else None
        if fixture.name == FEEDBACK_EXAMPLE[assignment][0]:
            chosen[fixture.name] = fixture
        elif first is None and alternatives < ALTERNATIVES:
            chosen[fixture.name], alternatives = fixture, alternatives + 1
        elif first is not None and per_part.setdefault(first, 0) < BUGS_PER_PART:
            chosen[fixture.name] = fixture
            per_part[first] += 1
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
FIXTURES = {a: roundtrip_fixtures(a) for a in IDS}


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
        name: submission_notebook(assignment, fixture, release) for name, fixture in FIXTURES[assignment].items()
    }
    submissions |= {
        name: with_answers(release, KEYS[assignment] | answers) for name, (_, answers) in broken(assignment)
    }
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


def broken(assignment: str) -> list[tuple[str, tuple[str, dict[str, str]]]]:
    """Plain nbgrader's share of tests/test_independent_parts.py's submissions: the first part hanging (the
    one after which every other part must still be graded) and the last part left unfinished."""
    parts = answer_ids(source_notebook(assignment))
    made = variants(assignment)
    return [(name, made[name]) for name in (f"{parts[0]}-hangs", f"{parts[-1]}-unfinished")]


KEYS = {a: answer_code(source_notebook(a)) for a in IDS}


def test_a_part_hanging_or_unfinished_costs_its_own_points_only(graded: dict) -> None:
    """Plain ``nbgrader autograde`` (trusted notebooks only): a hang waits out the cell time limit and the later
    parts are graded all the same; an unfinished part scores 0 and no other part loses."""
    scores = graded["scores"]
    lost = {
        name: {part for part, (score, max_score) in scores[name].items() if score < max_score}
        for name, _ in broken(graded["assignment"])
    }
    assert lost == {name: {part} for name, (part, _) in broken(graded["assignment"])}


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
    for name, fixture in FIXTURES[graded["assignment"]].items():
        scores = graded["scores"][name]
        lost = {part for part, (score, max_score) in scores.items() if score < max_score}
        if lost != set(fixture.loses) or not all(score in (0, max_score) for score, max_score in scores.values()):
            wrong[name] = {
                "expected to lose": sorted(fixture.loses),
                "scores": scores,
                "errors": cell_errors(graded, name, lost ^ set(fixture.loses)),
            }
    assert not wrong


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
