"""The nbgrader markers and the notebook helpers: the one definition every part of the course uses.

Source notebooks mark solutions and hidden tests with comment lines::

    ### BEGIN SOLUTION          ### BEGIN HIDDEN TESTS
    ...                         ...
    ### END SOLUTION            ### END HIDDEN TESTS

``assignments/nbgrader_config.py`` hands the same words to nbgrader (``ClearSolutions``,
``ClearHiddenTests``), and the grading code, the answer keys, the feedback filter and the tests
find the blocks with the patterns below, so a change of marker is made here once.
"""

from __future__ import annotations

import ast
import re

import nbformat

__all__ = [
    "ANY_MARKER",
    "BEGIN_HIDDEN",
    "HIDDEN_BLOCK",
    "HIDDEN_WORDS",
    "MAX_CELL_CODE_BYTES",
    "MAX_CODE_BYTES",
    "MAX_FILE_BYTES",
    "MAX_JSON_VALUES",
    "MAX_SOURCE_BYTES",
    "OWN_CELL",
    "SOLUTION_BLOCK",
    "SOLUTION_MARK",
    "SOLUTION_WORDS",
    "answer_code",
    "answer_ids",
    "cell_text",
    "defined_names",
    "defused",
    "file_size_problem",
    "json_values_problem",
    "hidden_tests",
    "is_answer",
    "is_own",
    "is_test",
    "nbgrader_meta",
    "part_names",
    "part_of",
    "part_points",
    "source_size_problem",
    "with_answers",
    "without_hidden_tests",
]

SOLUTION_WORDS = ("BEGIN SOLUTION", "END SOLUTION")
HIDDEN_WORDS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
BEGIN_HIDDEN = f"### {HIDDEN_WORDS[0]}"

# A marker is a whole line: optional indentation, ``###``, the words, optional trailing blanks.
# Any line of a student's cell that nbgrader would read as one of its markers (it looks for the words
# in a line, whatever precedes them): see :func:`defused`.
ANY_MARKER = re.compile("|".join(re.escape(w) for w in (*SOLUTION_WORDS, *HIDDEN_WORDS)), re.IGNORECASE)
SOLUTION_MARK = re.compile(rf"^[ \t]*### ({SOLUTION_WORDS[0]}|{SOLUTION_WORDS[1]})[ \t]*(\n|\Z)", re.MULTILINE)
HIDDEN_BLOCK = re.compile(
    rf"^[ \t]*### {HIDDEN_WORDS[0]}[ \t]*\n(?P<body>.*?)^[ \t]*### {HIDDEN_WORDS[1]}[ \t]*(\n|\Z)",
    re.MULTILINE | re.DOTALL,
)
SOLUTION_BLOCK = re.compile(
    rf"^[ \t]*### {SOLUTION_WORDS[0]}[ \t]*\n(?P<body>.*?)^[ \t]*### {SOLUTION_WORDS[1]}[ \t]*(\n|\Z)",
    re.MULTILINE | re.DOTALL,
)

# What is graded of a notebook is its cells' code and text, never their outputs: one size rule for
# `course check`, the canonical notebook and intake. A file that is much larger (outputs, images)
# is still read, up to MAX_FILE_BYTES, beyond which it is not read at all.
MAX_SOURCE_BYTES = 20 * 2**20
MAX_FILE_BYTES = 128 * 2**20
# Parsed, every JSON value costs the grader's own process about 500 bytes whatever its size in the file: 30 MB of
# empty objects took 5 GB (attacks_r). A notebook's structure is counted before it is parsed (each comma, ``{`` and
# ``[`` outside its strings: between one and two per value) and one with more is not read (at most about 500 MB);
# a notebook of this course has a few thousand (the book's longest, with its outputs, 1,500), a cell that printed
# 100,000 lines 100,000.
MAX_JSON_VALUES = 1_000_000
# One JSON string from its opening quote. It is only ever tried where a left-to-right reading of the file is at a quote
# (never at every quote: an escaped quote of a string that never closes would start a scan to the end of the file from
# each of them, attacks_s), and a string that does not close ends the reading: the file is no JSON.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# Parsed, every byte of code costs the grader's own process up to about 1 KB (a cell of one-token lines: attacks_s,
# 6 MiB of code took 5.8 GB). Code is bounded per cell and in all, far above any notebook of this course (an answer
# key's longest cell holds a few KiB, all its code cells together well under 100 KiB).
MAX_CELL_CODE_BYTES = 256 * 2**10
MAX_CODE_BYTES = 2 * 2**20
# the grade id the canonical notebook gives a code cell the student added: student-cell-1, ...
OWN_CELL = "student-cell-"


def nbgrader_meta(cell: nbformat.NotebookNode) -> dict:
    """The cell's nbgrader metadata ({} for a cell nbgrader does not manage, or malformed metadata)."""
    metadata = cell.get("metadata")
    meta = metadata.get("nbgrader", {}) if isinstance(metadata, dict) else {}
    return meta if isinstance(meta, dict) else {}


def is_answer(cell: nbformat.NotebookNode) -> bool:
    return cell.get("cell_type") == "code" and bool(nbgrader_meta(cell).get("solution"))


def is_test(cell: nbformat.NotebookNode) -> bool:
    """A graded, read-only code cell: the visible (and, in the source, hidden) tests of one part."""
    meta = nbgrader_meta(cell)
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_own(cell: nbformat.NotebookNode) -> bool:
    """A code cell the student added, as the canonical notebook marks it (:data:`OWN_CELL`)."""
    grade_id = nbgrader_meta(cell).get("grade_id")
    return cell.get("cell_type") == "code" and isinstance(grade_id, str) and grade_id.startswith(OWN_CELL)


def cell_text(source: object) -> str:
    """A cell's source as one string (nbformat joins a list of lines; anything else is read as text)."""
    return (
        "".join(source) if isinstance(source, list) and all(isinstance(line, str) for line in source) else str(source)
    )


def file_size_problem(size: int) -> str | None:
    """Why a notebook file of ``size`` bytes is not read at all, or None (see :data:`MAX_FILE_BYTES`)."""
    return (
        f"the file is larger than {MAX_FILE_BYTES >> 20} MiB (outputs included): not read"
        if size > MAX_FILE_BYTES
        else None
    )


def json_values_problem(data: bytes) -> str | None:
    """Why a notebook file's JSON ``data`` holds too many values to be parsed, or None (:data:`MAX_JSON_VALUES`).
    Counted without parsing, in one reading from left to right in time linear in the file: each comma, ``{`` and
    ``[`` outside the strings (one or two per value), and the strings (at most two per value: a key and its value).
    A string that never closes stops the reading (None: the parser refuses the file at once)."""
    values = strings = position = 0
    while values <= MAX_JSON_VALUES and strings <= 2 * MAX_JSON_VALUES:
        quote = data.find(b'"', position)
        end = len(data) if quote < 0 else quote
        values += data.count(b",", position, end) + data.count(b"{", position, end) + data.count(b"[", position, end)
        if quote < 0:
            break
        string = _JSON_STRING.match(data, quote)
        if string is None:
            return None
        strings, position = strings + 1, string.end()
    if values <= MAX_JSON_VALUES and strings <= 2 * MAX_JSON_VALUES:
        return None
    return (
        f"the notebook's JSON has more than {MAX_JSON_VALUES:,} values and separators (outputs and metadata "
        "included): not read; "
        "clear its outputs and hand it in again"
    )


def source_size_problem(cells: list) -> str | None:
    """Why a notebook's cells are too large to be graded, or None: their code and text (not their
    outputs, which are never graded) over :data:`MAX_SOURCE_BYTES`, a code cell over :data:`MAX_CELL_CODE_BYTES`, or
    all code cells over :data:`MAX_CODE_BYTES` (the grader reads code by parsing it). ``cells`` may be of any shape."""
    sizes = [
        (len(cell_text(c.get("source", "")).encode("utf-8", "surrogatepass")), c.get("cell_type") == "code")
        for c in cells
        if isinstance(c, dict)
    ]
    size = sum(n for n, _ in sizes)
    code = [(i, n) for i, (n, is_code) in enumerate(sizes) if is_code]
    largest = max(code, key=lambda item: item[1], default=(0, 0))
    if size > MAX_SOURCE_BYTES:
        return (
            f"its cells' code and text come to {size / 2**20:.1f} MiB, over the limit of {MAX_SOURCE_BYTES >> 20} "
            "MiB (outputs do not count)"
        )
    if largest[1] > MAX_CELL_CODE_BYTES:
        return (
            f"its code cell {largest[0] + 1} holds {largest[1] / 2**10:,.0f} KiB of code, over the limit of "
            f"{MAX_CELL_CODE_BYTES >> 10} KiB a cell"
        )
    if sum(n for _, n in code) > MAX_CODE_BYTES:
        return (
            f"its code cells hold {sum(n for _, n in code) / 2**20:.1f} MiB of code, over the limit of "
            f"{MAX_CODE_BYTES >> 20} MiB (outputs do not count)"
        )
    return None


def answer_ids(nb: nbformat.NotebookNode) -> list[str]:
    """The grade ids of the answer cells (the parts students write), in notebook order."""
    return [nbgrader_meta(c)["grade_id"] for c in nb.cells if is_answer(c)]


def defused(source: str) -> str:
    """A student's cell with every nbgrader marker (``BEGIN SOLUTION``, ``END HIDDEN TESTS``, ... in any
    case, anywhere in a line) written with a hyphen (``BEGIN-SOLUTION``), so that nbgrader's steps,
    which look for the words in any cell, cannot read the student's text as a block of the
    instructor's (a feedback page that fails to render, a cell cleared)."""
    return ANY_MARKER.sub(lambda m: m.group(0).replace(" ", "-", 1), source)


def answer_code(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The code of each answer cell, with the solution markers removed."""
    return {nbgrader_meta(c)["grade_id"]: SOLUTION_MARK.sub("", c.source) for c in nb.cells if is_answer(c)}


def with_answers(nb: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose answer cells named in ``answers`` hold that code instead."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in answers and is_answer(cell):
            cell.source = answers[gid]
    return copy


def part_of(test_id: str) -> str:
    """The answer a test cell grades: ``test_sdpa`` grades ``sdpa``."""
    return test_id.removeprefix("test_")


def without_hidden_tests(source: str, replacement: str = "") -> str:
    """``source`` with each hidden-test block (markers included) replaced by ``replacement``."""
    return HIDDEN_BLOCK.sub(replacement, source)


def hidden_tests(source: str) -> list[str]:
    """The bodies of the hidden-test blocks of ``source``, in order."""
    return [m.group("body") for m in HIDDEN_BLOCK.finditer(source)]


def defined_names(source: str) -> list[str]:
    """The functions and classes a cell defines at its top level (what the part is made of).

    Used on the student version's answer stubs, which always parse, and on the student's answer
    cells: code that does not parse (or nests too deep for the parser) defines nothing."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def part_names(nb: nbformat.NotebookNode) -> dict[str, list[str]]:
    """For each test cell's grade id, the names its part defines (from the part's answer cell)."""
    answers = {nbgrader_meta(c)["grade_id"]: c.source for c in nb.cells if is_answer(c)}
    return {
        nbgrader_meta(c)["grade_id"]: defined_names(answers.get(part_of(nbgrader_meta(c)["grade_id"]), ""))
        for c in nb.cells
        if is_test(c)
    }


def part_points(nb: nbformat.NotebookNode) -> dict[str, float]:
    """Each part's points (its test cell's), by answer id, in notebook order."""
    return {
        part_of(nbgrader_meta(c)["grade_id"]): float(nbgrader_meta(c).get("points", 0)) for c in nb.cells if is_test(c)
    }
