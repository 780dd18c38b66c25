"""Take in a class's submissions as a learning management system (LMS) exports them.

:func:`intake` reads a folder or a .zip and finds each student's notebook for one assignment.
Every entry either belongs to a student, who gets a :class:`Submission` (a row in the grades, even
when nothing in it can be graded), or is listed in :attr:`Intake.rejected` with the reason; nothing
is dropped silently (only ``__MACOSX`` and dot-files are ignored). With a roster, its students
with no entry at all are listed in :attr:`Intake.missing`.

Layouts
-------
* **plain**: ``<student>.ipynb`` or ``<student>/<ID>.ipynb`` (any notebooks in the folder count),
  where ``<student>`` is the student id itself.
* **Canvas** "Download Submissions": flat files
  ``<name>_[LATE_]<user id>_<attachment id>_<file name>``, or ``[LATE_]anon_<id>_<attachment id>_<file
  name>`` under anonymous grading; ``LATE`` in either case.
* **Moodle** "Download all submissions": a folder per student and submission plugin,
  ``<full name>_<participant id>_assignsubmission_<plugin>/`` (Moodle 4.1 and later) or the same with
  a trailing ``_`` (Moodle 3.1 to 4.0), holding the uploaded files (sub-folders kept); or, with
  "download as folders" turned off, flat files ``<full name>_<participant id>_assignsubmission_<plugin>_<file
  name>``. Only the ``file`` plugin's uploads are graded; another plugin's files (``onlinetext``:
  ``onlinetext.html`` and its images) are ignored with a note.
* **Gradescope** "Export Submissions": ``submission_<id>/`` folders and a ``submission_metadata.yml``
  that names each one's submitters and submission time; read by
  :mod:`course_grading.lms.gradescope_reader` into plain ``<student>/`` folders with those times.
* Any of these wrapped in one top folder. A single top folder that holds ``<ID>.ipynb`` or just one
  plain file is read as one student's folder, not as a wrapper.

What the LMS exports hold (read in the LMSs' own source code)
-------------------------------------------------------------
Canvas (``lib/content_zipper.rb`` in canvas-lms): the name part is the student's *sortable name*
("Last, First") lower-cased with every non-word character removed (letters of any script stay:
``müllerzoë``); ``LATE`` is joined in when Canvas considers the submission late, and versions that
lower-case the whole prefix write ``late``; the first number is the Canvas user id (what the roster's
``lms_id`` holds) and the second is the id of the uploaded *file* (not of the submission): it grows
with every upload, so it orders a student's files. Only the files of each student's latest
submission are in the zip. Canvas renames an upload whose name is taken by appending ``-1``,
``-2``... before the extension (``Attachment.make_unique_filename``), which is how a notebook handed
in again under the same name shows up. The zip is written with rubyzip's default entry time, the
moment the zip is made: **a Canvas export holds no submission time**. Canvas writes names without
the zip UTF-8 flag, so names are decoded as UTF-8 when they are valid UTF-8.

Moodle (``mod/assign/classes/downloader.php`` since 4.1, ``download_submissions`` in
``mod/assign/locallib.php`` before): the prefix is the student's full name with ``_`` replaced by
spaces (non-ASCII kept; "Participant" under blind marking), then the student's *participant id*: a
per-assignment number from Moodle's ``assign_user_mapping`` (shown as "Participant N" in the
grading table and as the "Identifier" of its grading worksheet), not the Moodle user id. It maps
through the roster's ``lms_id`` only where the roster holds these numbers; otherwise the name is
used. The folder is ``<prefix>_<subtype>_<type>`` followed by the file's path in the plugin's file
area (``/`` or ``/sub/``): 4.1 joins them directly, 3.x put a ``_`` before the path. Moodle's file
picker offers to rename an upload whose name is taken to ``name (1).ext``, ``name (2).ext``...
Current Moodle streams the zip with ZipStream, which stamps every entry with the time of the
download (older versions took the time of the file in Moodle's file pool, which is not the
submission time either): **a Moodle export holds no submission time**.

Submission times
----------------
Plain-layout files get their modification time (a zip entry's recorded time: the UTC "extended
timestamp" field when present, else the DOS time read in this machine's zone) with
``time_source="file"``, and a note says so. LMS entries get ``submitted_at=None`` and
``time_source="none"``, unless a :class:`~course_grading.lms.late.SubmissionTimes` list (``course grade
--times``) gives the time: by course id, roster email or lms_id, Canvas user id, or Moodle
participant id; then ``time_source="times"`` (it replaces a file's time too). Canvas's ``LATE`` mark is
kept as a note. :func:`late_notices` says once per batch what a late policy cannot see.

Mapping to the course's student ids
-----------------------------------
With a :class:`Roster`: an LMS entry maps through ``lms_id``, else through the name (case, accents,
spaces and punctuation ignored, either name order); a name matching several rows, an unknown id with
no matching name, or (Canvas) a name whose row holds another Canvas user id is rejected with the
reason. A plain entry maps through the roster's id, email or lms_id. Without a roster, an LMS entry
gets an id derived from its name (Latin letters folded to ASCII: ``ø`` is ``o``, ``ß`` is ``ss``;
lower-cased; the LMS id is appended when two students would get the same one, and used alone when
the name has no Latin letters), noted on the submission. The roster is this module's CSV (``id,
name, email, lms_id``) or Canvas's own gradebook export (:meth:`Roster.read`).

Which notebook is graded
------------------------
Of a student's notebooks, those named like the assignment (``a1.ipynb``, ``a1_attention-2.ipynb``)
are preferred, and of those the latest is graded, the others are noted. What tells the latest: the
files' times (plain layouts), else Canvas's resubmission number and upload order, else Moodle's
renaming (``a1 (2).ipynb`` after ``a1 (1).ipynb`` after ``a1.ipynb``, compared only between files of
one name). Where nothing tells (two Moodle notebooks of different names, plain files with equal
times), the last by name is graded for reference only and the submission needs the instructor's
attention (:attr:`Submission.attention`): no grade of it may be exported. A notebook not named like
the assignment is graded when it is the student's only notebook, with a note.

A student with no notebook to grade (a PDF, an HTML export, a zip, only online text, several
notebooks none named like the assignment, a notebook the zip cannot give back) gets a submission
without a path: a row that scores 0 and needs attention, with a note naming what was handed in.
"""

from __future__ import annotations

import csv
import os
import re
import stat
import struct
import unicodedata
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from course_grading.lms.late import LatePolicy, SubmissionTimes
from course_grading.markers import file_size_problem
from course_grading.text import shown

__all__ = [
    "EXPORT_READERS",
    "Intake",
    "LATE",
    "LAYOUTS",
    "Person",
    "Regrouped",
    "Roster",
    "Submission",
    "batch_warning",
    "derived_id",
    "intake",
    "item_reader",
    "late_notices",
    "looks_like",
    "name_key",
    "name_keys",
]

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}\Z")
LAYOUTS = "<student>.ipynb, <student>/<ID>.ipynb, a Canvas, Moodle or Gradescope export"
ROSTER_COLUMNS = "id, name, email, lms_id (only id is required), or Canvas's gradebook export"

LATE = r"(?:(?P<late>(?i:LATE))_)?"
CANVAS_ANONYMOUS = re.compile(rf"^{LATE}(?P<user>anon_[A-Za-z0-9]+)_(?P<file>\d+)_(?P<original>.+)\Z")
CANVAS = re.compile(rf"^(?P<name>\w*?)_{LATE}(?P<user>\d+)_(?P<file>\d+)_(?P<original>.+)\Z")
# The LMS writes the name and the id first; the upload's own name, which the student chooses, comes last: the first
# `_<id>_assignsubmission_` is Moodle's (a name taken up to the last one let an upload named `x_777_assignsubmission_
# file_...` stand for participant 777: attacks_r). Moodle 4.1 and later write the folder without a trailing _.
MOODLE_FOLDER = re.compile(r"^(?P<name>.*?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?\Z")
MOODLE_FILE = re.compile(r"^(?P<name>.*?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<original>.+)\Z")
RENAMED = {  # how each LMS renames an upload whose name is taken: name-1.ext (Canvas), name (1).ext (Moodle)
    "canvas": re.compile(r"^(?P<stem>.+)-(?P<number>\d+)(?P<suffix>\.[^./]+)\Z"),
    "moodle": re.compile(r"^(?P<stem>.+) \((?P<number>\d+)\)(?P<suffix>\.[^./]+)\Z"),
}
MOODLE_BLIND_NAME = "Participant"
MOODLE_PLUGINS = {"onlinetext": "online text"}
NO_TIME = datetime.min.replace(tzinfo=UTC)
LMS_NAMES = {"canvas": "Canvas user", "moodle": "Moodle participant"}
KINDS = {
    ".pdf": "a PDF",
    ".html": "an HTML page",
    ".htm": "an HTML page",
    ".zip": "a zip archive",
    ".py": "a Python file",
    ".txt": "a text file",
    ".docx": "a Word document",
}
LATIN = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ß": "ss",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
    }
)


@dataclass
class Submission:
    """One student's notebook, as taken from the export (``path`` None: nothing in it can be graded)."""

    student: str  # the course's student id
    path: Path | None  # the notebook file (extracted, if it came from a zip); None when there is no notebook to grade
    # the entry's name in the export (or the entries, when no notebook is graded), as shown to the instructor
    entry: str
    submitted_at: datetime | None  # timezone-aware; None if unknown
    time_source: str  # "file" (the file's modification time), "times" (the --times list) or "none"
    notes: list[str] = field(default_factory=list)  # the attention reasons first
    attention: list[str] = field(default_factory=list)  # why no grade of it may be exported before the instructor looks


@dataclass(frozen=True)
class Person:
    """One row of the roster."""

    id: str
    name: str = ""
    email: str = ""
    lms_id: str = ""


@dataclass
class Roster:
    """The class list: the course's student ids and how the LMS knows each student."""

    people: list[Person]

    @classmethod
    def read(cls, path: Path) -> Roster:
        """Read a roster CSV: a header naming ``id`` and optionally ``name``, ``email``, ``lms_id``
        (extra columns ignored), or Canvas's gradebook export (:func:`_canvas_people`).

        Raises ValueError naming the line and the problem: no ``id`` column, an empty or unusable
        id, or an id, email or lms_id given twice; text that is not UTF-8 or not CSV."""
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f, strict=True)
            try:
                return cls(_checked(path, _rows(path, reader)))
            except UnicodeDecodeError as error:
                raise ValueError(f"{path}: not UTF-8 text ({error})") from error
            except csv.Error as error:
                raise ValueError(f"{path}, line {reader.reader.line_num}: not valid CSV ({error})") from error

    def by_lms_id(self, lms_id: str) -> Person | None:
        """The row whose lms_id is ``lms_id``."""
        return next((p for p in self.people if p.lms_id and p.lms_id == lms_id), None)

    def by_name(self, name: str) -> list[Person]:
        """The rows whose name matches ``name`` (case, accents, spaces and name order ignored)."""
        key = name_key(name)
        return [p for p in self.people if key and key in name_keys(p.name)]

    def by_any_id(self, key: str) -> Person | None:
        """The row whose id, else email (any case), else lms_id is ``key``."""
        for column in ("id", "email", "lms_id"):
            person = next((p for p in self.people if key and getattr(p, column).casefold() == key.casefold()), None)
            if person:
                return person
        return None


CANVAS_GRADEBOOK = {"student", "id", "section"}  # the columns that tell Canvas's gradebook export
CANVAS_SIS = ("sis login id", "sis user id")  # where that export holds the institution's ids, in order of preference
CANVAS_POINTS_ROW = "Points Possible"  # its second row: each assignment's points, no student


def _rows(path: Path, reader: csv.DictReader[str]) -> list[tuple[int, Person]]:
    """The roster's people with their line numbers, from either roster format."""
    columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    if CANVAS_GRADEBOOK <= columns.keys():
        return _canvas_people(reader, columns)
    if "id" not in columns:
        raise ValueError(
            f"{path}, line 1: the header has no 'id' column (found {', '.join(columns) or 'nothing'}); "
            f"expected the columns {ROSTER_COLUMNS}"
        )
    return [
        (reader.line_num, Person(*(_cell(row, columns.get(key)) for key in ("id", "name", "email", "lms_id"))))
        for row in reader
    ]


def _canvas_people(reader: csv.DictReader[str], columns: dict[str, str]) -> list[tuple[int, Person]]:
    """The students of Canvas's gradebook export (``Student, ID, SIS User ID, SIS Login ID, Section, ...``).

    ``Student`` ("Last, First") is the name, ``ID`` (the Canvas user id) the lms_id, the SIS login,
    else the SIS user id, the course's id (and the email, when it is one); a student with neither
    gets an id made from the name as without a roster (:func:`derived_id`, the Canvas id appended
    where two would be the same or the name has no Latin letters). The "Points Possible" row is skipped."""
    found: list[tuple[int, str, str, str]] = []  # line, name, Canvas id, SIS id
    for row in reader:
        name = _cell(row, columns["student"])
        if name and name != CANVAS_POINTS_ROW:
            sis = next((value for key in CANVAS_SIS if STUDENT_ID.match(value := _cell(row, columns.get(key)))), "")
            found.append((reader.line_num, name, _cell(row, columns["id"]), sis))
    bases = [derived_id(name) for _, name, _, sis in found if not sis]
    taken = {sis for *_, sis in found if sis}
    people = []
    for line, name, canvas_id, sis in found:
        base = derived_id(name)
        unique = bool(base) and base not in taken and bases.count(base) == 1
        course_id = sis or (base if unique else f"{base or 'canvas'}_{canvas_id}"[-64:])
        people.append((line, Person(course_id, name, sis if "@" in sis else "", canvas_id)))
    return people


def _checked(path: Path, rows: list[tuple[int, Person]]) -> list[Person]:
    """The roster's people, each id usable and no id, email or lms_id given twice."""
    seen: dict[tuple[str, str], int] = {}
    for line, person in rows:
        if not STUDENT_ID.match(person.id):
            raise ValueError(
                f"{path}, line {line}: {person.id!r} is not a usable student id (letters, digits, _.@+- "
                f"only, 64 at most); expected the columns {ROSTER_COLUMNS}"
            )
        for key, value in (("id", person.id), ("email", person.email.casefold()), ("lms_id", person.lms_id)):
            if value and (key, value) in seen:
                raise ValueError(f"{path}, line {line}: {key} {value!r} is already on line {seen[key, value]}")
            seen[key, value] = line
    return [person for _, person in rows]


def _cell(row: dict[str | None, str | None], column: str | None) -> str:
    """A CSV row's value in ``column`` (stripped), "" for a missing column or value."""
    return (row.get(column) or "").strip() if column else ""


@dataclass
class Intake:
    """What :func:`intake` found: each student's submission and every entry it could not use."""

    submissions: dict[str, Submission]  # by student id (some without a notebook: path None)
    rejected: list[str]  # "ENTRY: reason" for each entry that could not be used
    entries: int = 0  # the students (or stray files) the export holds
    rejected_entries: int = 0  # of those, how many belong to no student
    missing: list[str] = field(default_factory=list)  # roster students with no entry in the export
    # for the instructor, once per batch (times nobody in the export has)
    notices: list[str] = field(default_factory=list)
    # a Gradescope export's submitters by student id (SID as lms_id): its import file's rows
    gradescope: dict[str, Person] = field(default_factory=dict)


def intake(
    submissions: Path,
    assignment: str,
    unpack_to: Path,
    roster: Roster | None = None,
    times: SubmissionTimes | None = None,
) -> Intake:
    """Each student's notebook for ``assignment`` in ``submissions`` (a folder or a .zip), with its
    submission time from ``times`` where that list has it.

    Notebooks inside a zip are extracted to ``unpack_to/<student>/<assignment>.ipynb``. Raises
    ValueError when ``submissions`` is neither a folder nor a readable zip file."""
    if submissions.is_dir():
        return _read(_folder_items(submissions), assignment, roster, times, unpack_to, None)
    if not submissions.is_file():
        raise ValueError(f"{submissions} is neither a folder nor a .zip file")
    if not zipfile.is_zipfile(submissions):
        what = (
            "a corrupt or truncated zip file (no zip directory found)"
            if submissions.suffix.lower() == ".zip"
            else "neither a folder nor a .zip file"
        )
        raise ValueError(f"{submissions} is {what}")
    try:
        with zipfile.ZipFile(submissions) as archive:
            items, unsafe = _zip_items(archive)
            result = _read(items, assignment, roster, times, unpack_to, archive)
    except (zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{submissions} is a corrupt zip file ({error})") from error
    except UnicodeDecodeError as error:  # Python's zipfile cannot list an archive with one such name
        raise ValueError(
            f"{submissions}: an entry's name is marked as UTF-8 but is not ({error}); unpack the archive "
            "with another tool and grade the folder"
        ) from error
    result.rejected[:0] = unsafe
    result.entries += len(unsafe)
    result.rejected_entries += len(unsafe)
    return result


def _read(
    items: list[_Item],
    assignment: str,
    roster: Roster | None,
    times: SubmissionTimes | None,
    unpack_to: Path,
    archive: zipfile.ZipFile | None,
) -> Intake:
    """The export's submissions; an export that one of :data:`EXPORT_READERS` recognises (Gradescope's
    ``submission_metadata.yml``, :mod:`course_grading.lms.gradescope_reader`) regrouped first as plain
    ``<student>/<files>`` folders with its submission times."""
    export = next(
        (e for e in (reader(items, item_reader(archive), roster, times) for reader in EXPORT_READERS) if e is not None),
        None,
    )
    if export is None:
        return _Reader(assignment, roster, times, unpack_to, archive).read(items)
    result = _Reader(assignment, roster, export.times, unpack_to, archive).read(export.items, unwrap=False)
    result.rejected += export.rejected
    result.entries += len(export.rejected)
    result.rejected_entries += len(export.rejected)
    result.gradescope = {student: person for student, person in export.people.items() if student in result.submissions}
    return result


def batch_warning(result: Intake) -> str | None:
    """A warning when nothing, or mostly nothing, of the export could be used; None otherwise."""
    if result.entries == 0:
        return "the export holds no entries: nothing to grade"
    without = sum(1 for s in result.submissions.values() if s.path is None)
    if without == len(result.submissions):
        return (
            f"none of the {result.entries} entries gave a notebook to grade: is this the right export and assignment?"
        )
    if 2 * (result.rejected_entries + without) > result.entries:
        return (
            f"{result.rejected_entries + without} of {result.entries} entries were rejected or held no notebook: "
            "is this the right export, assignment and roster?"
        )
    return None


def late_notices(result: Intake, policy: LatePolicy | None, roster: Roster | None) -> list[str]:
    """What a late policy cannot see in this batch, said once: submissions whose time is unknown (no
    penalty for them), and extensions for students who are not on the roster (or, without one, not
    in the batch)."""
    if policy is None:
        return []
    notices = []
    unknown = sorted(s.student for s in result.submissions.values() if s.submitted_at is None)
    if unknown:
        notices.append(
            f"--due: {len(unknown)} of {len(result.submissions)} submissions have no submission time "
            f"({_few(unknown)}): a Canvas or Moodle export records none, so no late penalty is applied to them; give "
            "the times with --times CSV"
        )
    known = {p.id for p in roster.people} if roster is not None else set(result.submissions)
    strangers = sorted(set(policy.extensions) - known)
    if strangers:
        where = "on the roster" if roster is not None else "in this batch (no roster given)"
        notices.append(
            f"--extensions: {', '.join(strangers)} not {where}: their extension applies to nobody; use the "
            "course's student ids"
        )
    return notices


def _few(names: list[str], most: int = 5) -> str:
    """The first few of ``names``, and how many more."""
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


# ------------------------------------------------------------------------------------- names


def name_key(name: str) -> str:
    """``name`` without accents, case, spaces or punctuation: "Zoë  Müller" -> "zoemuller"."""
    # NFD, not NFKD: accents come off, but compatibility forms (full-width ``Ｖｉｃｔｏｒ``, which a person can type as
    # their LMS name) stay other letters than the roster's (attacks_r: a look-alike was matched to another student)
    folded = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c)).casefold()
    return "".join(c for c in folded if c.isalnum())


def name_keys(name: str) -> set[str]:
    """The keys of a roster name in every order an LMS may write it ("Last, First" or "First Last").

    Every rotation of the words counts, so a last name of several words ("van der Berg") matches too."""
    if "," in name:
        last, first = name.split(",", 1)
        words = first.split() + last.split()
    else:
        words = name.split()
    return {name_key("".join(words[k:] + words[:k])) for k in range(len(words))} - {""}


def derived_id(name: str) -> str:
    """A student id made from a name: ASCII letters and digits only, lower-cased ("" if none are left).
    Latin letters that do not decompose into a letter and accents are spelled out: ``ø`` is ``o``, ``ß`` is ``ss``."""
    folded = unicodedata.normalize("NFKD", name.translate(LATIN)).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]", "", folded)[:64]


def looks_like(original: str, assignment: str) -> bool:
    """Whether a file name is named like the assignment's notebook: ``a1.ipynb``, ``a1_attention-2.ipynb``."""
    stem = original.rsplit("/", 1)[-1].rsplit(".", 1)[0].casefold()
    prefix = assignment.casefold()
    return stem == prefix or (stem.startswith(prefix) and not stem[len(prefix)].isalnum())


# ------------------------------------------------------------------------------------ listing


@dataclass
class _Item:
    """One file (or link) of the export."""

    parts: tuple[str, ...]  # its path inside the export, names NFC-normalized
    size: int
    mtime: datetime | None  # the file's own time: its modification time, or its zip entry's time
    link: bool  # a symbolic link (or not a regular file)
    source: Path | zipfile.ZipInfo


@dataclass
class Regrouped:
    """A Gradescope export as intake reads it: plain ``<student>/<file>`` items, their times, and who is who."""

    items: list[_Item]
    times: SubmissionTimes
    people: dict[str, Person]  # by student id: the submitter's name, email and SID (as lms_id)
    rejected: list[str] = field(default_factory=list)


def item_reader(archive: zipfile.ZipFile | None) -> Callable[[_Item, int], bytes]:
    """How an export reader reads an item: from the zip (at most ``limit`` + 1 bytes), or the file."""

    def read(item: _Item, limit: int) -> bytes:
        if archive is not None and isinstance(item.source, zipfile.ZipInfo):
            with archive.open(item.source) as handle:
                return handle.read(limit + 1)
        assert isinstance(item.source, Path)
        return item.source.read_bytes()

    return read


# The readers of exports that are not plain ``<student>/<files>`` folders: each takes the export's
# items, a reader of an item's bytes (``read(item, limit)``), the roster and ``--times``, and returns
# the export regrouped, or None if the export is not its kind. Each reader's module appends itself
# (the package imports them).
EXPORT_READERS: list[
    Callable[[list[_Item], Callable[[_Item, int], bytes], Roster | None, SubmissionTimes | None], Regrouped | None]
] = []


def _ignored(parts: Iterable[str]) -> bool:
    return any(p.startswith(".") or p == "__MACOSX" for p in parts)


def _folder_items(root: Path) -> list[_Item]:
    """Every file and link under ``root``, links not followed."""
    items = []
    for folder, dirs, files in os.walk(root):  # does not descend into linked folders, but lists them
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not _ignored([d]))
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            if _ignored([name]):
                continue
            path = here / name
            info = path.lstat()
            parts = tuple(unicodedata.normalize("NFC", p) for p in path.relative_to(root).parts)
            mtime = datetime.fromtimestamp(info.st_mtime).astimezone()
            items.append(_Item(parts, info.st_size, mtime, not stat.S_ISREG(info.st_mode), path))
    return items


def _zip_items(archive: zipfile.ZipFile) -> tuple[list[_Item], list[str]]:
    """Every file entry of the zip, and the rejection of each entry whose path leaves the export."""
    items, unsafe = [], []
    for info in archive.infolist():
        name = _zip_name(info)
        raw = name.replace("\\", "/")
        parts = tuple(p for p in raw.split("/") if p not in ("", "."))
        if raw.startswith("/") or re.match(r"^[A-Za-z]:", raw) or ".." in parts:
            unsafe.append(f"{name}: refused: its path leaves the export (absolute or with '..')")
            continue
        if info.is_dir() or not parts or _ignored(parts):
            continue
        link = stat.S_ISLNK(info.external_attr >> 16)
        items.append(_Item(parts, info.file_size, _zip_time(info), link, info))
    return items, unsafe


def _zip_name(info: zipfile.ZipInfo) -> str:
    """The entry's name: UTF-8 names written without the UTF-8 flag (as Canvas writes them) decoded as UTF-8."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            name = name.encode("cp437").decode("utf-8")
        except UnicodeError:
            pass
    return unicodedata.normalize("NFC", name)


def _zip_time(info: zipfile.ZipInfo) -> datetime | None:
    """The entry's time: its UTC extended timestamp if it has one, else its DOS time in this machine's zone."""
    extra = info.extra
    while len(extra) >= 4:
        kind, size = struct.unpack("<HH", extra[:4])
        data = extra[4 : 4 + size]
        if kind == 0x5455 and len(data) >= 5 and data[0] & 1:
            return datetime.fromtimestamp(struct.unpack("<i", data[1:5])[0], UTC)
        extra = extra[4 + size :]
    if info.date_time == (1980, 1, 1, 0, 0, 0):  # zip's "no time"
        return None
    return datetime(*info.date_time).astimezone()


def _unwrap(items: list[_Item], assignment: str) -> list[_Item]:
    """The items with the folders that wrap the whole export removed."""
    while items and all(len(item.parts) > 1 for item in items) and len({item.parts[0] for item in items}) == 1:
        top = items[0].parts[0]
        inner = {item.parts[1:] for item in items}
        student_folder = (
            MOODLE_FOLDER.match(top)
            or (f"{assignment}.ipynb",) in inner
            or (len(inner) == 1 and len(next(iter(inner))) == 1 and not _lms_file(next(iter(inner))[0]))
        )
        if student_folder:
            break
        items = [_Item(item.parts[1:], item.size, item.mtime, item.link, item.source) for item in items]
    return items


def _lms_file(name: str) -> re.Match[str] | None:
    return CANVAS_ANONYMOUS.match(name) or CANVAS.match(name) or MOODLE_FILE.match(name)


# ------------------------------------------------------------------------------------ reading


@dataclass
class _Piece:
    """One file of a student's material."""

    entry: str  # its path in the export
    original: str  # the name the student gave it (its path inside a Moodle or plain folder)
    item: _Item
    layout: str  # plain | canvas | moodle
    for_student: bool = False  # <student>.ipynb: named after the student, so its name says nothing of the assignment
    upload: int = 0  # Canvas's attachment id: higher is later
    plugin: str = "file"  # Moodle's submission plugin: only "file" holds uploads

    @property
    def time(self) -> datetime | None:
        """When it was handed in, as far as the export tells: a plain file's own time; LMS exports record none."""
        return self.item.mtime if self.layout == "plain" else None

    @property
    def renamed(self) -> tuple[str, int]:
        """Its name as uploaded before the LMS renamed it, and the LMS's number (0: not renamed)."""
        match = RENAMED[self.layout].match(self.original) if self.layout in RENAMED else None
        if match is None:
            return self.original.casefold(), 0
        return (match["stem"] + match["suffix"]).casefold(), int(match["number"])


@dataclass
class _Student:
    """One student as the export knows them: a plain id, or an LMS id and a name."""

    layout: str  # plain | canvas | moodle
    key: str  # the plain id, or the LMS id
    name: str = ""
    late: bool = False  # Canvas wrote LATE
    pieces: list[_Piece] = field(default_factory=list)


class _Reader:
    """One intake: from the export's items to submissions and rejections."""

    def __init__(
        self,
        assignment: str,
        roster: Roster | None,
        times: SubmissionTimes | None,
        unpack_to: Path,
        archive: zipfile.ZipFile | None,
    ) -> None:
        self.assignment, self.roster, self.times, self.unpack_to, self.archive = (
            assignment,
            roster,
            times,
            unpack_to,
            archive,
        )
        self.result = Intake({}, [])
        self.timed: set[str] = set()  # the keys of the times list that were used

    def read(self, items: list[_Item], unwrap: bool = True) -> Intake:
        students = self._students(_unwrap(items, self.assignment) if unwrap else items)
        by_course_id: dict[str, list[tuple[_Student, str]]] = {}
        for student, (course_id, note) in self._identify(students):
            by_course_id.setdefault(course_id, []).append((student, note))
        self.result.entries += len(students)
        self.result.rejected_entries += len(students) - sum(len(group) for group in by_course_id.values())
        for course_id, group in by_course_id.items():
            group = self._one_account(course_id, group)
            if len([s for s, _ in group if s.layout != "plain"]) > 1:  # which account is theirs is not ours to guess
                self._held(course_id, [s for s, _ in group], [note for _, note in group if note])
                continue
            self._submit(course_id, [s for s, _ in group], [note for _, note in group if note])
        if self.roster is not None:
            self.result.missing = [p.id for p in self.roster.people if p.id not in self.result.submissions]
        if self.times is not None and (unused := self.times.unused(self.timed)):
            self.result.notices.append(
                f"--times {self.times.source.name}: no submission in this export for {_few(unused)}: those "
                "times were not used"
            )
        return self.result

    def _reject(self, entry: str, reason: str) -> None:
        self.result.rejected.append(shown(f"{entry}: {reason}"))  # one line: a file name's newline starts none

    def _stray(self, entry: str, reason: str) -> None:
        """An entry that belongs to no student."""
        self._reject(entry, f"{reason}; expected {LAYOUTS}")
        self.result.entries += 1
        self.result.rejected_entries += 1

    # ---- who handed in what

    def _students(self, items: list[_Item]) -> list[_Student]:
        """The export's students, each with their files; stray entries rejected on the way."""
        students: dict[tuple[str, str], _Student] = {}
        folders: dict[str, list[_Item]] = {}
        for item in items:
            if len(item.parts) > 1:
                folders.setdefault(item.parts[0], []).append(item)
            else:
                self._file(item, students)
        for name, inside in folders.items():
            self._folder(name, inside, students)
        return list(students.values())

    def _file(self, item: _Item, students: dict[tuple[str, str], _Student]) -> None:
        name = item.parts[0]
        if match := CANVAS_ANONYMOUS.match(name) or CANVAS.match(name):
            student = students.setdefault(
                ("canvas", match["user"]), _Student("canvas", match["user"], match.groupdict().get("name") or "")
            )
            student.late |= bool(match["late"])
            student.pieces.append(_Piece(name, match["original"], item, "canvas", upload=int(match["file"])))
        elif match := MOODLE_FILE.match(name):
            student = students.setdefault(("moodle", match["user"]), _Student("moodle", match["user"], match["name"]))
            student.pieces.append(_Piece(name, match["original"], item, "moodle", plugin=match["plugin"]))
        elif item.link and not name.lower().endswith(".ipynb"):
            self._stray(name, "a symbolic link (or not a regular file): not followed")
        elif not name.lower().endswith(".ipynb"):
            self._stray(name, "not a notebook")
        elif not STUDENT_ID.match(stem := name[: -len(".ipynb")]):
            self._stray(name, f"{stem!r} is not a usable student id (letters, digits, _.@+- only)")
        else:
            students.setdefault(("plain", stem), _Student("plain", stem)).pieces.append(
                _Piece(name, name, item, "plain", for_student=True)
            )

    def _folder(self, name: str, inside: list[_Item], students: dict[tuple[str, str], _Student]) -> None:
        plugin = "file"
        if match := MOODLE_FOLDER.match(name):
            student = students.setdefault(("moodle", match["user"]), _Student("moodle", match["user"], match["name"]))
            plugin = match["plugin"]
        elif STUDENT_ID.match(name):
            student = students.setdefault(("plain", name), _Student("plain", name))
        else:
            self._stray(f"{name}/", f"{name!r} is not a usable student id (letters, digits, _.@+- only)")
            return
        student.pieces += [
            _Piece("/".join(item.parts), "/".join(item.parts[1:]), item, student.layout, plugin=plugin)
            for item in inside
        ]

    # ---- mapping to the course's ids

    def _identify(self, students: list[_Student]) -> list[tuple[_Student, tuple[str, str]]]:
        """Each mapped student with their course id and a note; the others rejected with the reason."""
        mapped: list[tuple[_Student, tuple[str, str]]] = []
        unmapped = [s for s in students if s.layout != "plain" and self.roster is None]
        for student in students:
            if student in unmapped:
                continue
            course_id, text = self._lookup(student)
            if course_id is None:
                for piece in student.pieces:
                    self._reject(piece.entry, text)
            else:
                mapped.append((student, (course_id, text)))
        taken = {course_id for _, (course_id, _) in mapped}
        bases = [derived_id(s.name) if s.name != MOODLE_BLIND_NAME else "" for s in unmapped]
        for student, base in zip(unmapped, bases):
            unique = base and base not in taken and bases.count(base) == 1
            course_id = base if unique else f"{base or student.layout}_{derived_id(student.key) or student.key}"[-64:]
            how = f"from the name {student.name!r}" if base else f"from the {LMS_NAMES[student.layout]} id"
            mapped.append((student, (course_id, f"no roster: student id {course_id!r} made {how} in the export")))
        return mapped

    def _lookup(self, student: _Student) -> tuple[str | None, str]:
        """A student's course id through the roster (a plain id stands for itself without one) and a note; or None and
        the reason."""
        roster = self.roster
        if student.layout == "plain":
            if roster is None:
                return student.key, ""
            person = roster.by_any_id(student.key)
            if person is None:
                return None, f"{student.key!r} is not on the roster (as an id, email or lms_id)"
            return person.id, "" if person.id == student.key else f"{student.key!r} is {person.id} on the roster"
        assert roster is not None
        lms = f"{LMS_NAMES[student.layout]} id {student.key}"
        if person := roster.by_lms_id(student.key):
            return person.id, ""
        if not student.name or student.name == MOODLE_BLIND_NAME:
            return None, f"the {lms} is not in the roster's lms_id column, and the export gives no name"
        people = roster.by_name(student.name)
        if len(people) > 1:
            return (
                None,
                f"the name {student.name!r} matches several roster rows ({', '.join(p.id for p in people)}): "
                f"ambiguous; put {student.key} in the lms_id column of the right one",
            )
        if not people:
            return None, f"neither the {lms} nor the name {student.name!r} is on the roster"
        person = people[0]
        if student.layout == "canvas" and person.lms_id:
            return (
                None,
                f"the name {student.name!r} matches roster row {person.id}, but its lms_id is "
                f"{person.lms_id}, not {student.key}",
            )
        return person.id, f"matched to the roster by name ({student.name!r}): the {lms} is not in its lms_id column"

    def _one_account(self, course_id: str, group: list[tuple[_Student, str]]) -> list[tuple[_Student, str]]:
        """``group`` less the LMS accounts matched by name only, where another account is the student's by the
        roster's lms_id (a namesake, a look-alike name): those are rejected, never merged into the student's."""
        accounts = [s for s, _ in group if s.layout != "plain"]
        by_id = [s for s in accounts if self.roster is not None and self.roster.by_lms_id(s.key)]
        if len(accounts) < 2 or len(by_id) != 1:
            return group
        for student in accounts:
            if student is not by_id[0]:
                self.result.rejected_entries += 1
                for piece in student.pieces:
                    self._reject(
                        piece.entry,
                        f"the {LMS_NAMES[student.layout]} id {student.key} ({student.name!r}) matches {course_id} by "
                        f"name only, and the roster gives {course_id} the lms_id {by_id[0].key}: not graded as theirs",
                    )
        return [(s, note) for s, note in group if s.layout == "plain" or s is by_id[0]]

    def _held(self, course_id: str, group: list[_Student], notes: list[str]) -> None:
        """A course id that several LMS accounts map to (namesakes matched by name, a look-alike name): nothing of
        theirs is graded as the student's, and the instructor is asked which account is theirs."""
        accounts = "; ".join(
            f"{LMS_NAMES[s.layout]} id {s.key} ({s.name or 'no name'}: {', '.join(p.entry for p in s.pieces)})"
            for s in group
            if s.layout != "plain"
        )
        self._record(
            course_id,
            group,
            None,
            ", ".join(p.entry for s in group for p in s.pieces),
            notes,
            [
                f"{len([s for s in group if s.layout != 'plain'])} accounts of the export map to {course_id}: "
                f"{accounts}; nothing graded and no grade exported: put the right account's id in the roster's "
                "lms_id column and grade again"
            ],
        )

    # ---- choosing the notebook

    def _submit(self, course_id: str, group: list[_Student], notes: list[str]) -> None:
        """Record the student's submission: the latest notebook named like the assignment, or, when
        no notebook can be graded, a submission without one that names what was handed in."""
        pieces = [piece for student in group for piece in student.pieces]
        files = [p for p in pieces if p.plugin == "file"]
        if others := [p for p in pieces if p.plugin != "file"]:
            kinds = ", ".join(sorted({MOODLE_PLUGINS.get(p.plugin, f"assignsubmission_{p.plugin}") for p in others}))
            notes.append(
                f"Moodle {kinds} ignored (only uploaded files are graded): {', '.join(p.entry for p in others)}"
            )
        if any(s.late for s in group):
            notes.append("Canvas marked it LATE")
        problems = {piece.entry: _problem(piece) for piece in files}
        notebooks = [p for p in files if problems[p.entry] is None]
        named = [p for p in notebooks if p.for_student or looks_like(p.original, self.assignment)]
        if not notebooks or (not named and len(notebooks) > 1):
            self._record(
                course_id,
                group,
                None,
                ", ".join(p.entry for p in pieces),
                notes,
                [self._no_notebook(files, problems, notebooks)],
            )
            return
        chosen, attention = self._choose(
            named or notebooks, [p for p in notebooks if p not in named] if named else [], notes
        )
        for piece in files:
            if problems[piece.entry]:
                self._reject(piece.entry, f"{problems[piece.entry]}: not graded ({course_id}'s {chosen.entry} is)")
                notes.append(f"also handed in, not graded: {piece.entry} ({problems[piece.entry]})")  # the student's
        try:
            path = self._extract(chosen, course_id)
        except ValueError as error:
            self._record(
                course_id, group, None, chosen.entry, notes, [*attention, f"{chosen.entry} {error}: nothing graded"]
            )
            return
        self._record(course_id, group, path, chosen.entry, notes, attention, chosen.time)

    def _choose(self, pool: list[_Piece], unnamed: list[_Piece], notes: list[str]) -> tuple[_Piece, list[str]]:
        """The notebook to grade of ``pool`` (those named like the assignment, or the only one) and
        why it needs the instructor's attention, if it does; what else to know goes to ``notes``."""
        chosen, rule = _latest(pool)
        others = ", ".join(p.entry for p in sorted(pool, key=_order) if p is not chosen)
        attention = []
        if rule is None:
            attention.append(
                f"{len(pool)} notebooks handed in and nothing tells which is the latest: {chosen.entry} was graded "
                f"for reference only (not graded: {others}); no grade is exported: leave the right one alone in the "
                "export and grade again"
            )
        elif others:
            notes.append(
                f"{len(pool)} notebooks handed in: the latest is graded ({chosen.entry}; {rule}); not graded: {others}"
            )
        if unnamed:
            notes.append(
                f"also handed in, not named like {self.assignment}.ipynb, not graded: "
                f"{', '.join(p.entry for p in unnamed)}"
            )
        if not chosen.for_student and not looks_like(chosen.original, self.assignment):
            notes.append(
                f"{chosen.original} is not named like {self.assignment}.ipynb: graded as the only notebook handed in"
            )
        return chosen, attention

    def _no_notebook(self, files: list[_Piece], problems: dict[str, str | None], notebooks: list[_Piece]) -> str:
        """Why a student's material holds no notebook to grade, naming what it holds."""
        if notebooks:
            return (
                f"several notebooks handed in and none named like {self.assignment}.ipynb "
                f"({', '.join(p.original for p in notebooks)}): nothing graded"
            )
        if not files:
            return "no file handed in (only Moodle's online text): no notebook to grade"
        return f"no notebook to grade; handed in: {'; '.join(f'{p.original} ({problems[p.entry]})' for p in files)}"

    def _record(
        self,
        course_id: str,
        group: list[_Student],
        path: Path | None,
        entry: str,
        notes: list[str],
        attention: list[str],
        file_time: datetime | None = None,
    ) -> None:
        """The student's submission, with its time from the times list, else the file's."""
        submitted_at, source = self._given_time(course_id, group), "times"
        if submitted_at is None:
            submitted_at, source = file_time, "file" if file_time else "none"
            if file_time:
                notes = [*notes, "submission time taken from the file's modification time (the export records none)"]
        attention, notes = [shown(a) for a in attention], [shown(n) for n in notes]  # one line each (file names)
        self.result.submissions[course_id] = Submission(
            course_id, path, entry, submitted_at, source, [*attention, *notes], attention
        )

    def _given_time(self, course_id: str, group: list[_Student]) -> datetime | None:
        """The student's time in the times list: by course id, roster email or lms_id, Canvas user id or Moodle
        participant id."""
        if self.times is None:
            return None
        person = self.roster.by_any_id(course_id) if self.roster is not None else None
        keys = [
            course_id,
            *(s.key for s in group if s.layout == "canvas"),
            *((person.email, person.lms_id) if person else ()),
        ]
        found = self.times.find([k for k in keys if k], [s.key for s in group if s.layout == "moodle"])
        if found is None:
            return None
        key, when = found
        self.timed.add(key)
        return when

    def _extract(self, piece: _Piece, course_id: str) -> Path:
        """The notebook's path: the file itself, or its copy out of the zip. Raises ValueError saying why it cannot be
        read."""
        if isinstance(piece.item.source, Path):
            return piece.item.source
        assert self.archive is not None
        target = self.unpack_to / course_id / f"{self.assignment}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self.archive.open(piece.item.source) as src, target.open("wb") as dst:
                copied = 0
                while chunk := src.read(2**20):
                    copied += len(chunk)
                    if file_size_problem(copied):
                        raise ValueError(f"{file_size_problem(copied)} once unpacked")
                    dst.write(chunk)
        except (zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError, OSError, EOFError) as error:
            target.unlink(missing_ok=True)
            raise ValueError(f"could not be read from the zip ({error})") from None
        return target


def _problem(piece: _Piece) -> str | None:
    """Why a file cannot be graded, or None for a usable notebook."""
    if piece.item.link:
        return "a symbolic link (or not a regular file): not followed"
    suffix = "." + piece.original.rsplit(".", 1)[-1].lower() if "." in piece.original.rsplit("/", 1)[-1] else ""
    if suffix != ".ipynb":
        return f"not a notebook ({KINDS[suffix]})" if suffix in KINDS else "not a notebook"
    return file_size_problem(piece.item.size)  # the size of its code and text is canonical()'s to judge


RULES = ("the files' times", "{lms} renames a later upload of a name already taken", "Canvas's upload order")


def _evidence(piece: _Piece, comparable: bool) -> tuple[datetime, int, int]:
    """What tells how late a piece was handed in: its time, the LMS's renaming number (only where
    ``comparable``: between files of one name), its upload order (Canvas)."""
    return piece.time or NO_TIME, piece.renamed[1] if comparable else 0, piece.upload


def _latest(pool: list[_Piece]) -> tuple[_Piece, str | None]:
    """The latest of ``pool`` and the rule that tells it ("" for a single piece), or the last by
    name and None where nothing tells which is the latest."""
    comparable = len({p.renamed[0] for p in pool}) == 1
    ranked = sorted(pool, key=lambda p: (_evidence(p, comparable), p.entry))
    chosen = ranked[-1]
    if len(ranked) == 1:
        return chosen, ""
    top, runner = _evidence(chosen, comparable), _evidence(ranked[-2], comparable)
    if top == runner:
        return chosen, None
    decided = next(k for k in range(len(top)) if top[k] != runner[k])
    return chosen, RULES[decided].format(lms=LMS_NAMES.get(chosen.layout, "the LMS").split()[0])


def _order(piece: _Piece) -> tuple[datetime, int, int, str]:
    """Later pieces sort higher: by time, then the LMS's renaming number and upload order, then name."""
    return (*_evidence(piece, True), piece.entry)
