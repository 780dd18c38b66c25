"""``course grade``: take in a class's submissions, autograde each in its own sandbox, report.

For every submission:

1. **Intake.** ``SUBMISSIONS`` is a folder or a .zip holding ``<student>.ipynb`` or
   ``<student>/<ID>.ipynb`` entries; anything else is rejected with the reason.
2. **Canonical notebook.** Only the student's *answer cells* are taken (by grade id) and put into a
   fresh copy of the student version: edited, deleted or duplicated test cells, changed metadata or
   duplicated cell ids cannot change what is graded; each is recorded as a note.
3. **Hidden tests, outside the kernel.** The hidden checks run in the grading process, against the
   student's functions in a jailed process that returns only values (:func:`recheck`); neither the
   checks nor the reference code is ever where the notebook could read or patch them. In the scratch
   gradebook, each test cell's hidden tests are replaced by their outcome: a comment if they
   passed, ``raise AssertionError(message)`` if not.
4. **Sandbox.** nbgrader autogrades the canonical notebook (visible tests and that outcome) in a
   scratch course folder of its own, which holds no answer key. A trusted :class:`Worker` process
   per job drives nbgrader for one submission after another; every process that runs student code
   (the kernel, the student server) starts under the submission's limits on memory, file size and
   processes (:data:`LAUNCHER`), and one time limit covers the whole submission. The kernel runs in
   private user, mount and PID namespaces (``unshare``, see :mod:`course_grading.jail`) where the
   scratch course is read-only and the project, the course, the submissions and the grades are
   hidden; every process the student's code starts dies with it.
5. **Report.** Scores per part go to ``grades.csv``, feedback HTML (no hidden tests) per student, a
   summary and a figure, under ``--out``. Results are cached by content: re-running on the same
   input re-grades nothing, and a late submission is the only one graded.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import csv
import hashlib
import importlib
import importlib.util
import json
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from . import assignments
from .calls import RemoteStudent
from .check import read_notebook
from .harness import answer_ids, nbgrader_meta

LAYOUTS = "<student>.ipynb or <student>/<ID>.ipynb"
STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")
MAX_NOTEBOOK_BYTES = 20 * 2**20


@dataclass(frozen=True)
class Limits:
    cell_s: int = 15  # per cell and per call of a hidden check; a1's slowest cell takes about 1 s
    total_s: int = 60  # the whole submission, kernel start included: a hang costs this once
    memory_bytes: int = 6 * 2**30  # address space of each process that runs student code
    file_bytes: int = 256 * 2**20  # the largest file any of them may write
    processes: int = 256  # processes and threads of one submission's kernel and student server together
    output_bytes: int = 2**22  # what the notebook may print in all; the rest is dropped


# Run by the kernel before the notebook: a notebook that prints a gigabyte must not drown the grader.
CAP_OUTPUT = """
import sys


class _Capped:
    def __init__(self, stream, limit):
        self._stream, self._left = stream, limit

    def write(self, text):
        if self._left > 0:
            self._stream.write(text[: self._left] if len(text) <= self._left else text[: self._left] + "\\n[output cut: the notebook printed more than {limit} bytes]\\n")
        self._left -= len(text)
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


sys.stdout, sys.stderr = _Capped(sys.stdout, {limit}), _Capped(sys.stderr, {limit})
"""


@dataclass
class Result:
    student: str
    status: str  # graded | needs attention
    scores: dict[str, float] = field(default_factory=dict)
    max_scores: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    key: str = ""  # content hash: the same key means the same grading input
    seconds: float = 0.0  # how long grading took

    @property
    def total(self) -> float:
        return sum(self.scores.values())


# -------------------------------------------------------------------------------------- intake


def intake(submissions: Path, assignment: str, unpack_to: Path) -> tuple[dict[str, Path], list[str]]:
    """The notebook of each student in ``submissions`` (a folder or .zip), and the rejected entries."""
    if submissions.is_file() and zipfile.is_zipfile(submissions):
        submissions = _unzip(submissions, unpack_to)
    elif not submissions.is_dir():
        raise ValueError(f"{submissions} is neither a folder nor a .zip file")
    found: dict[str, Path] = {}
    rejected: list[str] = []
    for entry in sorted(submissions.iterdir()):
        if entry.name.startswith(".") or entry.name == "__MACOSX":
            continue
        if entry.is_file() and entry.suffix == ".ipynb":
            student, notebook = entry.stem, entry
        elif entry.is_dir() and (entry / f"{assignment}.ipynb").is_file() and not entry.is_symlink():
            student, notebook = entry.name, entry / f"{assignment}.ipynb"
        elif entry.is_dir():
            inside = ", ".join(sorted(p.name for p in entry.iterdir())[:5]) or "nothing"
            rejected.append(f"{entry.name}/: no {assignment}.ipynb inside (found {inside}); expected {LAYOUTS}")
            continue
        else:
            rejected.append(f"{entry.name}: not a notebook; expected {LAYOUTS}")
            continue
        if not STUDENT_ID.match(student):
            rejected.append(f"{entry.name}: {student!r} is not a usable student id (letters, digits, _.@+- only)")
        elif notebook.is_symlink():
            rejected.append(f"{entry.name}: a symbolic link, not a file")
        elif student in found:
            rejected.append(f"{entry.name}: a second submission of {student}")
        else:
            found[student] = notebook
    return found, rejected


def _unzip(archive: Path, dest: Path) -> Path:
    """Extract the notebooks of an LMS export, refusing paths that leave ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            parts = Path(info.filename).parts
            if info.is_dir() or not info.filename.endswith(".ipynb") or info.filename.startswith("/") or ".." in parts:
                continue
            if info.file_size > MAX_NOTEBOOK_BYTES:
                continue  # reported as a missing notebook by intake
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
    roots = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    # An export wrapped in one top folder: grade what is inside it.
    if len(roots) == 1 and roots[0].is_dir() and not (roots[0] / f"{roots[0].name}.ipynb").exists():
        inner = list(roots[0].iterdir())
        if any(p.suffix == ".ipynb" or p.is_dir() for p in inner) and not any(p.name.endswith(".ipynb") and p.parent == dest for p in inner):
            return roots[0]
    return dest


# ---------------------------------------------------------------------------- canonical notebook


def canonical(path: Path, release: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode | None, list[str]]:
    """The student version with the student's answer cells in it, and notes on what else was off."""
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        return None, [f"the notebook is larger than {MAX_NOTEBOOK_BYTES >> 20} MB"]
    try:
        with warnings.catch_warnings():  # duplicated cell ids are noted below, not warned about
            warnings.simplefilter("ignore")
            raw = nbformat.reads(path.read_text(errors="replace"), as_version=4)
    except Exception as error:
        try:
            read_notebook(path)
        except ValueError as reason:
            return None, [str(reason)]
        return None, [f"not a valid Jupyter notebook ({type(error).__name__})"]
    notes = []
    answers: dict[str, str] = {}
    for cell in raw.get("cells", []):
        meta = nbgrader_meta(cell) if isinstance(cell.get("metadata"), dict) else {}
        gid = meta.get("grade_id") if isinstance(meta, dict) else None
        if gid in answers:
            notes.append(f"answer cell {gid} appears twice: the first is graded")
        elif gid is not None and meta.get("solution") and cell.get("cell_type") == "code":
            answers[gid] = str(cell.get("source", ""))
    for gid in answer_ids(release):
        if gid not in answers:
            notes.append(f"answer cell {gid} is missing: graded as not answered")
    originals = {nbgrader_meta(c)["grade_id"]: c.source for c in release.cells if nbgrader_meta(c).get("locked")}
    kept = {nbgrader_meta(c).get("grade_id"): c.get("source") for c in raw.get("cells", []) if isinstance(c.get("metadata"), dict)}
    changed = sorted(gid for gid, source in originals.items() if kept.get(gid) != source)
    if changed:
        notes.append(f"read-only cells edited or deleted ({', '.join(changed)}): the originals were graded")
    nb = nbformat.from_dict(release)
    # Ungraded code cells (optional plots) are the release's own, not the student's: grading skips them.
    nb.cells = [c for c in nb.cells if c.cell_type != "code" or nbgrader_meta(c)]
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in answers and nbgrader_meta(cell).get("solution"):
            cell.source = answers[gid]
    return nb, notes


# ------------------------------------------------------------------------------------ sandbox


def sandbox_available() -> bool:
    """Whether this machine can start kernels in private mount and PID namespaces."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc", "unshare", "--user", "--map-root-user", "--mount", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def jail_argv(hide: list[Path], keep: list[Path], keep_rw: list[Path], command: list[str]) -> list[str]:
    """``command`` in private mount and PID namespaces where ``hide`` is covered, ``keep`` read-only."""
    argv = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc", sys.executable, "-m", "course_grading.jail"]
    for flag, paths in (("--hide", hide), ("--keep", keep), ("--keep-rw", keep_rw)):
        for path in paths:
            argv += [flag, str(path)]
    return [*argv, "--", *command]


def what_to_hide(course: Path, out: Path, submissions: Path) -> tuple[list[Path], list[Path]]:
    """Folders student code must not see (the project, hence its answer keys, tests and fixtures;
    the course; the grades; the class's submissions) and what Python needs to run (read-only),
    which the jail puts back at its path wherever it is: inside a hidden folder, or under ``/tmp``,
    which the jail replaces with an empty one (a venv in a CI checkout under ``/tmp``)."""
    inbox = submissions.resolve() if submissions.is_dir() else submissions.resolve().parent
    hide = [course.resolve().parent, course.resolve(), assignments.SOLUTIONS.resolve(), out.resolve(), inbox]
    needed = [Path(sys.prefix).resolve(), Path(__file__).resolve().parent, *_package_dirs("course_lib")]
    return hide, [p for p in needed if p.exists()]


def _package_dirs(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    return [Path(p).resolve() for p in (spec.submodule_search_locations or [])] if spec else []


def prepare_template(course: Path, assignment: str, where: Path, jail: tuple[list[Path], list[Path]], limits: Limits) -> Path:
    """A scratch course with the assignment generated in its gradebook and no answer key left in it."""
    template = assignments.copy_course(where / "template", course)
    result = assignments.nbgrader_api(template).generate_assignment(assignment, force=True)
    if not result["success"]:
        raise RuntimeError(f"nbgrader could not generate {assignment}:\n{result['log']}")
    shutil.rmtree(template / "source")  # autograding needs the gradebook, not the solutions
    grading = shutil.move(template / "grading", where / "grading")  # out of every kernel's sight
    checks = _checks(Path(grading), assignment)
    from nbgrader.api import Gradebook

    with Gradebook(assignments.nbgrader_api(template).coursedir.db_url) as gradebook:
        for cell in gradebook.find_notebook(assignment, assignment).source_cells:
            if HIDDEN_BLOCK.search(cell.source or ""):
                if cell.name not in checks:
                    raise RuntimeError(f"test cell {cell.name} of {assignment} has hidden tests but no entry in {assignment}_checks.CHECKS")
                _set_source(gradebook, assignment, cell, HIDDEN_BLOCK.sub("", cell.source).rstrip() + "\n" + VERDICT)
        gradebook.db.commit()
    with (template / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.Execute.timeout = {limits.cell_s}\nc.Execute.interrupt_on_timeout = True\n")
    hide, keep = jail
    (template / "jail.json").write_text(json.dumps({"hide": [str(p) for p in hide], "keep": [str(p) for p in keep], "cell_s": limits.cell_s, "grading": str(grading)}))
    return template


HIDDEN_BLOCK = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS\n.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?", re.DOTALL | re.MULTILINE)
VERDICT = "__HIDDEN_TESTS_VERDICT__"  # replaced, per submission, by the outcome of the trusted check


def _set_source(gradebook: Any, assignment: str, cell: Any, source: str) -> None:
    """Change a test cell's source in the gradebook, and its checksum with it (nbgrader compares them)."""
    from nbgrader.utils import compute_checksum

    points = gradebook.find_grade_cell(cell.name, assignment, assignment).max_score
    meta = {"grade": True, "solution": False, "locked": cell.locked, "grade_id": cell.name, "points": points}
    cell.source = source
    cell.checksum = compute_checksum(nbformat.from_dict({"cell_type": cell.cell_type, "source": source, "metadata": {"nbgrader": meta}}))


def verdict_line(failure: str | None) -> str:
    """What a test cell runs in place of its hidden tests: the outcome of :func:`recheck`."""
    if failure is None:
        return "# Hidden tests: passed (they run outside this notebook)."
    return f"raise AssertionError({failure!r})  # hidden tests (they run outside this notebook)"


def _checks(grading: Path, assignment: str) -> dict[str, Callable[..., str | None]]:
    if str(grading) not in sys.path:
        sys.path.insert(0, str(grading))
    return importlib.import_module(f"{assignment}_checks").CHECKS


def _kernel_spec(scratch: Path, home: Path, hide: list[Path], keep: list[Path], launch: list[str]) -> None:
    """The kernel nbgrader starts for this submission: ipykernel inside the jail, under the limits."""
    argv = launch + jail_argv(hide, [*keep, scratch], [home], [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    spec_dir = scratch / "jupyter" / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "Python 3 (sandboxed)", "language": "python"}))


PIDS_CGROUPS = [Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup")]  # cgroup v1, then v2


def pids_cgroup(name: str, limit: int) -> Path | None:
    """A fresh pids cgroup capped at ``limit`` tasks, where the system lets us make one.

    RLIMIT_NPROC does not bind root (CI containers often run as root); a pids cgroup does.
    """
    for root in PIDS_CGROUPS:
        if root == Path("/sys/fs/cgroup") and "pids" not in _read(root / "cgroup.subtree_control"):
            continue
        group = root / f"course-grade-{name}-{os.getpid()}"
        try:
            group.mkdir()
            (group / "pids.max").write_text(str(limit))
            return group
        except OSError:
            with contextlib.suppress(OSError):
                group.rmdir()
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def remove_stale_cgroups() -> None:
    """Remove the pids cgroups of grading runs that were killed before they could clean up."""
    import psutil

    for root in PIDS_CGROUPS:
        for group in root.glob("course-grade-*") if root.is_dir() else []:
            owner = group.name.rsplit("-", 1)[-1]
            if owner.isdigit() and not psutil.pid_exists(int(owner)):
                _release_cgroup(group)


def _release_cgroup(group: Path | None) -> None:
    """Kill what is left in ``group`` and remove it."""
    if group is None:
        return
    for _ in range(50):
        pids = [int(p) for p in _read(group / "cgroup.procs").split()]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        group.rmdir()


# Run (``python -S -c``) in front of every process that runs student code: it joins the
# submission's pids cgroup (or, where there is none, caps processes with RLIMIT_NPROC), sets the
# memory, file-size and core limits, then execs the rest of its argv. The trusted grading worker
# itself stays unlimited, so that it can serve one submission after another.
LAUNCHER = """
import os, resource, sys
group, memory, files, processes = sys.argv[1:5]
if group:
    with open(os.path.join(group, "cgroup.procs"), "w") as procs:
        procs.write("0")
else:
    resource.setrlimit(resource.RLIMIT_NPROC, (int(processes), int(processes)))
resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
resource.setrlimit(resource.RLIMIT_FSIZE, (int(files), int(files)))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
os.execvp(sys.argv[5], sys.argv[5:])
"""


def limited(limits: Limits, group: Path | None, argv: list[str]) -> list[str]:
    """``argv`` run under the submission's limits (see :data:`LAUNCHER`)."""
    return [sys.executable, "-S", "-c", LAUNCHER, str(group or ""), str(limits.memory_bytes), str(limits.file_bytes), str(limits.processes), *argv]


def _kill_everything_of(scratch: Path) -> None:
    """Kill any process whose command line names this scratch folder (the jailed kernel's wrapper)."""
    import psutil

    marker = str(scratch)
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in proc.info["cmdline"] or []):
                proc.kill()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue


class Worker:
    """A trusted grading process (``python -m course_grading.grade --serve``) that autogrades one
    scratch course after another, so that nbgrader and torch are imported once per job slot, not
    once per submission. Student code never runs in it: it runs in the jailed kernel and the jailed
    student server that the worker starts for each submission, under that submission's limits."""

    def __init__(self, log: Path, threads: int) -> None:
        self.log = log
        self.threads = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}  # for it and its children: jobs share the cores
        self.process: subprocess.Popen[str] | None = None

    def run(self, request: dict[str, Any], timeout_s: float) -> str | None:
        """Grade one scratch course; None when done, else what went wrong. Raises TimeoutError."""
        if self.process is None or self.process.poll() is not None:
            with self.log.open("a") as log:
                command = [sys.executable, "-m", "course_grading.grade", "--serve"]
                self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True, env=os.environ | self.threads)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout_s)
        if not ready:
            self.stop()
            raise TimeoutError
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self.process = None
            tail = self.log.read_text(errors="replace").strip().splitlines()[-1:] or ["no message"]
            return f"exit {code}: {tail[0][:300]}"
        return json.loads(line).get("error")

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def serve() -> None:
    """The loop of a :class:`Worker`: one JSON request per line on stdin, one reply per line."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever nbgrader prints goes to the log, not into the replies
    for line in sys.stdin:
        request = json.loads(line)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        tempfile.tempdir = None  # chosen afresh from this submission's TMPDIR
        try:
            worker(Path(request["scratch"]), request["assignment"], request["student"])
            replies.write(json.dumps({"error": None}) + "\n")
        except Exception as error:
            replies.write(json.dumps({"error": f"{type(error).__name__}: {error}"}) + "\n")


def grade_one(template: Path, assignment: str, student: str, nb: nbformat.NotebookNode, limits: Limits, feedback_dir: Path, grader: Worker) -> Result:
    """Autograde one canonical notebook in a scratch copy of ``template``; never raises for its content."""
    result = Result(student, "needs attention")
    started = time.monotonic()
    batch = template.parent  # holds the template, the unpacked submissions and every job: all hidden
    job = batch / "jobs" / student
    group = pids_cgroup(student, limits.processes)
    try:
        scratch, home = job / "course", job / "home"
        shutil.copytree(template, scratch)
        startup = home / ".ipython" / "profile_default" / "startup"
        startup.mkdir(parents=True)
        (startup / "00-cap-output.py").write_text(CAP_OUTPUT.format(limit=limits.output_bytes))
        jail = json.loads((scratch / "jail.json").read_text())
        hide, keep = [Path(p) for p in jail["hide"]] + [batch], [Path(p) for p in jail["keep"]]
        launch = limited(limits, group, [])
        _kernel_spec(scratch, home, hide, keep, launch)
        (scratch / "jail.json").write_text(json.dumps(jail | {"hide": [str(p) for p in hide], "home": str(home), "launch": launch}))
        submitted = scratch / "submitted" / student / assignment
        submitted.mkdir(parents=True)
        nbformat.write(nb, submitted / f"{assignment}.ipynb")
        env = {**os.environ, "JUPYTER_PATH": str(scratch / "jupyter"), "HOME": str(home), "IPYTHONDIR": str(home / ".ipython"), "MPLCONFIGDIR": str(home / "mpl"), "MPLBACKEND": "Agg", "TMPDIR": str(home)} | grader.threads
        try:
            crashed = grader.run({"scratch": str(scratch), "assignment": assignment, "student": student, "env": env, "cwd": str(job)}, limits.total_s)
        except TimeoutError:
            result.notes.append(f"timed out: grading took longer than {limits.total_s} s in all; every part scores 0")
            return result
        finally:
            _kill_everything_of(scratch)
            starved = group is not None and _read(group / "pids.events").split()[-1:] not in (["0"], [])
        if starved:  # what ran after that depended on timing: no grade can be trusted
            result.notes.append(f"the notebook hit the limit of {limits.processes} processes and threads: every part scores 0")
            return result
        if (scratch / "nbgrader.log").exists():
            (feedback_dir.parent / "logs").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(scratch / "nbgrader.log", feedback_dir.parent / "logs" / f"{student}.log")
        outcome_file = scratch / "outcome.json"  # read-only to the kernel: only the worker can write it
        if crashed is not None or not outcome_file.exists():
            result.notes.append(f"grading crashed ({crashed or 'no outcome'})")
            return result
        outcome = json.loads(outcome_file.read_text())
        result.scores, result.max_scores = outcome["scores"], outcome["max_scores"]
        result.notes = outcome["notes"] + result.notes
        result.status = "graded"
        page = scratch / "feedback" / student / assignment / f"{assignment}.html"
        if page.exists():
            feedback_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page, feedback_dir / f"{student}.html")
        autograded = scratch / "autograded" / student / assignment / f"{assignment}.ipynb"
        if autograded.exists():  # read-only to the kernel, like outcome.json
            (feedback_dir.parent / "autograded").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(autograded, feedback_dir.parent / "autograded" / f"{student}.ipynb")
    finally:
        _release_cgroup(group)
        shutil.rmtree(job, ignore_errors=True)
        result.seconds = round(time.monotonic() - started, 1)
    return result


def worker(scratch: Path, assignment: str, student: str) -> None:
    """Autograde one scratch course: nbgrader autograde and feedback, then the scores as JSON."""
    from nbgrader.api import Gradebook

    remote = student_process(scratch, student, assignment)
    remote.start()  # the jailed process imports torch and runs the notebook while nbgrader loads
    api = assignments.nbgrader_api(scratch)
    verdicts = recheck(remote, scratch, assignment)
    with Gradebook(api.coursedir.db_url) as gradebook:
        for cell in gradebook.find_notebook(assignment, assignment).source_cells:
            if cell.name in verdicts:
                _set_source(gradebook, assignment, cell, cell.source.replace(VERDICT, verdict_line(verdicts[cell.name])))
        gradebook.db.commit()
    graded = api.autograde(assignment, student, force=True, create=True)
    (scratch / "nbgrader.log").write_text(graded["log"])
    notes = [] if graded["success"] else ["nbgrader could not autograde the notebook: every part scores 0"]
    scores: dict[str, float] = {}
    max_scores: dict[str, float] = {}
    if graded["success"]:
        api.generate_feedback(assignment, student, force=True)
        with Gradebook(api.coursedir.db_url) as gradebook:
            for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades:
                part = grade.name.removeprefix("test_")
                scores[part], max_scores[part] = float(grade.score), float(grade.max_score)
        if "Timeout" in graded["log"] or "timed out" in graded["log"]:
            notes.append("a cell ran past the per-cell time limit")
    if "DeadKernelError" in graded["log"] or "Kernel died" in graded["log"]:
        notes.append("the kernel died while running the notebook")
    if "IOPub" in graded["log"]:
        notes.append("the notebook's output flooded the grader")
    if graded["success"]:
        autograded = nbformat.read(scratch / "autograded" / student / assignment / f"{assignment}.ipynb", as_version=4)
        errors = {o.get("ename") for c in autograded.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"}
        if "MemoryError" in errors:
            notes.append("a cell ran out of memory")
    (scratch / "outcome.json").write_text(json.dumps({"scores": scores, "max_scores": max_scores, "notes": notes}))


def student_process(scratch: Path, student: str, assignment: str) -> RemoteStudent:
    """The student's code (the notebook's code cells, test cells excluded) in a jailed server process."""
    jail = json.loads((scratch / "jail.json").read_text())
    nb = nbformat.read(scratch / "submitted" / student / assignment / f"{assignment}.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and not (nbgrader_meta(c).get("grade") and not nbgrader_meta(c).get("solution"))]
    argv = jail["launch"] + jail_argv([Path(p) for p in jail["hide"]], [Path(p) for p in jail["keep"]], [Path(jail["home"])], [sys.executable, "-m", "course_grading.student_server"])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return RemoteStudent(argv, cells, timeout_s=jail["cell_s"], env=env)


def recheck(remote: RemoteStudent, scratch: Path, assignment: str) -> dict[str, str | None]:
    """Each test cell's hidden check, run here, with the student's code in a jailed process of its own.

    Were the hidden checks run in the kernel, as plain nbgrader does, the notebook could read them
    and patch what they rely on. Here the checks, their oracles and comparisons run in this
    (trusted) process, and the student's functions in :mod:`course_grading.student_server`, which
    sees neither the course nor the checks and returns only values.
    """
    checks = _checks(Path(json.loads((scratch / "jail.json").read_text())["grading"]), assignment)
    verdicts: dict[str, str | None] = {}
    try:
        for test_id, check in checks.items():
            try:
                verdicts[test_id] = check(remote)
            except Exception as error:
                verdicts[test_id] = f"the check could not use the reply ({type(error).__name__}: {error})"
    finally:
        remote.close()
    return verdicts


# ------------------------------------------------------------------------------------ the batch


def content_key(nb: nbformat.NotebookNode | None, course: Path, assignment: str) -> str:
    """What determines a grade: the canonical notebook, the source and the hidden checks."""
    digest = hashlib.sha256(nbformat.writes(nb).encode() if nb is not None else b"unreadable")
    digest.update((course / "source" / assignment / f"{assignment}.ipynb").read_bytes())
    for check in sorted((course / "grading").glob("*.py")):
        digest.update(check.read_bytes())
    return digest.hexdigest()


def grade(course: Path, assignment: str, submissions: Path, out: Path, jobs: int, limits: Limits = Limits(), progress: Callable[[int, int, str], None] = lambda done, total, line: print(line), record: bool = False) -> tuple[list[Result], list[str]]:
    """Grade every submission (reusing cached results), write the reports; return results and rejections.

    ``progress(done, total, line)`` is called as each submission is graded; with ``record``, the
    newly graded submissions are imported into the course (:func:`record_in_course`).
    """
    out = out.resolve()
    remove_stale_cgroups()
    if not sandbox_available():
        raise RuntimeError("course grade runs each kernel in Linux namespaces, and `unshare --user --mount --pid` is not available here")
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    cache = out / "results"
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="course-grade-") as tmp:
        found, rejected = intake(submissions, assignment, Path(tmp) / "unpacked")
        todo: list[tuple[str, nbformat.NotebookNode | None, list[str], str]] = []
        results: dict[str, Result] = {}
        for student, path in found.items():
            nb, notes = canonical(path, release)
            key = content_key(nb, course, assignment)
            cached = cache / f"{student}.json"
            if cached.exists() and json.loads(cached.read_text()).get("key") == key:
                results[student] = Result(**json.loads(cached.read_text()))
            else:
                todo.append((student, nb, notes, key))
        template = prepare_template(course, assignment, Path(tmp), what_to_hide(course, out, submissions), limits) if any(nb is not None for _, nb, _, _ in todo) else None
        parts = answer_ids(release)

        (Path(tmp) / "workers").mkdir()
        graders: queue.Queue[Worker] = queue.Queue()
        for slot in range(max(1, jobs)):
            graders.put(Worker(Path(tmp) / "workers" / f"{slot}.log", threads=max(1, (os.cpu_count() or 1) // max(1, jobs))))

        def run(item: tuple[str, nbformat.NotebookNode | None, list[str], str]) -> Result:
            student, nb, notes, key = item
            if nb is None or template is None:
                result = Result(student, "needs attention", notes=notes + ["every part scores 0"])
            else:
                grader = graders.get()
                try:
                    result = grade_one(template, assignment, student, nb, limits, out / "feedback", grader)
                finally:
                    graders.put(grader)
                result.notes = notes + result.notes
            result.scores = {p: result.scores.get(p, 0.0) for p in parts}
            result.key = key
            (cache / f"{student}.json").write_text(json.dumps(asdict(result)))
            return result

        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                for done, result in enumerate(pool.map(run, todo), 1):
                    results[result.student] = result
                    progress(done, len(todo), f"[{done}/{len(todo)}] {result.student}: {result.total:g}" + (f"  ({result.notes[-1]})" if result.notes else ""))
        finally:
            while not graders.empty():
                graders.get().stop()
    ordered = [results[s] for s in sorted(results)]
    write_reports(ordered, parts, rejected, out)
    if record:
        record_in_course(course, assignment, [(results[student], nb) for student, nb, _, _ in todo], out)
    return ordered, rejected


def record_in_course(course: Path, assignment: str, graded: list[tuple[Result, nbformat.NotebookNode | None]], out: Path) -> None:
    """Import newly graded submissions into the nbgrader course, so that nbgrader's own tools
    (formgrader, ``nbgrader export``) see them: each student's scores as the auto scores of the
    gradebook's grade cells, the canonical notebook under ``submitted/``, the autograded notebook
    under ``autograded/`` and the feedback page under ``feedback/``."""
    from nbgrader.api import Gradebook, MissingEntry

    db_url = assignments.nbgrader_api(course).coursedir.db_url
    with Gradebook(db_url) as gradebook:
        try:
            gradebook.find_assignment(assignment)
        except MissingEntry:  # nbgrader records an assignment by generating it: do so in a scratch copy
            with tempfile.TemporaryDirectory() as tmp:
                scratch = assignments.copy_course(Path(tmp) / "course", course)
                generated = assignments.nbgrader_api(scratch, db_url=db_url).generate_assignment(assignment, force=True)
                if not generated["success"]:
                    raise RuntimeError(f"nbgrader could not add {assignment} to {db_url}:\n{generated['log']}")
        for result, nb in graded:
            gradebook.update_or_create_student(result.student)
            with contextlib.suppress(MissingEntry):
                gradebook.remove_submission(assignment, result.student)
            gradebook.add_submission(assignment, result.student)
            for grade in gradebook.find_submission_notebook(assignment, assignment, result.student).grades:
                grade.auto_score = result.scores.get(grade.name.removeprefix("test_"), 0.0)
                grade.needs_manual_grade = False
            gradebook.db.commit()
            files = {
                course / "submitted" / result.student / assignment / f"{assignment}.ipynb": nbformat.writes(nb).encode() if nb is not None else None,
                course / "autograded" / result.student / assignment / f"{assignment}.ipynb": _bytes(out / "autograded" / f"{result.student}.ipynb"),
                course / "feedback" / result.student / assignment / f"{assignment}.html": _bytes(out / "feedback" / f"{result.student}.html"),
            }
            for path, content in files.items():
                if path.exists():
                    path.chmod(0o644)  # nbgrader leaves autograded files read-only
                    path.unlink()
                if content is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(content)


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def write_reports(results: list[Result], parts: list[str], rejected: list[str], out: Path) -> None:
    """grades.csv, summary.txt and summary.png under ``out``."""
    with (out / "grades.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", *parts, "total", "status", "notes"])
        for r in results:
            writer.writerow([r.student, *(f"{r.scores.get(p, 0):g}" for p in parts), f"{r.total:g}", r.status, "; ".join(r.notes)])
    (out / "summary.txt").write_text(summary(results, parts, rejected))
    _figure(results, parts, out / "summary.png")


def summary(results: list[Result], parts: list[str], rejected: list[str]) -> str:
    lines = [f"{len(results)} submissions graded"]
    for r in results:
        lines.append(f"  {r.student:<24} {r.total:>6g}")
    lines.append("pass rate per part:")
    for p in parts:
        passed = sum(1 for r in results if r.max_scores.get(p) and r.scores.get(p) == r.max_scores.get(p))
        lines.append(f"  {p:<24} {passed}/{len(results)}")
    attention = [r for r in results if r.status != "graded" or r.notes]
    if attention:
        lines.append("needing attention:")
        lines += [f"  {r.student}: {'; '.join(r.notes)}" for r in attention]
    if rejected:
        lines.append("rejected entries:")
        lines += [f"  {reason}" for reason in rejected]
    return "\n".join(lines) + "\n"


def _figure(results: list[Result], parts: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
    left.hist([r.total for r in results], bins=min(20, max(1, len(results))))
    left.set(title="total scores", xlabel="points", ylabel="students")
    rates = [sum(1 for r in results if r.max_scores.get(p) and r.scores.get(p) == r.max_scores[p]) / max(1, len(results)) for p in parts]
    right.bar(parts, rates)
    right.set(title="share of students with full marks, per part", ylim=(0, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    serve()
