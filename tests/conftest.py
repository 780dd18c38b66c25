"""Fixtures shared by test modules: the built book (built once per test run, however many pytest-xdist
workers run it), and the guard that fails the session if any test leaves something in the real course
(``assignments/``, ``solutions/``): tests grade in temporary copies only
(``course_grading.notebook.assignments.copy_course``).

``make test`` runs the suite on two pytest-xdist workers with ``--dist loadgroup`` (pyproject.toml's
addopts); :func:`pytest_collection_modifyitems` puts the tests that share something expensive in one
group, so that it is made once, on one worker: a module- or class-scoped fixture (one group per
parameter of a parametrized one), the built book, the cells of an answer key that nbval runs in one
kernel. ``-n 0`` runs everything in one process, as before."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
BUILD_BOOK = ROOT / "book" / "_ext" / "build_book.py"  # make book's build: jupyter-book build, chapters side by side
# A guard against a build that never ends, not a budget: each cell has its own limit (_config.yml), and a busy
# machine may take twice the ~25 minutes an idle 2-core one does
BUILD_LIMIT_S = 7200
# The real course and its answer keys: no test may add, change or remove anything in them, git-ignored
# files included (nbgrader's gradebook.db, submitted/, autograded/, feedback/, graded/, .nbgrader.log).
REAL_COURSE = [ROOT / "assignments", ROOT / "solutions"]
# nbgrader run where there is no nbgrader_config.py (a test's working directory: the project root)
# takes that directory for the course and silently makes a gradebook (and its folders) in it.
STRAY_NBGRADER = [
    ROOT / name
    for name in ("gradebook.db", ".nbgrader.log", "submitted", "autograded", "feedback", "release", "graded")
]
COURSE_BEFORE = pytest.StashKey[dict[str, str]]()
COURSE_CHECKED = pytest.StashKey[bool]()


def course_state(paths: list[Path] = REAL_COURSE + STRAY_NBGRADER) -> dict[str, str]:
    """Every folder, file and link under ``paths`` (git-ignored ones too) -> what it is: a file by the
    hash of its content. Python's bytecode caches (``__pycache__``, written by importing the hidden
    checks) are left out: they are not course state, and no copy of the course takes them along."""
    state: dict[str, str] = {}

    def add(path: str) -> None:
        name = os.path.relpath(path, ROOT)
        if os.path.islink(path):
            state[name] = f"link to {os.readlink(path)}"
            return
        try:
            with open(path, "rb") as f:
                state[name] = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError as error:
            state[name] = f"unreadable ({error.strerror})"

    for top in paths:
        if os.path.islink(top) or os.path.isfile(top):
            add(str(top))
        for folder, subfolders, files in os.walk(top):  # nothing where top is no folder
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            state[os.path.relpath(folder, ROOT) + "/"] = "folder"
            for name in files + [d for d in subfolders if os.path.islink(os.path.join(folder, d))]:
                add(os.path.join(folder, name))
    return state


def course_changes(before: dict[str, str], after: dict[str, str], shown: int = 15) -> str:
    """What differs between two :func:`course_state` snapshots, for a failure message ('' if nothing)."""
    kinds = {
        "added": sorted(after.keys() - before.keys()),
        "changed": sorted(p for p in before.keys() & after.keys() if before[p] != after[p]),
        "removed": sorted(before.keys() - after.keys()),
    }
    if not any(kinds.values()):
        return ""
    lines = [
        "the test session left changes in the real course (assignments/, solutions/, or nbgrader's files in the "
        "project root); tests must grade in a temporary copy (course_grading.notebook.assignments.copy_course(tmp_path "
        "/ 'course'), and release/ where needed) and run nbgrader where that copy's nbgrader_config.py is:"
    ]
    for kind, paths in kinds.items():
        if paths:
            lines.append(
                f"  {kind} ({len(paths)}): "
                + ", ".join(paths[:shown])
                + (f", and {len(paths) - shown} more" if len(paths) > shown else "")
            )
    return "\n".join(lines)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS")
# The thread settings the run started with: the book build, which runs while the other worker waits,
# gets these back (its chapters time themselves on the whole machine).
STARTING_THREADS = {name: os.environ.get(name) for name in THREAD_VARIABLES}


def pytest_sessionstart(session: pytest.Session) -> None:
    """The real course as it was before anything was collected or run (pre-existing files included).

    On a pytest-xdist worker, torch and every process the tests start (kernels, nbgrader, the grader)
    use one thread: two workers each running torch on every core of a 2-core machine oversubscribe
    it, and torch's threads then wait on each other (steps measured 10x slower)."""
    session.config.stash[COURSE_BEFORE] = course_state()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import torch

        torch.set_num_threads(1)
        os.environ.update({name: "1" for name in THREAD_VARIABLES})


@pytest.fixture(scope="session", autouse=True)
def real_course_untouched(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the session (an error at the teardown of its last test) if the real course changed."""
    before = request.config.stash.get(COURSE_BEFORE, None)
    if before is None:
        before = request.config.stash[COURSE_BEFORE] = course_state()
    yield
    request.config.stash[COURSE_CHECKED] = True
    changes = course_changes(before, course_state())
    if changes:
        pytest.fail(changes, pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The same check where no test of tests/ ran, so the fixture never did (``-k`` selecting only answer keys)."""
    before = session.config.stash.get(COURSE_BEFORE, None)
    if before is None or session.config.stash.get(COURSE_CHECKED, False):
        return
    changes = course_changes(before, course_state())
    if changes:
        print("\n" + changes, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The test suite builds the book as another reader's machine would, and each version of the book as another
# reader's: kernels (this processor's widest, or AVX2, what most laptops have) and a seed offset from 0 to 99
# that every seed of every chapter is moved by (course_lib.seeding), both drawn from the chapters' and
# course_lib's sources (book/_ext/book_robust.py's of_sources), the thread count the machine's
# (course_lib.threads). A measured claim that holds only on one processor's arithmetic or for the seeds
# someone tried then fails `make test` for some change instead of a reader's `make book`.
# BOOK_CONFIGURATION=avx2-s37 (the name the header and a failure print) replays one; book/_ext/book_robust.py
# runs chapters under more and prints each claim's margin.
_robust_spec = importlib.util.spec_from_file_location("book_robust", ROOT / "book" / "_ext" / "book_robust.py")
assert _robust_spec is not None and _robust_spec.loader is not None
book_robust = importlib.util.module_from_spec(_robust_spec)
_robust_spec.loader.exec_module(book_robust)


BOOK_CONFIGURATION = os.environ.get("BOOK_CONFIGURATION") or book_robust.of_sources(ROOT)
BOOK_TEST_CONFIGURATION = book_robust.configuration(BOOK_CONFIGURATION)


def pytest_report_header(config: pytest.Config) -> str:
    return (
        f"book built as {BOOK_CONFIGURATION} ({BOOK_TEST_CONFIGURATION}); replay: "
        f"BOOK_CONFIGURATION={BOOK_CONFIGURATION} make test"
    )


def build(source: Path, output: Path) -> subprocess.CompletedProcess:
    """``make book``'s build command, writing to ``output``, in :data:`BOOK_TEST_CONFIGURATION`."""
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES} | {
        k: v for k, v in STARTING_THREADS.items() if v is not None
    }
    env |= BOOK_TEST_CONFIGURATION
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    command = [sys.executable, str(BUILD_BOOK), "-W", "-n", "--keep-going", str(source), "--path-output", str(output)]
    return run_as_group(command, env, BUILD_LIMIT_S)


def run_as_group(command: list[str], env: dict[str, str], limit_s: float) -> subprocess.CompletedProcess:
    """``command`` run to its end or to ``limit_s``, in its own process group, all of which a limit stops: the
    book's build forks a reader per share and each starts a kernel, and a limit that killed only the build's
    first process left them running (measured: chapter 6 went on executing beside the tests)."""
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=limit_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            stderr += f"\nit ran past {limit_s:g} s and was stopped, with every process it started\n"
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def build_failure(result: subprocess.CompletedProcess, output: Path) -> str:
    """What a failed build says: its whole log (each failing cell's source and traceback among it)
    written to ``output/build-failure.log``, which it names first, then the log from the first failing
    cell on (a cell's error, or its timeout), and the log's tail."""
    text = f"==== stdout\n{result.stdout}\n\n==== stderr\n{result.stderr}\n"
    log = output / "build-failure.log"
    log.write_text(text)
    found = re.search(r"the failing share's own traceback", text) or re.search(
        r"CellExecutionError|CellTimeoutError|DeadKernelError|Traceback \(most recent call last\)", text
    )  # a share's traceback (book/_ext/build_book.py prints it) holds the failing cell; the main process's does not
    failing = text[found.start() : found.start() + 6000] if found else ""
    replay = f"(built as {BOOK_CONFIGURATION}: replay with BOOK_CONFIGURATION={BOOK_CONFIGURATION})"
    return f"the book build failed {replay}; its whole log: {log}\n{failing}\n...\n{text[-2000:]}\n{in_short(text)}"


# What a failing share's teardown adds (a killed kernel's socket, the parallel read's wrapper), never the cause
_CONSEQUENCES = {"CellExecutionError", "ExecutionError", "SphinxParallelError", "ZMQError", "DeadKernelError"}


def in_short(log: str) -> str:
    """One line, last in a build's failure message (a CI log cut to its end keeps it): the chapters whose
    execution failed and the first error a cell raised, e.g. ``in short: book/04_bert.md: AssertionError: ...``."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", log)
    chapters = sorted(set(re.findall(r"ExecutionError: \S*?((?:book/)?[\w.-]+\.md)\b", plain)))
    share = plain.find("the failing share's own traceback")  # where the cells' own errors are, when it is there
    errors = [
        f"{name}: {message.strip()}"
        for name, message in re.findall(r"^(\w*(?:Error|Exception)): (.*)$", plain[max(share, 0) :], re.MULTILINE)
        if name not in _CONSEQUENCES and message.strip()
    ]
    return f"in short: {', '.join(chapters) or 'no chapter named'}: {errors[0] if errors else 'no error line found'}"


class Pause:
    """Lets one pytest-xdist worker run something while no other worker runs a test: the book build,
    whose cells have a time limit (``_config.yml``) and whose chapters assert measured timings, both
    set for a build that has the machine to itself, as ``make book`` and a serial run give it.

    Every test runs holding a shared lock (:func:`pytest_runtest_protocol`); :meth:`alone` takes it
    exclusively, after closing a turnstile that keeps the other workers from starting another test
    meanwhile (they finish the one they are in first)."""

    def __init__(self, folder: Path) -> None:
        self.turnstile = os.open(folder / "pause.turnstile", os.O_RDWR | os.O_CREAT, 0o600)
        self.running = os.open(folder / "pause.running", os.O_RDWR | os.O_CREAT, 0o600)

    def enter_test(self) -> None:
        fcntl.flock(self.turnstile, fcntl.LOCK_EX)
        fcntl.flock(self.running, fcntl.LOCK_SH)
        fcntl.flock(self.turnstile, fcntl.LOCK_UN)

    def leave_test(self) -> None:
        fcntl.flock(self.running, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        """Called outside a test (after :meth:`leave_test`)."""
        fcntl.flock(self.turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.running, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self.running, fcntl.LOCK_UN)
        finally:
            fcntl.flock(self.turnstile, fcntl.LOCK_UN)


_PAUSE: list[Pause] = []


def shared_folder(config: pytest.Config) -> Path | None:
    """Under pytest-xdist, the run's temporary folder that all its workers share (the parent of each
    worker's basetemp, fresh for each run); None in a run without workers."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not config.option.basetemp:
        return None
    return Path(config.option.basetemp).resolve().parent


def pause(config: pytest.Config) -> Pause | None:
    if not _PAUSE and (folder := shared_folder(config)) is not None:
        _PAUSE.append(Pause(folder))
    return _PAUSE[0] if _PAUSE else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    """Under pytest-xdist each test (the answer keys' cells included) runs holding :class:`Pause`'s
    shared lock."""
    gate = pause(item.config)
    if gate is None:
        return (yield)
    gate.enter_test()
    try:
        return (yield)
    finally:
        gate.leave_test()


@pytest.fixture(scope="session")
def html(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book built from this checkout into a fresh folder (every chapter executed): its HTML root.

    Under pytest-xdist the first worker that needs it builds it once for the run, into the folder its
    workers share, holding a file lock, with the other workers paused (:class:`Pause`: the build
    gets the machine to itself, as in a serial run); a worker that needs it later (or waits on the
    lock) takes that build, or its failure, instead of building again.

    BOOK_HTML=path/to/_build/html tests an already built book instead (quicker while editing tests;
    the suite as `make test` runs it always builds)."""
    if os.environ.get("BOOK_HTML"):
        return Path(os.environ["BOOK_HTML"]).resolve()
    gate, shared = pause(request.config), shared_folder(request.config)
    if gate is None or shared is None:
        out = tmp_path_factory.mktemp("book")
        result = build(ROOT, out)
        assert result.returncode == 0, build_failure(result, out)
        return out / "_build" / "html"
    out, failed = shared / "book", shared / "book.failed"
    gate.leave_test()  # not waiting on the lock below while holding up a worker that builds
    try:
        with FileLock(str(shared / "book.lock")):
            if not (out / "built").is_file() and not failed.is_file():
                if out.exists():  # a worker that died while building
                    shutil.rmtree(out)
                out.mkdir()
                try:
                    with gate.alone():
                        result = build(ROOT, out)
                except Exception as error:  # recorded, so that the workers after this one take it, not build again
                    failed.write_text(f"the book build could not run: {type(error).__name__}: {error}")
                    raise
                if result.returncode == 0:
                    (out / "built").touch()
                else:
                    failed.write_text(build_failure(result, out))
    finally:
        gate.enter_test()
    assert not failed.is_file(), failed.read_text()
    return out / "_build" / "html"


def xdist_groups(items: list[pytest.Item]) -> dict[pytest.Item, str]:
    """Item -> the pytest-xdist group it must run in, for the items that share something costly with
    others: items joined (transitively) by a module- or class-scoped fixture instance (per parameter),
    the built book (``html``), or an nbval notebook (one kernel for all its cells, run in order)."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key] = parent[parent[key]]
        return key

    keys: dict[pytest.Item, list[str]] = {}
    for item in items:
        own = []
        if not isinstance(item, pytest.Function):  # nbval's cells of one notebook
            own.append(f"notebook {item.path}")
        else:
            params = item.callspec.params if hasattr(item, "callspec") else {}
            for name in item.fixturenames:
                definitions = item._fixtureinfo.name2fixturedefs.get(name)
                if not definitions:
                    continue
                scope = definitions[-1].scope
                if name == "html":
                    own.append("book")
                elif scope in ("module", "class", "package"):
                    node = item.getparent(pytest.Class if scope == "class" else pytest.Module)
                    own.append(f"{node.nodeid if node else item.path}::{name}[{params.get(name, '')}]")
        keys[item] = own
        for key in own[1:]:
            parent[find(key)] = find(own[0])
    named: dict[str, str] = {}
    groups = {}
    for item, own in keys.items():
        if own:
            root = find(own[0])
            groups[item] = named.setdefault(root, "book" if find("book") == root else f"g{len(named)}")
    return groups


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item, group in xdist_groups(items).items():
        item.add_marker(pytest.mark.xdist_group(group))
        if getattr(config.option, "loadgroup", False) and hasattr(item, "_id"):  # unset with -n 0
            # xdist's scheduler reads the group from a suffix of the node id, which xdist 3.8's worker
            # adds by setting ``item._nodeid``; pytest 9.2 keeps the node id in ``item._id`` (a NodeId)
            # instead, so the suffix, and with it every group, would be lost: add it there.
            item._id = type(item._id).parse(f"{item.nodeid}@{group}")


def book_pages() -> list[str]:
    """Every page of the book in sidebar order (``_toc.yml``: the root, then chapters or parts' chapters)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = toc.get("chapters", []) + [c for part in toc.get("parts", []) for c in part["chapters"]]
    return [toc["root"]] + [entry["file"] for entry in entries]


def appendix_pages() -> list[str]:
    """The pages of the ``Appendices`` part: executed like chapters, without an assignment of their own."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [
        entry["file"]
        for part in toc.get("parts", [])
        if part.get("caption") == "Appendices"
        for entry in part["chapters"]
    ]


def notebook_pages() -> list[str]:
    """The pages that are executed notebooks (a kernelspec in their front matter)."""
    return [p for p in book_pages() if "kernelspec:" in (ROOT / f"{p}.md").read_text().split("\n---", 1)[0]]
