"""Grading on Gradescope: ``course gradescope ID`` builds the autograder zip, and its ``run_autograder``
grades one submission with ``course grade``'s own path (:func:`course_grading.grade.grade`).

The zip (Gradescope's autograder format: ``setup.sh`` and ``run_autograder`` at its root, unpacked
into ``/autograder/source``) holds:

- ``setup.sh``, ``run_autograder`` (``templates/gradescope/``);
- ``requirements.txt``: ``torch==<pin>`` and every package ``course-lib[instructor]`` needs, at the
  versions of the environment that built the zip (:func:`pinned_requirements`); ``python-version``,
  the Python they were resolved on; ``requirements-data.txt`` and ``requirements-sdist.txt``, the
  course's data; setup.sh installs them from the package index and PyTorch's CPU index only;
- ``project/``: the course's packages (``course_lib``, ``course_grading``, ``pyproject.toml``) and a
  course folder holding only this assignment: its source notebook (nbgrader generates the gradebook
  from it), its hidden checks and the files they read (``grading/<ID>_*.py``, ``gradinglib.py``,
  ``contracts.py``),
  and the student versions of every assignment (to recognise another assignment's notebook). No
  answer keys (``solutions/``), no other assignment's checks, no gradebook, no grades;
- ``gradescope.json``: the assignment and the visibility of its results.

``run_autograder`` runs ``python -m course_grading.gradescope ROOT`` (:func:`main`): the files of
``ROOT/submission`` are one student's folder of a ``course grade`` batch, graded in the same sandbox
(in Gradescope's own container, where no namespace can be made, the container jail:
:mod:`course_grading.sandbox.container`; results.json's ``extra_data`` names the jail)
with the same checks, each part with correct versions of the others, nothing recorded (the folder
is laid out as one submission of a Gradescope export, so that its files are this student's however
they are nested, as ``course grade`` reads that export); then
``ROOT/results/results.json`` gets one test per part (its points, maximum and the feedback of its
test cell: the visible tests' output and the error the part ended with, never a hidden test's
code), the execution time, and the notes: intake's (which file was graded, and why) in the top-level
``output`` and the Submission test, always shown; grading's own (a held part's says whether it passed
its hidden tests) in a test "Notes from the grader" that follows the visibility, as the parts do. A submission
with no notebook, an unreadable one or another assignment's scores 0 with the reason first in
``output``; a test named "Submission" (0 points, always visible) says which file was graded.

A fault of the grader's own (the worker or the jail failed: ``course grade``'s "not graded") is
never a score: results.json then has no ``score`` and no tests, its ``output`` says the submission
was not graded, and run_autograder exits with status 1, so that Gradescope reports a failed
autograder run (which the instructor reruns), not a grade.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import time
import tomllib
import traceback
import zipfile
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import nbformat

from course_grading.lms.gradescope_reader import METADATA
from course_grading.lms.late import SubmissionTimes
from course_grading.lms.results import ATTENTION, NOT_GRADED, Result
from course_grading.markers import answer_ids, is_test, nbgrader_meta, part_of, part_points
from course_grading.notebook import assignments
from course_grading.sandbox import container, limits, policy, seeds
from course_grading.text import shown as visible  # results_json has a parameter named shown

__all__ = [
    "FEEDBACK_CHARS",
    "JAIL_VARIABLE",
    "ROOT_VARIABLE",
    "SETTINGS",
    "STUDENT",
    "TORCH_INDEX",
    "VISIBILITIES",
    "autograde",
    "build",
    "grading_files",
    "main",
    "part_feedback",
    "pinned_requirements",
    "project_requirements",
    "results_json",
    "submission_time",
    "torch_pin",
]

ROOT_VARIABLE = "COURSE_AUTOGRADER_ROOT"  # moves /autograder (tests run the autograder off Gradescope)
JAIL_VARIABLE = "COURSE_JAIL"  # the jail, where Gradescope's layout does not choose it (tests: a simulated container)
DEFAULT_ROOT = Path("/autograder")
SETTINGS = "gradescope.json"
STUDENT = "student"  # the id the submission is graded under
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")  # Gradescope's visibility values
TEMPLATES = Path(__file__).resolve().parent / "templates" / "gradescope"
PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE")
PACKAGES = ("course_lib", "course_grading")
REQUIREMENT_FILES = ("requirements-data.txt", "requirements-sdist.txt")
# of what a part's test cell printed, in its output: the head and the tail (up to 4 MiB could be printed)
FEEDBACK_CHARS = 20_000
NOT_GRADED_OUTPUT = (
    "Not graded: the autograder itself failed on this submission ({cause}). This is no score: your instructor "
    "will run it again."
)


# ----------------------------------------------------------------------------------- the zip


def project_requirements(pyproject: Path) -> tuple[str, list[str]]:
    """The project's name and requirements with each extra's marked ``extra == "<name>"``, as package
    metadata lists them, read from ``pyproject.toml`` (an editable install's metadata may be older)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    extras = [
        f'{text}; extra == "{extra}"'
        for extra, texts in project.get("optional-dependencies", {}).items()
        for text in texts
    ]
    return project["name"], [*project.get("dependencies", []), *extras]


def pinned_requirements(
    pyproject: Path = assignments.REPO / "pyproject.toml",
    extras: tuple[str, ...] = ("instructor",),
    skip: tuple[str, ...] = ("torch",),
) -> list[str]:
    """``name==version`` for every package the project of ``pyproject`` with ``extras`` needs,
    recursively, at the versions installed here (the environment the course is tested in), the
    project itself and ``skip`` left out. Raises RuntimeError naming a needed package that is not installed."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project, requirements = project_requirements(pyproject)
    own = canonicalize_name(project)
    pins: dict[str, str] = {}
    todo = [("", frozenset(extras))]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, wanted = todo.pop()
        if (canonicalize_name(name), wanted) in done:
            continue
        done.add((canonicalize_name(name), wanted))
        for text in (metadata.requires(name) or []) if name else requirements:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(marker.evaluate({"extra": extra}) for extra in (wanted or {""})):
                continue
            key = canonicalize_name(requirement.name)
            if key == own:  # the project's extras naming each other: course-lib[grading]
                todo.append(("", frozenset(requirement.extras)))
                continue
            try:
                version = metadata.version(requirement.name)
            except metadata.PackageNotFoundError:
                raise RuntimeError(
                    f"{requirement.name} (needed by {name or project}) is not installed here: build the zip "
                    "from the instructor's environment (make instructor)"
                ) from None
            if key not in skip:
                pins[key] = version
            todo.append((requirement.name, frozenset(requirement.extras)))
    return [f"{name}=={version}" for name, version in sorted(pins.items())]


def torch_pin(repo: Path) -> str:
    """The project's ``torch==`` line of requirements.txt (the pin the Makefile installs)."""
    for line in (repo / "requirements.txt").read_text().splitlines():
        if line.startswith("torch=="):
            return line.split("#")[0].strip()
    raise RuntimeError(f"{repo / 'requirements.txt'} pins no torch version")


SHARED_CHECKS = ("gradinglib.py", "contracts.py")  # the modules every assignment's checks import


def grading_files(course: Path, assignment: str) -> list[Path]:
    """The files of ``course/grading`` that grading ``assignment`` reads: its checks, reference parts
    and drivers (``<ID>_*.py``), the helpers every checks module imports, and the course secret
    (:mod:`course_grading.sandbox.seeds`: Gradescope draws the same hidden inputs as ``course grade``)."""
    grading = course / "grading"
    shared = (grading / name for name in SHARED_CHECKS)
    return sorted({*grading.glob(f"{assignment}_*.py"), *shared, seeds.ensure_secret(grading)})


def build(
    course: Path, assignment: str, out: Path, visibility: str = "after_due_date", repo: Path = assignments.REPO
) -> Path:
    """Write the autograder zip of ``assignment`` (see the module's docstring) to ``out``; return it.
    Raises ValueError for an assignment that cannot be graded (no release, missing checks)."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility {visibility!r} is not one of Gradescope's: {', '.join(VISIBILITIES)}")
    problems = assignments.contract(assignment, course)
    if problems:
        raise ValueError(f"{assignment} lacks what grading needs: {'; '.join(problems)}")
    release = course / "release" / assignment / f"{assignment}.ipynb"
    if not release.is_file():
        raise ValueError(f"{release} is missing: run `course release {assignment}` first")
    settings = {
        "assignment": assignment,
        "visibility": visibility,
        "points": sum(part_points(nbformat.read(release, as_version=4)).values()),
    }
    files: dict[str, Path | str] = {
        "setup.sh": TEMPLATES / "setup.sh",
        "run_autograder": TEMPLATES / "run_autograder",
        SETTINGS: json.dumps(settings, indent=1) + "\n",
        "requirements.txt": "\n".join([torch_pin(repo), *pinned_requirements(repo / "pyproject.toml")]) + "\n",
        "python-version": f"{sys.version_info.major}.{sys.version_info.minor}\n",
        **{name: repo / name for name in REQUIREMENT_FILES},
        **{f"project/{name}": repo / name for name in PROJECT_FILES},
        "project/assignments/nbgrader_config.py": course / "nbgrader_config.py",
        f"project/assignments/source/{assignment}/{assignment}.ipynb": course
        / "source"
        / assignment
        / f"{assignment}.ipynb",
        **{f"project/assignments/grading/{p.name}": p for p in grading_files(course, assignment)},
        **{
            f"project/assignments/release/{p.parent.name}/{p.name}": p
            for p in sorted((course / "release").glob("*/*.ipynb"))
            if p.stem == p.parent.name
        },
    }
    for package in PACKAGES:
        for path in sorted((repo / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files[f"project/{path.relative_to(repo).as_posix()}"] = path
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            executable = name in ("setup.sh", "run_autograder")
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            archive.writestr(info, content if isinstance(content, str) else content.read_bytes())
    partial.replace(out)
    return out


# ------------------------------------------------------------------------------ run_autograder


def part_feedback(autograded: nbformat.NotebookNode | None) -> dict[str, str]:
    """Each part's feedback from the autograded notebook: what its test cell printed (the visible
    tests, and the hidden checks' messages for students) and the error it ended with, as one line
    (``Error: message``: a traceback could quote a hidden test), after at most :data:`FEEDBACK_CHARS`
    of the printed text, so that what the student's code prints can neither bury the error nor bloat results.json."""
    found: dict[str, str] = {}
    for cell in autograded.cells if autograded is not None else []:
        if cell.cell_type != "code" or not is_test(cell):
            continue
        printed = "\n".join(
            str(o.get("text", "")).rstrip("\n") for o in cell.get("outputs", []) if o.get("output_type") == "stream"
        )
        if len(printed) > FEEDBACK_CHARS:
            half = FEEDBACK_CHARS // 2
            printed = (
                f"{printed[:half]}\n[... {len(printed) - 2 * half} characters printed by the notebook cut "
                f"...]\n{printed[-half:]}"
            )
        errors = [
            f"{o.get('ename', 'Error')}: {o.get('evalue', '')}"
            for o in cell.get("outputs", [])
            if o.get("output_type") == "error"
        ]
        found[part_of(str(nbgrader_meta(cell).get("grade_id", "")))] = "\n".join(
            line for line in [printed, *errors] if line
        )
    return found


def results_json(
    result: Result,
    release: nbformat.NotebookNode,
    autograded: nbformat.NotebookNode | None,
    visibility: str,
    graded_file: str | None,
    shown: list[str] | None = None,
) -> dict[str, Any]:
    """Gradescope's results.json for a graded (or unreadable) submission: one test per part, in the
    notebook's order, and a first, always visible, test "Submission" that says what was graded.

    Only the notes in ``shown`` (None: all of them) go where students read them at once (the
    Submission test, the top-level output): the others (a held part's says whether it passed its
    hidden tests) go to a test "Notes from the grader" that follows ``visibility`` as the parts do.
    Every output is :func:`course_grading.text.shown` (newlines and tabs kept)."""
    from course_grading.check import find_parts

    maxima = part_points(release)
    names = {
        part_of(str(nbgrader_meta(release.cells[p.test]).get("grade_id", ""))): p.name for p in find_parts(release)
    }
    feedback = part_feedback(autograded)
    at_once = [note for note in result.notes if shown is None or note in shown]
    later = "\n".join(f"- {note}" for note in result.notes if note not in at_once)
    notes = "\n".join(f"- {note}" for note in at_once)
    held = set(result.review)
    tests: list[dict[str, Any]] = [
        {
            "name": "Submission",
            "score": 0.0,
            "max_score": 0.0,
            "visibility": "visible",
            "output": (
                f"Graded: {visible(graded_file)}"  # a file name on one line: its newline forges no line below
                if graded_file and autograded is not None
                else "No notebook was graded: every part scores 0."
            )
            + (f"\n\nNotes from the grader:\n{notes}" if notes else ""),
        }
    ]
    for part in answer_ids(release):
        text = feedback.get(part, "")
        if part in held:
            text = "Held at 0 for your instructor to look at (see the notes).\n" + text
        if autograded is None:
            text = "Not graded: no notebook of this assignment was read (see Submission)."
        tests.append(
            {
                "name": names.get(part, part),
                "score": float(result.scores.get(part, 0.0)),
                "max_score": float(maxima[part]),
                "output": text,
                "extra_data": {"part": part},
            }
        )
    if later:
        tests.insert(1, {"name": "Notes from the grader", "score": 0.0, "max_score": 0.0, "output": later})
    # what the notebook printed, its exceptions' messages, file names: no control or bidi character reaches the page
    for test in tests:
        test["output"] = visible(test["output"], lines=True)
    return {
        "score": float(sum(result.scores.values())),
        "output": visible(notes, lines=True),
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def submission_time(root: Path) -> SubmissionTimes:
    """The submission's time as Gradescope gives it (``created_at`` of ``root/submission_metadata.json``),
    else now: Gradescope applies its own late policy, and grading needs only to know the file's time is not the
    submission's."""
    when = datetime.now(UTC)
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        when = datetime.fromisoformat(json.loads((root / "submission_metadata.json").read_text())["created_at"])
    return SubmissionTimes(root / "submission_metadata.json", {STUDENT: when})


def autograde(root: Path, requested: str = "auto") -> tuple[dict[str, Any], int]:
    """Grade ``root/submission`` as the zip's assignment (unpacked in ``root/source``); return
    results.json's content and the exit status (0, or 1 when the grader itself failed). ``requested``:
    the jail (:func:`course_grading.sandbox.container.choose`); in the container jail, ``root`` is made
    root's alone first, but the paths to what Python imports (:func:`course_grading.sandbox.container.lock_down`)."""
    from course_grading.grade import Batch, Options, grade
    from course_grading.scratch import private_folder

    jail = container.choose(requested, requested != container.CONTAINER and limits.sandbox_available())
    print(f"student code runs in the {jail} jail", flush=True)
    if jail == container.CONTAINER:
        container.lock_down(root, [p for p in policy.python_folders() if root.resolve() in p.parents])
    settings = json.loads((root / "source" / SETTINGS).read_text())
    assignment, visibility = settings["assignment"], settings["visibility"]
    course = root / "source" / "project" / "assignments"
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    submission = root / "submission"
    # Gradescope always makes it: its absence is a fault of the platform, not a submission worth 0
    if not submission.is_dir():
        raise RuntimeError(f"{submission} is missing")
    with private_folder() as tmp:
        # The submission as one submission of a Gradescope export, read as `course grade` reads one: all
        # its files are this student's however they are laid out in folders (a zip, a repository), and
        # a submission_metadata.yml of the student's own is a file of theirs (the export's is one level up).
        inbox = Path(tmp) / "inbox"
        export = inbox / "export"
        export.mkdir(parents=True)
        (export / METADATA).write_text(f"submission_1:\n  :submitters:\n  - :name: {STUDENT}\n    :sid: '{STUDENT}'\n")
        shutil.copytree(submission, export / "submission_1", symlinks=True)
        out = Path(tmp) / "out"
        results, taken = grade(
            Batch(course, assignment, inbox, out),
            Options(jobs=1, record=False, times=submission_time(root), jail=jail),
            progress=lambda done, total, line: print(visible(line), flush=True),
            notify=lambda text: print(visible(f"note: {text}"), flush=True),
        )
        if not results:
            handed = ", ".join(
                sorted(p.relative_to(submission).as_posix() for p in submission.rglob("*") if p.is_file())
            )
            result = Result(
                STUDENT,
                ATTENTION,
                notes=[f"no notebook handed in ({'files: ' + handed if handed else 'no files'}): every part scores 0"],
            )
            return results_json(result, release, None, visibility, None) | {"extra_data": {"jail": jail}}, 0
        result = results[0]
        if result.status == NOT_GRADED:
            cause = visible("; ".join(result.notes), lines=True)
            print(cause, file=sys.stderr)
            log = out / "logs" / f"{STUDENT}.log"
            if log.exists():
                print(visible(log.read_text(errors="replace"), lines=True), file=sys.stderr)
            return {
                "output": NOT_GRADED_OUTPUT.format(cause=cause),
                "visibility": "visible",
                "stdout_visibility": "hidden",
                "tests": [],
                "extra_data": {"jail": jail},
            }, 1
        autograded_path = out / "autograded" / f"{STUDENT}.ipynb"
        autograded = nbformat.read(autograded_path, as_version=4) if autograded_path.exists() else None
        chosen = taken.submissions.get(STUDENT)
        graded_file = Path(chosen.entry).name if chosen is not None and chosen.path is not None else None
        # a graded notebook: intake's notes only
        shown = None if autograded is None else (chosen.notes if chosen is not None else [])
        return results_json(result, release, autograded, visibility, graded_file, shown) | {
            "extra_data": {"jail": jail}
        }, 0


def main(argv: list[str] | None = None) -> int:
    """``python -m course_grading.gradescope [ROOT]``: what run_autograder runs. Writes
    ``ROOT/results/results.json`` whatever happens (a grader fault: no score, status 1)."""
    parser = argparse.ArgumentParser(
        prog="python -m course_grading.gradescope",
        description="Grade ROOT/submission as Gradescope's run_autograder; write ROOT/results/results.json.",
    )
    parser.add_argument("root", nargs="?", type=Path, default=Path(os.environ.get(ROOT_VARIABLE) or DEFAULT_ROOT))
    parser.add_argument(
        "--jail",
        choices=["auto", *container.JAILS],
        default=os.environ.get(JAIL_VARIABLE) or "auto",
        help=f"where student code runs (default: ${JAIL_VARIABLE}, else auto: namespaces where they can be made, "
        "else in Gradescope's container the container jail)",
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    started = time.monotonic()
    try:
        payload, status = autograde(root, args.jail)
    except Exception as error:  # noqa: BLE001
        # the grader's failure: no score, said in output, the traceback in stdout for the instructor
        traceback.print_exc()
        payload, status = (
            {
                "output": NOT_GRADED_OUTPUT.format(cause=visible(f"{type(error).__name__}: {error}", lines=True)),
                "visibility": "visible",
                "stdout_visibility": "hidden",
                "tests": [],
            },
            1,
        )
    payload["execution_time"] = round(time.monotonic() - started)
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(payload, indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
