"""Execute the book's chapters as other machines would, and print how far each asserted claim is from failing.

A chapter's measured claims are ``assert`` statements in its cells. Float32 training differs from one
processor to another (vector instructions, the number of threads, the order of sums), so a claim that
holds on the author's machine may fail on a reader's. This script runs chapters under such differences,
each a *configuration*: the kernels torch, MKL and oneDNN may use, the number of threads, and
``COURSE_SEED_OFFSET`` (``course_lib.seeding``: every seed of every chapter moved by it). After every cell
that asserts something it evaluates, in the chapter's kernel, each comparison of each assert and reports
its **margin**: how far the two sides are apart, relative to the larger of them. ``a < b`` with ``a = 0.8``
and ``b = 1.0`` has margin 0.2: a would have to grow by a fifth of b before the claim fails. An ``and`` or
a chain of comparisons takes its smallest part; a claim that is no comparison of numbers (``torch.equal``,
``all(...)``) is reported as holding or failing. A negative margin is a failed claim.

    python book/_ext/book_robust.py                         # every chapter, the presets and two drawn configurations
    python book/_ext/book_robust.py -c 02_blocks -k avx2-1t-s1 -k native-2t-s0
    python book/_ext/book_robust.py --report                # the table again from the runs in --out

Each run writes ``_build/robust/<chapter>.<configuration>.json``; the table reads every such file, so runs
made at different times add up. Chapters 3 and 4 save the models chapter 6 fine-tunes: each
configuration keeps them in a folder of its own there, so run chapters 3 and 4 before 6 (the default
order does) for chapter 6 to fine-tune that configuration's models.

``--jobs`` runs that many (chapter, configuration) pairs at once: on two cores, two one-thread
configurations side by side keep both busy (never a two-thread one beside another run: torch's
threads then spin on each other and a chapter takes many times as long).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
OUT = ROOT / "_build" / "robust"

AVX2 = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"}
BASELINE = {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2", "ONEDNN_MAX_CPU_ISA": "SSE41"}


def threads(n: int) -> dict[str, str]:
    return {"OMP_NUM_THREADS": str(n), "MKL_NUM_THREADS": str(n)}


# A configuration's name says its environment: KERNELS-[Nt-]sOFFSET, e.g. avx2-1t-s37. "native" leaves the kernels
# to torch (the widest this processor has); without "Nt" the thread count is the machine's (course_lib.threads).
KERNELS: dict[str, dict[str, str]] = {"native": {}, "avx2": AVX2, "baseline": BASELINE}
NAME = re.compile(r"(?P<kernels>native|avx2|baseline)(?:-(?P<threads>[1-9])t)?-s(?P<offset>\d{1,3})")
# The presets: every configuration a run names by default.
CONFIGS = [
    "native-2t-s0",
    "avx2-1t-s1",
    "baseline-2t-s2",
    "avx2-2t-s2",
    "baseline-1t-s1",
    "baseline-1t-s2",
    "avx2-2t-s1",
]
# The variables a configuration may set: unset in a run whose configuration does not name them.
VARIABLES = sorted({*AVX2, *BASELINE, *threads(1), "COURSE_SEED_OFFSET"})


def configuration(name: str) -> dict[str, str]:
    """The environment a configuration's name stands for; ValueError for a name of another form."""
    match = NAME.fullmatch(name)
    if match is None:
        raise ValueError(
            f"{name!r} is no configuration: KERNELS-[Nt-]sOFFSET, KERNELS one of "
            f"{', '.join(KERNELS)} (e.g. avx2-1t-s37)"
        )
    count = {} if match["threads"] is None else threads(int(match["threads"]))
    return KERNELS[match["kernels"]] | count | {"COURSE_SEED_OFFSET": str(int(match["offset"]))}


def drawn(n: int, rng: random.Random) -> list[str]:
    """``n`` fresh configurations: any kernels, one or two threads, a seed offset from 0 to 99."""
    return [f"{rng.choice(list(KERNELS))}-{rng.choice([1, 2])}t-s{rng.randrange(100)}" for _ in range(n)]


def of_sources(root: Path = ROOT) -> str:
    """The configuration `make test` builds the book in: kernels (native or AVX2: the baseline ones would
    pass CI's time) and a seed offset from 0 to 99, both drawn from the hash of the chapters' and
    course_lib's sources, the threads the machine's. Every change to the book or its library tries
    another; a claim that holds only for the offsets tried fails there, not on a reader's machine (and a
    commit that changes neither builds as the last one did, so a build can be checked before it lands)."""
    digest = hashlib.sha256()
    for path in sorted([*(root / "book").glob("*.md"), *(root / "course_lib").rglob("*.py")]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    h = int(digest.hexdigest(), 16)
    return f"{['native', 'avx2'][h % 2]}-s{(h // 2) % 100}"


MARKER = "__claim_margin__"
# Defined in the chapter's kernel before its first cell. Evaluates the parts of an assert's expression
# in the kernel's globals; an assert inside a function (whose names are local) is reported as unread.
PREAMBLE = f'''
def {MARKER}(cell, source):
    import ast, json, math, operator
    OPERATORS = {{ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}}
    def value(node):
        v = eval(compile(ast.Expression(node), "<claim>", "eval"), globals())
        if hasattr(v, "numel") and v.numel() == 1:
            v = v.item()
        return v
    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    def margin(node):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            return min(margin(part) for part in node.values)
        if isinstance(node, ast.Compare) and not any(isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in node.ops):
            parts, left = [], value(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = value(right_node)
                if number(left) and number(right) and isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
                    gap = right - left if isinstance(op, (ast.Lt, ast.LtE)) else left - right
                    scale = max(abs(left), abs(right))
                    parts.append(gap / scale if scale > 0 else 0.0)
                else:
                    holds = bool(OPERATORS[type(op)](left, right))
                    parts.append(math.inf if holds else -math.inf)
                left = right
            return min(parts)
        return math.inf if value(node) else -math.inf
    test = ast.parse(source, mode="exec").body[0].test
    try:
        result = margin(test)
    except NameError:
        result = None
    except Exception as error:
        result = f"{{type(error).__name__}}: {{error}}"
    print("{MARKER}", json.dumps({{"cell": cell, "claim": source, "margin": result if not isinstance(result, float) or math.isfinite(result) else ("holds" if result > 0 else "fails")}}))
'''  # noqa: E501 (code run as written)


def asserts(source: str) -> list[str]:
    """The source of every ``assert`` statement in a cell (its message left out)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics
        return []
    return [ast.unparse(ast.Assert(test=node.test)) for node in ast.walk(tree) if isinstance(node, ast.Assert)]


def chapter_notebook(chapter: str):
    from myst_nb.core.read import read_myst_markdown_notebook

    return read_myst_markdown_notebook((BOOK / f"{chapter}.md").read_text())


def code_digest(chapter: str) -> str:
    """A digest of the chapter's code cells as they are now: a run of other code is stale."""
    code = "\n\n".join(cell.source for cell in chapter_notebook(chapter).cells if cell.cell_type == "code")
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def claims_now(chapter: str) -> set[tuple[int, str]]:
    """(cell number, claim) of every assert of the chapter as it is now."""
    return {
        (number, claim)
        for number, cell in enumerate(chapter_notebook(chapter).cells)
        if cell.cell_type == "code"
        for claim in asserts(cell.source)
    }


def stale(run: dict) -> bool:
    """Whether a run executed other code than the chapter's now (runs saved before the digest was
    recorded: whether their asserts differ from the chapter's now)."""
    if not (BOOK / f"{run['chapter']}.md").is_file():
        return True
    if "code" in run:
        return run["code"] != code_digest(run["chapter"])
    return {(m["cell"], m["claim"]) for m in run["margins"]} != claims_now(run["chapter"])


def instrumented(chapter: str):
    """The chapter as a notebook, with a cell after every asserting cell that reports its margins."""
    import nbformat

    nb = chapter_notebook(chapter)
    cells = [nbformat.v4.new_code_cell(PREAMBLE)]
    for number, cell in enumerate(nb.cells):
        cells.append(cell)
        if cell.cell_type == "code":
            claims = asserts(cell.source)
            if claims:
                cells.append(nbformat.v4.new_code_cell("\n".join(f"{MARKER}({number}, {claim!r})" for claim in claims)))
    nb.cells = cells
    return nb


def run_one(chapter: str, config: str, out: Path, timeout: int) -> dict:
    """Execute one chapter in this process's environment; the margins, errors and time as a dict."""
    from nbclient import NotebookClient

    nb = instrumented(chapter)
    start = time.perf_counter()
    NotebookClient(
        nb, timeout=timeout, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(BOOK)}}
    ).execute()
    seconds = time.perf_counter() - start
    margins, errors = [], []
    for cell in nb.cells:
        outputs = cell.get("outputs", [])
        # a line may span two stream chunks
        text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
        margins += [
            json.loads(line.removeprefix(MARKER)) for line in text.splitlines() if line.startswith(MARKER + " {")
        ]
        errors += [f"{o['ename']}: {o['evalue']}"[:300] for o in outputs if o.get("output_type") == "error"]
    result = {
        "chapter": chapter,
        "config": config,
        "code": code_digest(chapter),
        "seconds": round(seconds, 1),
        "margins": margins,
        "errors": errors,
    }
    out.write_text(json.dumps(result, indent=1))
    if os.environ.get("BOOK_ROBUST_KEEP"):  # the executed notebook too, to read its outputs
        import nbformat

        nbformat.write(nb, out.with_suffix(".ipynb"))
    return result


def launch(chapter: str, config: str, out_dir: Path, timeout: int) -> Path:
    """Run one (chapter, configuration) in a fresh process whose environment (and so its kernel's) is the
    configuration's."""
    out = out_dir / f"{chapter}.{config}.json"
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES} | configuration(config)
    env["COURSE_MODELS"] = str(models_for(config, out_dir))
    command = [sys.executable, __file__, "--one", chapter, config, "--out", str(out_dir), "--timeout", str(timeout)]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    status = (
        "done" if done.returncode == 0 and out.is_file() else f"FAILED (exit {done.returncode}): {done.stderr[-500:]}"
    )
    print(f"{chapter} {config}: {status} in {time.perf_counter() - start:.0f} s", flush=True)
    return out


def models_for(config: str, out_dir: Path) -> Path:
    """Where a configuration's chapters 3 and 4 save the models chapter 6 fine-tunes: a folder of its own
    (runs of other configurations at the same time never read a half-written file), first filled with
    the reader's saved models where there are any and this checkout's code made them, so that chapter 6 alone can
    run (on a model older than its chapter's code it once failed a claim that the chapter's own model meets; without
    one it says which chapter to run first)."""
    from course_lib.chapter_models import chapter_model, is_current

    folder = out_dir / f"models-{config}"
    with _FOLDERS:  # two chapters of one configuration start at once
        if folder.is_dir():
            return folder
        folder.mkdir(parents=True)
        for name in ("03_gpt", "04_bert"):
            if is_current(name):
                shutil.copy2(chapter_model(name), folder / f"{name}.pt")
    return folder


_FOLDERS = threading.Lock()


def short(claim: str, width: int = 70) -> str:
    text = " ".join(claim.removeprefix("assert ").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def report(out_dir: Path, safety: float) -> int:
    """Print, per chapter and claim, the smallest margin over the runs found and which run gave it.
    Returns the number of claims that failed, or fell below ``safety`` in some run while differing
    between runs. A claim whose margin is the same in every run (two at least) is marked so: its
    value does not depend on the processor, threads or seed (a count, a tokenizer's output, exact
    arithmetic), so a small margin there is no risk."""
    found = [json.loads(p.read_text()) for p in sorted(out_dir.glob("*.json"))]
    runs = [run for run in found if not stale(run)]
    if not runs:
        print(f"no runs of the chapters as they are now in {out_dir}")
        return 1
    seen: dict[tuple[str, int, str], list[tuple[object, str]]] = {}
    for run in runs:
        for m in run["margins"]:
            seen.setdefault((run["chapter"], m["cell"], m["claim"]), []).append((m["margin"], run["config"]))
    print(f"{'chapter':<20} {'claim':<70} {'margin':>9}  {'runs':>4}  smallest in")
    below = 0
    for (chapter, _cell, claim), values in sorted(seen.items()):
        value, config = min(values, key=lambda v: rank(v[0]))
        shown = f"{value:9.3f}" if isinstance(value, float) else f"{str(value)[:9]:>9}"
        same = len(values) > 1 and isinstance(value, float) and len({json.dumps(v) for v, _ in values}) == 1
        flag = "  (same in every run)" if same else ""
        if rank(value) < 0 or (rank(value) < safety and not same):
            below += 1
            flag += "  <-- below the safety margin" if rank(value) >= 0 else "  <-- FAILS"
        print(f"{chapter:<20} {short(claim):<70} {shown}  {len(values):>4}  {config}{flag}")
    print()
    for run in runs:
        extra = f"; errors: {run['errors']}" if run["errors"] else ""
        print(f"{run['chapter']} {run['config']}: {run['seconds']:.0f} s, {len(run['margins'])} claims{extra}")
    for run in found:
        if stale(run):
            print(f"{run['chapter']} {run['config']}: stale (the chapter's code changed since), left out")
    print(
        f"\n{below} claim(s) failing, or below the safety margin {safety} in a claim that varies between runs; "
        f"{len(seen)} claims, {len(runs)} runs"
    )
    return below


def rank(value: object) -> float:
    """A margin as a number for ordering: a holding non-numeric claim above every number, an unread one
    (an assert inside a function) as holding, a failing or erroring one below every number."""
    if isinstance(value, (int, float)):
        return float(value)
    if value in ("holds", None):
        return float("inf")
    return float("-inf")


def chapters() -> list[str]:
    return sorted(p.stem for p in BOOK.glob("*.md") if p.stem[0].isdigit() or p.stem.startswith("appendix"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-c", "--chapter", action="append", help="a chapter's file name without .md (default: every chapter)"
    )
    parser.add_argument(
        "-k",
        "--config",
        action="append",
        help="a configuration, KERNELS-[Nt-]sOFFSET, e.g. avx2-1t-s37 (default: the presets)",
    )
    parser.add_argument(
        "--draw",
        type=int,
        default=None,
        help="also this many fresh configurations, drawn now and printed (default: 2 without -k, else 0)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help=(
            "runs at once (2 only for one-thread configurations on 2 cores: a two-thread torch beside another run "
            "spins on its threads' barrier and slows many times)"
        ),
    )
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per cell")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--safety", type=float, default=0.1, help="the smallest margin accepted (default 0.1)")
    parser.add_argument("--report", action="store_true", help="only print the table of the runs in --out")
    parser.add_argument("--keep", action="store_true", help="also write each executed notebook beside its margins")
    parser.add_argument("--one", nargs=2, metavar=("CHAPTER", "CONFIG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.one:
        run_one(*args.one, args.out / f"{args.one[0]}.{args.one[1]}.json", args.timeout)
        return 0
    if args.keep:
        os.environ["BOOK_ROBUST_KEEP"] = "1"
    if not args.report:
        draw = args.draw if args.draw is not None else (0 if args.config else 2)  # each run tries seeds nobody tried
        names = (args.config or CONFIGS) + drawn(draw, random.Random())
        for name in names:
            configuration(name)  # a mistyped name stops here, before anything runs
        print(f"configurations: {', '.join(names)}", flush=True)
        pairs = [(c, k) for k in names for c in (args.chapter or chapters())]
        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda pair: launch(*pair, args.out, args.timeout), pairs))
    return 1 if report(args.out, args.safety) else 0


if __name__ == "__main__":
    sys.exit(main())
