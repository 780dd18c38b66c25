"""The grader self-test: mutate the answer key's solutions and check that the tests kill the mutants.

A mutant is the answer key with one small change in one answer cell, inside a function or a method
of a class: an operator, a constant, an axis, a comparison, a method (``tril``/``triu``), a dropped
operand, argument or statement, two statements swapped, a condition negated; or a bug of a whole class
(:mod:`course_grading.class_mutants`: a fixed buffer, a float32 output, a detached argument, a statement
under no_grad, the global generator reseeded, a cache dropped, a batch dimension required, a special id
skipped when already there, a result kept between calls, a batch cut into blocks with one argument's offset not
advanced, a mask given a head axis, a returned cache kept in buffers shared between calls). Each mutant runs
against the notebook's full tests (visible and hidden, in-process, see :mod:`course_grading.notebook.harness`);
it is *killed* if the test cell of its part fails. A mutant that survives is either a gap in the
tests or equivalent to the key; reviewed equivalent mutants are listed, with a reason each, in
``assignments/grading/<id>_equivalent_mutants.txt`` as ``<mutant id> | <reason>``.
"""

from __future__ import annotations

import ast
import copy
import difflib
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path

import nbformat

from course_grading.class_mutants import class_mutations
from course_grading.markers import answer_code, nbgrader_meta, part_of, with_answers
from course_grading.notebook.harness import run_tests
from course_grading.sandbox.limits import cap_address_space

__all__ = [
    "Mutant",
    "Outcome",
    "Report",
    "THRESHOLD",
    "all_mutants",
    "mutants_of",
    "read_equivalents",
    "run_mutants",
    "self_test",
    "up_to_test_of",
]

THRESHOLD = 0.90  # the share of non-equivalent mutants the tests must kill
TIME_LIMIT_S = 20  # a mutant still running after this long counts as killed (a hang is a failure)

_BINOP_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.MatMult: ast.Mult, ast.Pow: ast.Mult, ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
}  # fmt: skip
_COMPARE_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
_NAME_SWAPS = {
    "tril": "triu", "triu": "tril", "any": "all", "all": "any", "max": "min", "min": "max",
    "amax": "amin", "amin": "amax", "softmax": "log_softmax", "log_softmax": "softmax",
    "unsqueeze": "squeeze", "sin": "cos", "cos": "sin", "mean": "sum", "sum": "mean",
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    part: str  # the answer cell's grade id
    ident: str  # stable name: part:line:start-end column:what
    code: str  # the mutated answer cell
    diff: str  # what changed, as a unified diff of the normalised code


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    reason: str  # the failing test's message, or "survived"


# ----------------------------------------------------------------------------------- mutation


def _changes(node: ast.AST) -> Iterator[tuple[str, object]]:
    """The mutations possible at ``node``: (description, new node or a statement-list edit)."""
    if isinstance(node, ast.BinOp):
        if type(node.op) in _BINOP_SWAPS:
            new = _BINOP_SWAPS[type(node.op)]
            yield f"{type(node.op).__name__}->{new.__name__}", ast.BinOp(node.left, new(), node.right)
        yield "keep left operand", node.left
        yield "keep right operand", node.right
    elif isinstance(node, ast.UnaryOp):
        yield f"drop {type(node.op).__name__}", node.operand
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE_SWAPS:
        new = _COMPARE_SWAPS[type(node.ops[0])]
        yield f"{type(node.ops[0]).__name__}->{new.__name__}", ast.Compare(node.left, [new()], node.comparators)
    elif isinstance(node, ast.Constant) and not isinstance(node.value, bool) and isinstance(node.value, (int, float)):
        for value in ({node.value + 1, node.value - 1} if isinstance(node.value, int) else {node.value * 2, 0.0}) - {
            node.value
        }:
            yield f"{node.value!r}->{value!r}", ast.Constant(value)
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield f"{node.value}->{not node.value}", ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and node.value in ("-inf", "inf"):
        yield f"{node.value!r} sign", ast.Constant("inf" if node.value == "-inf" else "-inf")
    elif isinstance(node, ast.Attribute) and node.attr in _NAME_SWAPS:
        yield f".{node.attr}->.{_NAME_SWAPS[node.attr]}", ast.Attribute(node.value, _NAME_SWAPS[node.attr], node.ctx)
    elif isinstance(node, ast.Call):
        if len(node.args) >= 2:
            yield "drop last argument", ast.Call(node.func, node.args[:-1], node.keywords)
        for i, keyword in enumerate(node.keywords):
            yield f"drop {keyword.arg}=", ast.Call(node.func, node.args, node.keywords[:i] + node.keywords[i + 1 :])
    elif isinstance(node, (ast.If, ast.IfExp)):
        negated = ast.UnaryOp(ast.Not(), node.test)
        yield (
            "negate condition",
            (
                ast.If(negated, node.body, node.orelse)
                if isinstance(node, ast.If)
                else ast.IfExp(negated, node.body, node.orelse)
            ),
        )
    elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
        yield "swap returned pair", ast.Return(ast.Tuple(node.value.elts[::-1], ast.Load()))


def _body_edits(body: list[ast.stmt]) -> Iterator[tuple[str, int, list[ast.stmt]]]:
    """Statement deletions and swaps of adjacent statements in one block (docstrings left alone)."""
    start = (
        1
        if body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
        else 0
    )
    for i in range(start, len(body)):
        yield "delete statement", i, body[:i] + body[i + 1 :] or [ast.Pass()]
    for i in range(start, len(body) - 1):
        yield "swap with next statement", i, body[:i] + [body[i + 1], body[i]] + body[i + 2 :]


def _replace(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if item is old:
                    value[i] = new


def _function_nodes(tree: ast.Module) -> list[tuple[ast.AST, ast.AST]]:
    """(node, parent) for every node inside a function body, docstrings and signatures excluded."""
    found: list[tuple[ast.AST, ast.AST]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            found.append((child, node))
            visit(child)

    for func in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        body = func.body[1:] if ast.get_docstring(func) is not None else func.body
        for statement in body:
            found.append((statement, func))
            visit(statement)
    return found


def mutants_of(part: str, code: str) -> list[Mutant]:
    """Every distinct, compilable mutant of one answer cell's code."""
    tree = ast.parse(code)
    original = ast.unparse(tree)
    n_sites = len(_function_nodes(tree))
    seen = {original}
    mutants: list[Mutant] = []

    def add(where: ast.AST, what: str, mutated: ast.Module) -> None:
        text = ast.unparse(ast.fix_missing_locations(mutated))
        if text in seen:
            return
        seen.add(text)
        diff = "\n".join(difflib.unified_diff(original.splitlines(), text.splitlines(), lineterm="", n=0))
        span = f"{getattr(where, 'lineno', 0)}:{getattr(where, 'col_offset', 0)}-{getattr(where, 'end_col_offset', 0)}"
        ident = f"{part}:{span}:{what}"
        mutants.append(Mutant(part, ident, text, diff))

    for index in range(n_sites):
        node, _ = _function_nodes(tree)[index]
        for what, _new in _changes(node):
            mutated = copy.deepcopy(tree)
            target, parent = _function_nodes(mutated)[index]
            replacement = next(new for desc, new in _changes(target) if desc == what)
            _replace(parent, target, replacement)  # type: ignore[arg-type]
            add(node, what, mutated)
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt) and not isinstance(node, ast.IfExp):
                for what, i, _edited in _body_edits(block):
                    mutated = copy.deepcopy(tree)
                    target, _ = _function_nodes(mutated)[index]
                    edited = next(e for d, j, e in _body_edits(getattr(target, field)) if d == what and j == i)
                    setattr(target, field, edited)
                    add(block[i], what, mutated)
    for index, func in enumerate(_top_functions(tree)):
        for what, changed in class_mutations(func):
            mutated = copy.deepcopy(tree)
            target = _top_functions(mutated)[index]
            for field in changed._fields:
                setattr(target, field, getattr(changed, field))
            add(func, what, mutated)
        for what, i, _edited in _body_edits(func.body):
            mutated = copy.deepcopy(tree)
            target = _top_functions(mutated)[index]
            target.body = next(e for d, j, e in _body_edits(target.body) if d == what and j == i)
            add(func.body[i], what, mutated)
    return mutants


def _top_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The cell's functions and the methods of its classes (whose statements a mutant may delete or swap)."""
    functions: list[ast.FunctionDef] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.append(node)
        elif isinstance(node, ast.ClassDef):
            functions += [n for n in node.body if isinstance(n, ast.FunctionDef)]
    return functions


# ------------------------------------------------------------------------------------ running


MEMORY_LIMIT = 6 * 1024**3  # address space of a mutant's worker: a runaway allocation fails, not the machine


@dataclass
class _Worker:
    """A spawned process that runs mutants one at a time (spawned, not forked: forking a process whose
    torch has already run OpenMP threads can deadlock the child)."""

    process: multiprocessing.process.BaseProcess
    conn: Connection
    task: int | None = None
    deadline: float = 0.0


def up_to_test_of(nb: nbformat.NotebookNode, part: str) -> nbformat.NotebookNode:
    """``nb`` without the cells after ``part``'s test cell: cells run in order, so those cannot
    change that test's verdict, and a mutant need not wait for the other parts' hidden checks (the
    earlier parts' test cells are skipped as it runs: ``run_tests(..., only={part})``)."""
    for i, cell in enumerate(nb.cells):
        meta = nbgrader_meta(cell)
        if (
            cell.cell_type == "code"
            and meta.get("grade")
            and not meta.get("solution")
            and part_of(meta["grade_id"]) == part
        ):
            nb.cells = nb.cells[: i + 1]
            break
    return nb


def _serve(conn: Connection, grading_dir: str) -> None:
    """Worker loop: receive (part, notebook JSON), send back that part's test result."""
    cap_address_space(MEMORY_LIMIT)
    while (task := conn.recv()) is not None:
        part, notebook = task
        conn.send(
            run_tests(up_to_test_of(nbformat.reads(notebook, as_version=4), part), Path(grading_dir), {part}).get(
                part, "no test cell"
            )
        )


def _start(grading_dir: Path) -> _Worker:
    parent, child = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(target=_serve, args=(child, str(grading_dir)), daemon=True)
    process.start()
    child.close()
    return _Worker(process, parent)


def all_mutants(source: nbformat.NotebookNode) -> list[Mutant]:
    return [m for part, code in answer_code(source).items() for m in mutants_of(part, code)]


def run_mutants(source: nbformat.NotebookNode, grading_dir: Path, jobs: int = 1) -> list[Outcome]:
    """Run every mutant of ``source``'s answer key against its full tests, ``jobs`` at a time.

    A mutant still running after ``TIME_LIMIT_S`` or one that kills its worker counts as killed (a
    student's notebook that hangs or crashes gets no point either); its worker is replaced. The answer key
    itself must pass each part's test cell run as a mutant's is (alone, after the answer cells): a key that
    fails one would have every mutant of that part counted killed, so it raises instead.
    """
    mutants = all_mutants(source)
    for part in dict.fromkeys(m.part for m in mutants):
        verdict = run_tests(up_to_test_of(copy.deepcopy(source), part), grading_dir, {part}).get(part, "no test cell")
        if verdict is not None:
            raise ValueError(
                f"the answer key fails {part}'s test cell run alone ({verdict}): its mutants would all count as killed"
            )
    results: dict[int, str | None] = {}
    pending = list(range(len(mutants)))[::-1]
    workers = [_start(grading_dir) for _ in range(max(1, min(jobs, len(mutants))))]
    try:
        while pending or any(w.task is not None for w in workers):
            for w in workers:
                if w.task is None and pending:
                    w.task = pending.pop()
                    w.deadline = time.monotonic() + TIME_LIMIT_S
                    notebook = nbformat.writes(with_answers(source, {mutants[w.task].part: mutants[w.task].code}))
                    w.conn.send((mutants[w.task].part, notebook))
            busy = [w for w in workers if w.task is not None]
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready = set(wait([w.conn for w in busy], timeout))
            for i, w in enumerate(workers):
                task = w.task
                if task is None:
                    continue
                if w.conn in ready:
                    try:
                        results[task] = w.conn.recv()
                        w.task = None
                        continue
                    except (EOFError, OSError):
                        results[task] = "the mutant killed its worker process"
                elif time.monotonic() >= w.deadline:
                    results[task] = f"mutant ran longer than {TIME_LIMIT_S} s"
                else:
                    continue
                w.process.kill()
                w.process.join()
                workers[i] = _start(grading_dir)
    finally:
        for w in workers:
            w.process.kill()
            w.process.join()
    return [Outcome(m, results[i] is not None, results[i] or "survived") for i, m in enumerate(mutants)]


def read_equivalents(path: Path) -> dict[str, str]:
    """``<mutant id> | <reason>`` lines; blank lines and ``#`` comments skipped. A reason is required."""
    if not path.exists():
        return {}
    equivalents = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ident, sep, reason = line.partition("|")
        if not sep or not reason.strip():
            raise ValueError(f"{path}:{number}: expected '<mutant id> | <reason>', got {line!r}")
        equivalents[ident.strip()] = reason.strip()
    return equivalents


@dataclass(frozen=True)
class Report:
    outcomes: list[Outcome]
    equivalents: dict[str, str]

    @property
    def survivors(self) -> list[Outcome]:
        """Surviving mutants not reviewed as equivalent: the gaps to look at."""
        return [o for o in self.outcomes if not o.killed and o.mutant.ident not in self.equivalents]

    @property
    def stale(self) -> list[str]:
        """Listed equivalents that no longer exist or that the tests now kill."""
        alive = {o.mutant.ident for o in self.outcomes if not o.killed}
        return sorted(set(self.equivalents) - alive)

    @property
    def score(self) -> float:
        counted = [o for o in self.outcomes if o.killed or o.mutant.ident not in self.equivalents]
        return sum(o.killed for o in counted) / max(1, len(counted))

    def by_part(self) -> dict[str, tuple[int, int, int]]:
        """part -> (killed, equivalent, total)."""
        table: dict[str, tuple[int, int, int]] = {}
        for o in self.outcomes:
            killed, equivalent, total = table.get(o.mutant.part, (0, 0, 0))
            is_equivalent = not o.killed and o.mutant.ident in self.equivalents
            table[o.mutant.part] = (killed + o.killed, equivalent + is_equivalent, total + 1)
        return table

    def render(self, show_diffs: bool = True) -> str:
        lines = [f"{'part':<14}{'killed':>8}{'equivalent':>12}{'survived':>10}{'total':>8}"]
        for part, (killed, equivalent, total) in self.by_part().items():
            lines.append(f"{part:<14}{killed:>8}{equivalent:>12}{total - killed - equivalent:>10}{total:>8}")
        lines.append(f"killed {self.score:.1%} of the mutants not reviewed as equivalent (threshold {THRESHOLD:.0%})")
        for o in self.survivors:
            lines.append(f"\nSURVIVED {o.mutant.ident}")
            if show_diffs:
                lines.append(o.mutant.diff)
        for ident in self.stale:
            lines.append(f"\nSTALE equivalent entry (no surviving mutant has this id): {ident}")
        return "\n".join(lines)


def self_test(assignment: str, course: Path, jobs: int = 1) -> Report:
    """The grader self-test of one assignment of the course folder ``course``."""
    source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    grading = course / "grading"
    outcomes = run_mutants(source, grading, jobs)
    return Report(outcomes, read_equivalents(grading / f"{assignment}_equivalent_mutants.txt"))
