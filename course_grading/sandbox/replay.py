"""nbgrader's ``Execute`` step, replaced in ``course grade``'s scratch courses by a replay.

``course grade`` runs a submission once, in the jailed student process: its cells, then each test
cell's visible tests (with correct versions of the other parts) and hidden checks (in the trusted
worker). :class:`ReplayOutputs` puts what that run produced into the notebook as its outputs, where
nbgrader's ``Execute`` would have run the notebook in a kernel; nbgrader then scores the test cells
from those outputs (``SaveAutoGrades``: an error costs the cell's points) and writes its feedback
as usual. No Jupyter kernel is started, so each submission imports torch once, not twice.
"""

from __future__ import annotations

from nbformat import NotebookNode
from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor

from course_grading.markers import OWN_CELL, is_test, nbgrader_meta
from course_grading.sandbox.calls import Outputs

__all__ = ["OUTPUTS", "ReplayOutputs", "TEST_NOTE", "as_nbformat", "own_id"]

# The run of the submission being graded, by cell grade id: set by the worker before autograding.
OUTPUTS: dict[str, Outputs] = {}
# The first line of each test cell's outputs in the feedback.
TEST_NOTE = (
    "[Graded by the course's grader: the tests of this part ran with correct versions of the other parts, and "
    "its hidden tests ran outside the notebook.]\n"
)


def as_nbformat(outputs: Outputs, test_cell: bool) -> list[NotebookNode]:
    """A cell's outputs as notebook outputs. In a test cell, what was printed to stderr (a warning,
    say) is shown with stdout: nbgrader would count a stderr output as a failed test."""
    cells = []
    streams = [("stdout", TEST_NOTE + outputs["stdout"] + outputs["stderr"] if test_cell else outputs["stdout"])] + (
        [] if test_cell else [("stderr", outputs["stderr"])]
    )
    for name, text in streams:
        if text:
            cells.append(new_output("stream", name=name, text=text))
    if outputs["error"] is not None:
        ename, evalue, traceback = outputs["error"]
        lines = [line for entry in traceback for line in entry.rstrip("\n").split("\n")]
        cells.append(new_output("error", ename=ename, evalue=evalue, traceback=[*lines, f"{ename}: {evalue}"]))
    return cells


class ReplayOutputs(NbGraderPreprocessor):
    """Each code cell gets the outputs its grade id (or a cell the student added, its id) has in
    :data:`OUTPUTS` (none if absent)."""

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code":
            outputs = OUTPUTS.get(nbgrader_meta(cell).get("grade_id") or own_id(cell))
            cell.outputs = as_nbformat(outputs, is_test(cell)) if outputs is not None else []
            cell.execution_count = None
        return cell, resources


def own_id(cell: NotebookNode) -> str:
    """The id of a cell the student added (the canonical notebook's :data:`OWN_CELL` ids), which
    its outputs are recorded under: nbgrader removes grade ids its gradebook does not hold."""
    return cell.get("id", "") if str(cell.get("id", "")).startswith(OWN_CELL) else ""
