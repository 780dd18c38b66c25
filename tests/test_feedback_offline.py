"""Feedback pages read offline and stay small (problem 25): the formulas of the notebook's text are
MathML (no MathJax from a CDN, which offline left raw ``$$...$$``), and nothing is loaded from or
inlined out of elsewhere."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from course_grading.notebook import assignments, gradebook
from course_grading.notebook.feedback import MATH, TeX, markdown_with_mathml

from assignment_support import ASSIGNMENTS, assignment_ids
from hostile_submissions import ASSIGNMENT, notebook


def test_tex_becomes_mathml() -> None:
    assert TeX.mathml(r"\frac{Q K^\top}{\sqrt{d_k}}", display=False) == (
        '<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow><mfrac><mrow><mi>Q</mi><msup><mi>K</mi><mrow><mo>⊤</mo></mrow></msup></mrow>'
        "<mrow><msqrt><mrow><msub><mi>d</mi><mrow><mi>k</mi></mrow></msub></mrow></msqrt></mrow></mfrac></mrow></math>"
    )
    assert "<mi>ℝ</mi>" in TeX.mathml(r"\mathbb{R}^{d}", False) and "<mi>ℒ</mi>" in TeX.mathml(r"\mathcal{L}", False)
    # "_" as an entity: Markdown would read it as emphasis
    assert "<mtext>max&#95;exact</mtext>" in TeX.mathml(r"\text{max\_exact}", False)
    assert (
        "<msubsup><mo>∑</mo><mrow><mi>t</mi><mo>=</mo><mn>0</mn></mrow><mrow><mi>T</mi><mo>-</mo><mn>2</mn></mrow></msubsup>"
        in TeX.mathml(r"\sum_{t=0}^{T-2}", False)
    )
    assert 'display="block"' in TeX.mathml("x", display=True)
    assert "<mtext>&#92;nocommand</mtext>" in TeX.mathml(r"\nocommand", False)  # shown as TeX, not dropped


def test_code_and_dollars_in_code_stay_as_written() -> None:
    source = "Call `f($x$)` or\n```\nprint('$5 and $6')\n```\nwith $a_i$ and $$b$$."
    converted = markdown_with_mathml(source)
    assert "`f($x$)`" in converted and "print('$5 and $6')" in converted
    assert converted.count("<math") == 2 and "$a_i$" not in converted


@pytest.mark.parametrize("assignment", assignment_ids())
def test_every_formula_of_the_assignments_is_translated(assignment: str) -> None:
    release = nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    formulas = [m for c in release.cells if c.cell_type == "markdown" for m in MATH.finditer(c.source) if not m["code"]]
    assert formulas
    for match in formulas:
        mathml = TeX.mathml(match["display"] or match["inline"], display=False)
        assert "&#92;" not in mathml, f"a TeX command the translator does not know: {match[0]} -> {mathml}"
        assert mathml.count("<mrow>") == mathml.count("</mrow>")


def test_the_feedback_page_loads_nothing_and_is_small(tmp_path: Path) -> None:
    """nbgrader's feedback page, made with the course's configuration: no script, no remote
    resource, the formulas as MathML, and no raw ``$$``; a third of nbgrader's own page."""
    course = assignments.copy_course(tmp_path / "course")
    shutil.copytree(ASSIGNMENTS / "release", course / "release")
    (tmp_path / "out" / "autograded").mkdir(parents=True)
    # as graded: nbgrader makes the page from it
    (tmp_path / "out" / "autograded" / "s001.ipynb").write_bytes(notebook())
    gradebook.record(
        course,
        ASSIGNMENT,
        [("s001", {"sdpa": 4.0, "masks": 2.0, "split_merge": 2.0, "mha": 4.0}, notebook(), tmp_path / "out")],
    )
    result = assignments.nbgrader_api(course).generate_feedback(ASSIGNMENT, "s001", force=True)
    assert result["success"], result["log"][-2000:]
    page = (course / "feedback" / "s001" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "<script" not in page and not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "$$" not in page and page.count("<math") >= 10
    assert len(page.encode()) < 80_000, len(page.encode())
    assert "Score: 12.0 / 12.0" in page
