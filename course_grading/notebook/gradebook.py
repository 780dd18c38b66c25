"""nbgrader's records of graded submissions in the real course (or their removal).

Submissions are graded in a scratch course (:mod:`course_grading.sandbox.scratch_course`); what
this module writes is the real course's gradebook, once a batch has its scores.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

from course_grading.lms.intake import Person, Roster
from course_grading.lms.late import LatePolicy, record_in_gradebook
from course_grading.notebook import assignments
from course_grading.scratch import private_folder
from course_grading.text import csv_cell

__all__ = ["Graded", "LOCK_PAUSE_S", "LOCK_TRIES", "name_parts", "out_of_sync", "quiet_nbgrader", "record", "remove"]


def _course_files(course: Path, assignment: str, student: str) -> dict[str, Path]:
    return {
        "submitted": course / "submitted" / student / assignment / f"{assignment}.ipynb",
        "autograded": course / "autograded" / student / assignment / f"{assignment}.ipynb",
        "feedback": course / "feedback" / student / assignment / f"{assignment}.html",
    }


Graded = tuple[str, dict[str, float], bytes | None, Path]  # student, scores by part, canonical notebook, grades folder
# what a run reports of a student: scores by part, late penalty, canonical notebook
Reported = tuple[dict[str, float], float, bytes | None]
LOCK_TRIES = 3  # a gradebook another program holds locked is tried this often (sqlite waits 5 s a statement)
LOCK_PAUSE_S = 2.0  # between two tries


def record(
    course: Path,
    assignment: str,
    graded: list[Graded],
    late: LatePolicy | None = None,
    times: dict[str, datetime | None] | None = None,
    recorded: Callable[[str], None] = lambda student: None,
    roster: Roster | None = None,
) -> list[str]:
    """Import graded submissions into the nbgrader course, so that nbgrader's own tools (formgrader,
    ``nbgrader export``) see them: for each ``(student, scores by part, canonical notebook,
    folder with autograded/<student>.ipynb and feedback/<student>.html)``, the scores as the auto
    scores of the gradebook's grade cells, and the notebooks under ``submitted/``, ``autograded/``
    and ``feedback/``. A student graded before is replaced. With a ``late`` policy, nbgrader's
    due date, extension, timestamp and late penalty are set to agree with it (``times`` by student).
    With a ``roster``, each student's name and email go into the gradebook too (``nbgrader export``
    lists them; :func:`name_parts`).

    ``recorded(student)`` is called as each student's record is complete. A gradebook that stays
    locked by another program (sqlite's "database is locked") through :data:`LOCK_TRIES` tries
    leaves students unrecorded: they are returned (an empty list when all were recorded)."""
    done: set[str] = set()

    def finished(student: str) -> None:
        done.add(student)
        recorded(student)

    for attempt in range(LOCK_TRIES):
        if attempt:
            time.sleep(LOCK_PAUSE_S)
        try:
            _record(
                course,
                assignment,
                [g for g in graded if g[0] not in done],
                late,
                times or {},
                finished,
                {p.id: p for p in roster.people} if roster else {},
            )
            return []
        except Exception as error:
            if "database is locked" not in str(error):
                raise
    return [student for student, *_ in graded if student not in done]


def _record(
    course: Path,
    assignment: str,
    graded: list[Graded],
    late: LatePolicy | None,
    times: dict[str, datetime | None],
    finished: Callable[[str], None],
    people: dict[str, Person],
) -> None:
    """:func:`record`, once: raises what the gradebook raises."""
    from nbgrader.api import Gradebook, MissingEntry

    db_url = assignments.nbgrader_api(course).coursedir.db_url
    with Gradebook(db_url) as gradebook:
        try:
            gradebook.find_assignment(assignment)
        except MissingEntry:  # nbgrader records an assignment by generating it: do so in a scratch copy
            # it holds the hidden checks: private, and removed by the next run if this one is killed
            with private_folder() as tmp:
                scratch = assignments.copy_course(tmp / "course", course)
                generated = assignments.nbgrader_api(scratch, db_url=db_url).generate_assignment(assignment, force=True)
                if not generated["success"]:
                    raise RuntimeError(
                        f"nbgrader could not add {assignment} to {db_url}:\n{generated['log']}"
                    ) from None
        for student, scores, notebook, out in graded:
            person = people.get(student)
            gradebook.update_or_create_student(student, **(name_parts(person) if person else {}))
            with contextlib.suppress(MissingEntry):
                gradebook.remove_submission(assignment, student)
            with quiet_nbgrader():
                gradebook.add_submission(assignment, student)
            for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades:
                grade.auto_score = scores.get(grade.name.removeprefix("test_"), 0.0)
                grade.needs_manual_grade = False
            gradebook.db.commit()
            contents = {
                "submitted": notebook,
                "autograded": _bytes(out / "autograded" / f"{student}.ipynb"),
                "feedback": _bytes(out / "feedback" / f"{student}.html"),
            }
            for kind, path in _course_files(course, assignment, student).items():
                _remove(path)
                if contents[kind] is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(contents[kind])  # type: ignore[arg-type]
            if late is not None:
                record_in_gradebook(gradebook, assignment, student, late, times.get(student))
            finished(student)


@contextlib.contextmanager
def quiet_nbgrader() -> Iterator[None]:
    """Silence the SQLAlchemy warnings nbgrader's ``add_submission`` gives ("Object of type
    <SubmittedAssignment> not in session, add operation ... will not proceed"): it reads the new
    submission's relations before adding it to the session, and adds it right after; nothing is lost."""
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Object of type <Submitted\w+> not in session", category=SAWarning)
        yield


def name_parts(person: Person) -> dict[str, str]:
    """A roster row as nbgrader's student fields: ``Last, First`` is split at its comma, another name
    at its last space (a one-word name is a last name); commas are dropped, as ``nbgrader export``
    writes its CSV without quoting, and each field is a :func:`course_grading.text.csv_cell` (control
    and bidi characters escaped, a formula's start marked), as every CSV field this course writes."""
    last, comma, first = person.name.partition(",")
    if not comma:
        first, _, last = person.name.rpartition(" ")
    return {"first_name": _field(first), "last_name": _field(last), "email": _field(person.email)}


def _field(text: str) -> str:
    """One of nbgrader's student fields: no comma (``nbgrader export`` does not quote), a CSV cell."""
    return csv_cell(text.replace(",", " ").strip())


def out_of_sync(course: Path, assignment: str, reported: dict[str, Reported]) -> set[str]:
    """The students whose record in the course's gradebook differs from what this run reports
    (scores, late penalty or graded notebook), or who have none: another batch graded into the same
    course, or an override, changed it since. Every student when there is no gradebook yet."""
    if not (course / "gradebook.db").exists():
        return set(reported)
    from nbgrader.api import Gradebook, MissingEntry

    stale = set()
    with Gradebook(assignments.nbgrader_api(course).coursedir.db_url) as gradebook:
        for student, (scores, penalty, notebook) in reported.items():
            try:
                submission = gradebook.find_submission(assignment, student)
            except MissingEntry:
                stale.add(student)
                continue
            held = {
                grade.name.removeprefix("test_"): grade.auto_score or 0.0
                for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades
            }
            same = (
                held == {part: scores.get(part, 0.0) for part in held}
                and abs((submission.late_submission_penalty or 0.0) - penalty) < 1e-9
            )
            if not same or _bytes(_course_files(course, assignment, student)["submitted"]) != notebook:
                stale.add(student)
    return stale


def remove(course: Path, assignment: str, student: str) -> bool:
    """Remove a student's submission of ``assignment`` from the course: its gradebook record and
    its submitted, autograded and feedback files, and the student too when nothing else of theirs
    is recorded (``nbgrader export`` lists every student). Returns whether there was anything to remove."""
    from nbgrader.api import Gradebook, MissingEntry

    found = False
    if (course / "gradebook.db").exists():
        with Gradebook(assignments.nbgrader_api(course).coursedir.db_url) as gradebook:
            try:
                gradebook.remove_submission(assignment, student)
                found = True
                if not gradebook.find_student(student).submissions:
                    gradebook.remove_student(student)
            except MissingEntry:
                pass
    for path in _course_files(course, assignment, student).values():
        found |= _remove(path)
        for folder in (path.parent, path.parent.parent):  # <kind>/<student>/<assignment>/, then <kind>/<student>/
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty
    return found


def _remove(path: Path) -> bool:
    if not path.exists():
        return False
    path.chmod(0o644)  # nbgrader leaves autograded files read-only
    path.unlink()
    return True


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None
