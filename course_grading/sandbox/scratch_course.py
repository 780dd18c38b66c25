"""The scratch course a batch grades in: the course's gradebook with the assignment generated, no
answer key in it (its code goes with the hidden checks, for the worker's control runs), the hidden
checks moved out of every jail's sight, nbgrader's autograde steps set to
replay the worker's run (:mod:`course_grading.sandbox.replay`), and ``jail.json`` for the worker."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import nbformat

from course_grading.markers import HIDDEN_BLOCK, nbgrader_meta
from course_grading.notebook import assignments
from course_grading.sandbox.messages import JailSettings, write_message

__all__ = ["AUTOGRADE_STEPS", "answer_key_file", "prepare_template", "set_source"]

# nbgrader's autograde steps in the scratch course, with the notebook's run replayed, not executed.
AUTOGRADE_STEPS = """
c.Autograde.autograde_preprocessors = [
    "course_grading.sandbox.replay.ReplayOutputs",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
"""


def answer_key_file(assignment: str) -> str:
    """The file, in the folder of the hidden checks, that holds the code of ``assignment``'s answer key
    (a JSON list of cell sources: the set-up and the answers, without the tests)."""
    return f"{assignment}.answer_key.json"


def prepare_template(course: Path, assignment: str, where: Path, settings: JailSettings) -> Path:
    """A scratch course under ``where`` with ``assignment`` generated in its gradebook, no answer key,
    and its hidden checks moved to ``where/grading`` (out of every jail's sight, where
    ``settings["grading"]`` must point). ``settings`` are written to ``jail.json`` for the worker."""
    template = assignments.copy_course(where / "template", course)
    result = assignments.nbgrader_api(template).generate_assignment(assignment, force=True)
    if not result["success"]:
        raise RuntimeError(f"nbgrader could not generate {assignment}:\n{result['log']}")
    if Path(settings["grading"]) != where / "grading":
        raise ValueError(f"the hidden checks move to {where / 'grading'}, not {settings['grading']}")
    source = nbformat.read(template / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    # the key's code goes with the hidden checks, for the worker's control runs (worker.hidden_verdict)
    (template / "grading" / answer_key_file(assignment)).write_text(json.dumps(assignments.answer_key_code(source)))
    shutil.rmtree(template / "source")  # autograding needs the gradebook, not the solutions
    shutil.move(template / "grading", where / "grading")
    from nbgrader.api import Gradebook

    release = nbformat.read(template / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    shown = {nbgrader_meta(c).get("grade_id"): c.source for c in release.cells}
    with Gradebook(assignments.nbgrader_api(template).coursedir.db_url) as gradebook:
        for cell in gradebook.find_notebook(assignment, assignment).source_cells:
            if HIDDEN_BLOCK.search(cell.source or ""):  # as the student version shows it: nbgrader sees no change
                set_source(gradebook, assignment, cell, shown[cell.name])
        gradebook.db.commit()
    with (template / "nbgrader_config.py").open("a") as config:
        config.write(AUTOGRADE_STEPS)
    write_message(template / "jail.json", settings)
    return template


def set_source(gradebook: Any, assignment: str, cell: Any, source: str) -> None:
    """Change a cell's source in the gradebook, and its checksum with it (nbgrader compares them)."""
    from nbgrader.utils import compute_checksum

    points = gradebook.find_grade_cell(cell.name, assignment, assignment).max_score
    meta = {"grade": True, "solution": False, "locked": cell.locked, "grade_id": cell.name, "points": points}
    cell.source = source
    cell.checksum = compute_checksum(
        nbformat.from_dict({"cell_type": cell.cell_type, "source": source, "metadata": {"nbgrader": meta}})
    )
