"""Feedback that reveals no hidden test."""

from __future__ import annotations

import re

from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode
from traitlets import Bool

from .notebooks import BEGIN_HIDDEN

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ScrubHiddenTracebacks(Preprocessor):
    """Cut tracebacks in cells with hidden tests down to their last line, ``Error: message``.

    nbgrader's ``ClearHiddenTests`` removes the hidden lines from a cell's source, but the error's
    traceback, stored in the cell's output, still quotes the lines around the failure. The message
    itself is kept: hidden checks write messages meant for students. Must run before
    ``ClearHiddenTests``, which removes the marker this looks for.
    """

    enabled = Bool(True).tag(config=True)  # nbconvert's default is off for registered preprocessors

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code" and BEGIN_HIDDEN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [_ANSI.sub("", f"{output.get('ename', 'Error')}: {output.get('evalue', '')}")]
        return cell, resources
