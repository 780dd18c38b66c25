"""Assignment a1 end to end through nbgrader, in a scratch course directory.

Generates the student version from the source, autogrades the answer key, the untouched student
version, every buggy and alternative submission under tests/fixtures/a1_attention/, generates the
feedback, and checks the scores cell by cell and that nothing hidden reaches a student.
"""

from __future__ import annotations

import nbformat
import pytest

from assignment_support import (
    ASSIGNMENTS,
    ROOT,
    fixtures,
    hidden_lines,
    release_notebook,
    solution_lines,
    source_notebook,
    submission_notebook,
)
from course_grading.assignments import answer_key, copy_course, nbgrader_api
from course_grading.harness import answer_ids

pytestmark = pytest.mark.slow
ASSIGNMENT = "a1_attention"
FIXTURES = {f.name: f for f in fixtures(ASSIGNMENT)}
@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Generate, submit, autograde and give feedback for every submission; return what came out."""
    course = copy_course(tmp_path_factory.mktemp("course"))
    api = nbgrader_api(course)
    assert api.generate_assignment(ASSIGNMENT, force=True)["success"]
    release = nbformat.read(course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    submissions = {"answer_key": submission_notebook(ASSIGNMENT, None, release), "untouched": release}
    submissions |= {name: submission_notebook(ASSIGNMENT, fixture, release) for name, fixture in FIXTURES.items()}
    for student, nb in submissions.items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{ASSIGNMENT}.ipynb")
    for student in submissions:
        result = api.autograde(ASSIGNMENT, student, force=True, create=True)
        assert result["success"], result["log"]
    assert api.generate_feedback(ASSIGNMENT, force=True)["success"]

    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(api.coursedir.db_url) as gradebook:
        for student in submissions:
            notebook = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student)
            scores[student] = {g.name.removeprefix("test_"): (g.score, g.max_score) for g in notebook.grades}
    return {"course": course, "scores": scores, "release": release}


def test_release_is_committed_and_in_sync(graded: dict) -> None:
    """The committed student version is what nbgrader generates from the source now."""
    assert release_notebook(ASSIGNMENT) == graded["release"], "run `make assignments` and commit the result"


def test_answer_key_file_is_in_sync() -> None:
    committed = nbformat.read(ROOT / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    assert committed == answer_key(source_notebook(ASSIGNMENT)), "run `make assignments` and commit the result"


def test_answer_key_gets_full_marks(graded: dict) -> None:
    scores = graded["scores"]["answer_key"]
    assert scores and all(score == max_score for score, max_score in scores.values()), scores


def test_untouched_release_gets_zero_everywhere(graded: dict) -> None:
    scores = graded["scores"]["untouched"]
    assert set(scores) == set(answer_ids(source_notebook(ASSIGNMENT)))
    assert all(score == 0 for score, _ in scores.values()), scores


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_submission_loses_exactly_its_part(graded: dict, name: str) -> None:
    scores = graded["scores"][name]
    lost = {part for part, (score, max_score) in scores.items() if score < max_score}
    assert lost == set(FIXTURES[name].loses), scores
    assert all(score in (0, max_score) for score, max_score in scores.values())


def test_release_reveals_no_solution_or_hidden_test() -> None:
    text = (ASSIGNMENTS / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    leaked = {line for line in hidden_lines(ASSIGNMENT) | solution_lines(ASSIGNMENT) if line in text}
    assert not leaked
    assert "_checks" not in text and "BEGIN HIDDEN" not in text and "BEGIN SOLUTION" not in text


def test_answer_key_file_has_no_hidden_test() -> None:
    text = (ROOT / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    assert not {line for line in hidden_lines(ASSIGNMENT) if line in text}


def test_feedback_reveals_no_hidden_test(graded: dict) -> None:
    pages = sorted((graded["course"] / "feedback").glob(f"*/{ASSIGNMENT}/{ASSIGNMENT}.html"))
    assert len(pages) == len(graded["scores"])
    markers = hidden_lines(ASSIGNMENT) | {"a1_attention_checks", "HIDDEN TESTS"}
    for page in pages:
        text = page.read_text()
        assert not {m for m in markers if m in text}, page
    # A failing hidden check still tells the student what went wrong.
    mask_ignored = (graded["course"] / "feedback" / "bug_mha_mask_ignored" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "multi_head_attention: the output differs from the expected values" in mask_ignored


def test_hidden_checks_ship_with_nothing_students_get() -> None:
    """The checks live in assignments/grading/, which is neither released nor part of course_lib."""
    for path in list((ROOT / "course_lib").rglob("*.py")) + list((ASSIGNMENTS / "release").rglob("*")):
        if path.is_file():
            assert "_checks" not in path.read_text(), path
    assert not list((ASSIGNMENTS / "release").rglob("*.py"))
