"""Take in a class's submissions as a learning management system (LMS) exports them.

:func:`intake` reads a folder or a .zip and finds each student's notebook for one assignment.
Every entry either becomes a :class:`Submission` or is listed in :attr:`Intake.rejected` with the
reason; nothing is dropped silently (only ``__MACOSX`` and dot-files are ignored).

Layouts
-------
* **plain**: ``<student>.ipynb`` or ``<student>/<ID>.ipynb`` (any notebooks in the folder count),
  where ``<student>`` is the student id itself.
* **Canvas** "Download Submissions": flat files
  ``<name>_[LATE_]<user id>_<attachment id>_<file name>``, or ``[LATE_]anon_<id>_<attachment id>_<file
  name>`` under anonymous grading.
* **Moodle** "Download all submissions": folders ``<full name>_<participant id>_assignsubmission_<plugin>_/``
  holding the uploaded files (sub-folders kept), or, with "download as folders" turned off, flat
  files ``<full name>_<participant id>_assignsubmission_file_<file name>``.
* Any of these wrapped in one top folder. A single top folder that holds ``<ID>.ipynb`` or just one
  plain file is read as one student's folder, not as a wrapper.

What the LMS exports hold (read in the LMSs' own source code)
-------------------------------------------------------------
Canvas (``lib/content_zipper.rb`` in canvas-lms): the name part is the student's *sortable name*
("Last, First") lower-cased with every non-word character removed (letters of any script stay:
``müllerzoë``); ``LATE`` is inserted when Canvas considers the submission late; the first number is
the Canvas user id (what the roster's ``lms_id`` holds) and the second is the id of the uploaded
*file* (not of the submission): it grows with every upload, so it orders a student's files. Only the
files of each student's latest submission are in the zip. Canvas renames an upload whose name is
taken by appending ``-1``, ``-2``... before the extension (``Attachment.make_unique_filename``), which
is how a notebook handed in again under the same name shows up. The zip is written with rubyzip's
default entry time, the moment the zip is made: **a Canvas export holds no submission time**.
Canvas writes names without the zip UTF-8 flag, so names are decoded as UTF-8 when they are valid
UTF-8.

Moodle (``download_submissions`` in ``mod/assign``): the folder's name is the student's full name with
``_`` replaced by spaces (non-ASCII kept; "Participant" under blind marking), then the student's
*participant id*: a per-assignment number from Moodle's ``assign_user_mapping`` (shown as
"Participant N" in the grading table), not the Moodle user id. It maps through the roster's
``lms_id`` only where the roster holds these numbers; otherwise the name is used. Current Moodle
streams the zip with ZipStream, which stamps every entry with the time of the download (older
versions took the time of the file in Moodle's file pool, which is not the submission time either):
**a Moodle export holds no submission time**.

So submissions in an LMS layout get ``submitted_at=None`` and ``time_source="none"`` (with a note;
Canvas's ``LATE`` mark is kept as a note), and late penalties need the times from elsewhere.
Plain-layout files get their modification time (a zip entry's recorded time: the UTC "extended
timestamp" field when present, else the DOS time read in this machine's zone) with
``time_source="file"``, and a note says so. ``time_source="lms"`` is reserved for a time the export
itself records; neither export above records one.

Mapping to the course's student ids
-----------------------------------
With a :class:`Roster`: an LMS entry maps through ``lms_id``, else through the name (case, accents,
spaces and punctuation ignored, either name order); a name matching several rows, an unknown id with
no matching name, or (Canvas) a name whose row holds another Canvas user id is rejected with the
reason. A plain entry maps through the roster's id, email or lms_id. Without a roster, an LMS entry
gets an id derived from its name (ASCII-folded, lower-cased; the LMS id is appended when two students
would get the same one), noted on the submission.

Several notebooks for one student: those named like the assignment (``a1.ipynb``,
``a1_attention-2.ipynb``) are preferred; of those, the latest is graded (by time, else by Canvas's
resubmission number and upload order) and the others are noted. A notebook not named like the
assignment is graded when it is the student's only notebook, with a note.
"""

from __future__ import annotations

import csv
import os
import re
import stat
import struct
import unicodedata
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")
MAX_ENTRY_BYTES = 20 * 2**20
LAYOUTS = "<student>.ipynb, <student>/<ID>.ipynb, a Canvas or a Moodle export"

CANVAS_ANONYMOUS = re.compile(r"^(?:(?P<late>LATE)_)?(?P<user>anon_[A-Za-z0-9]+)_(?P<file>\d+)_(?P<original>.+)$")
CANVAS = re.compile(r"^(?P<name>\w*?)_(?:(?P<late>LATE)_)?(?P<user>\d+)_(?P<file>\d+)_(?P<original>.+)$")
MOODLE_FOLDER = re.compile(r"^(?P<name>.*)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_$")
MOODLE_FILE = re.compile(r"^(?P<name>.*)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<original>.+)$")
RESUBMISSION = re.compile(r"^(?P<stem>.+)-(?P<number>\d+)(?P<suffix>\.[^.]+)$")
MOODLE_BLIND_NAME = "Participant"
NO_TIME = datetime.min.replace(tzinfo=timezone.utc)
LMS_NAMES = {"canvas": "Canvas user", "moodle": "Moodle participant"}


@dataclass
class Submission:
    """One student's notebook, as taken from the export."""

    student: str  # the course's student id
    path: Path  # the notebook file (extracted, if it came from a zip)
    entry: str  # the entry's name in the export, as shown to the instructor
    submitted_at: datetime | None  # timezone-aware; None if unknown
    time_source: str  # "lms" (recorded by the export), "file" (the file's modification time) or "none"
    notes: list[str] = field(default_factory=list)


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
        """Read a CSV with a header naming ``id`` and optionally ``name``, ``email``, ``lms_id``.

        Extra columns are ignored. Raises ValueError naming the line and the problem: no ``id``
        column, an empty or unusable id, or an id, email or lms_id given twice; text that is not UTF-8
        or not CSV."""
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f, strict=True)
            try:
                return cls(_people(path, reader))
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


def _people(path: Path, reader: csv.DictReader[str]) -> list[Person]:
    """The rows of a roster CSV, checked."""
    columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    if "id" not in columns:
        raise ValueError(f"{path}, line 1: the header has no 'id' column (found {', '.join(columns) or 'nothing'})")
    people: list[Person] = []
    seen: dict[tuple[str, str], int] = {}
    for row in reader:
        line = reader.line_num
        person = Person(*(_cell(row, columns.get(key)) for key in ("id", "name", "email", "lms_id")))
        if not STUDENT_ID.match(person.id):
            raise ValueError(f"{path}, line {line}: {person.id!r} is not a usable student id (letters, digits, _.@+- only, 64 at most)")
        for key, value in (("id", person.id), ("email", person.email.casefold()), ("lms_id", person.lms_id)):
            if value and (key, value) in seen:
                raise ValueError(f"{path}, line {line}: {key} {value!r} is already on line {seen[key, value]}")
            seen[key, value] = line
        people.append(person)
    return people


def _cell(row: dict[str | None, str | None], column: str | None) -> str:
    """A CSV row's value in ``column`` (stripped), "" for a missing column or value."""
    return (row.get(column) or "").strip() if column else ""


@dataclass
class Intake:
    """What :func:`intake` found: each student's submission and every entry it could not use."""

    submissions: dict[str, Submission]  # by student id
    rejected: list[str]  # "ENTRY: reason" for each entry that could not be used
    entries: int = 0  # the students (or stray files) the export holds
    rejected_entries: int = 0  # of those, how many gave no submission


def intake(submissions: Path, assignment: str, unpack_to: Path, roster: Roster | None = None) -> Intake:
    """Each student's notebook for ``assignment`` in ``submissions`` (a folder or a .zip).

    Notebooks inside a zip are extracted to ``unpack_to/<student>/<assignment>.ipynb``. Raises
    ValueError when ``submissions`` is neither a folder nor a readable zip file."""
    if submissions.is_dir():
        return _Reader(assignment, roster, unpack_to, None).read(_folder_items(submissions))
    if not submissions.is_file():
        raise ValueError(f"{submissions} is neither a folder nor a .zip file")
    if not zipfile.is_zipfile(submissions):
        what = "a corrupt or truncated zip file (no zip directory found)" if submissions.suffix.lower() == ".zip" else "neither a folder nor a .zip file"
        raise ValueError(f"{submissions} is {what}")
    try:
        with zipfile.ZipFile(submissions) as archive:
            items, unsafe = _zip_items(archive)
            result = _Reader(assignment, roster, unpack_to, archive).read(items)
    except (zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{submissions} is a corrupt zip file ({error})") from error
    except UnicodeDecodeError as error:  # Python's zipfile cannot list an archive with one such name
        raise ValueError(f"{submissions}: an entry's name is marked as UTF-8 but is not ({error}); unpack the archive with another tool and grade the folder") from error
    result.rejected[:0] = unsafe
    result.entries += len(unsafe)
    result.rejected_entries += len(unsafe)
    return result


def batch_warning(result: Intake) -> str | None:
    """A warning when nothing, or mostly nothing, of the export could be used; None otherwise."""
    if result.entries == 0:
        return "the export holds no entries: nothing to grade"
    if not result.submissions:
        return f"none of the {result.entries} entries gave a notebook to grade: is this the right export and assignment?"
    if 2 * result.rejected_entries > result.entries:
        return f"{result.rejected_entries} of {result.entries} entries were rejected: is this the right export, assignment and roster?"
    return None


# ------------------------------------------------------------------------------------- names


def name_key(name: str) -> str:
    """``name`` without accents, case, spaces or punctuation: "Zoë  Müller" -> "zoemuller"."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()
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
    """A student id made from a name: ASCII letters and digits only, lower-cased ("" if none are left)."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
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
            return datetime.fromtimestamp(struct.unpack("<i", data[1:5])[0], timezone.utc)
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
    resubmission: int = 0  # Canvas's -N suffix
    upload: int = 0  # Canvas's attachment id: higher is later

    @property
    def time(self) -> datetime | None:
        """When it was handed in, as far as the export tells: a plain file's own time; LMS exports record none."""
        return self.item.mtime if self.layout == "plain" else None


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

    def __init__(self, assignment: str, roster: Roster | None, unpack_to: Path, archive: zipfile.ZipFile | None) -> None:
        self.assignment, self.roster, self.unpack_to, self.archive = assignment, roster, unpack_to, archive
        self.result = Intake({}, [])

    def read(self, items: list[_Item]) -> Intake:
        students = self._students(_unwrap(items, self.assignment))
        by_course_id: dict[str, list[tuple[_Student, str]]] = {}
        for student, (course_id, note) in self._identify(students):
            by_course_id.setdefault(course_id, []).append((student, note))
        self.result.entries += len(students)
        self.result.rejected_entries += len(students) - sum(len(group) for group in by_course_id.values())
        for course_id, group in by_course_id.items():
            if not self._submit(course_id, [s for s, _ in group], [note for _, note in group if note]):
                self.result.rejected_entries += len(group)
        return self.result

    def _reject(self, entry: str, reason: str) -> None:
        self.result.rejected.append(f"{entry}: {reason}")

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
            student = students.setdefault(("canvas", match["user"]), _Student("canvas", match["user"], match.groupdict().get("name") or ""))
            student.late |= bool(match["late"])
            again = RESUBMISSION.match(match["original"])
            student.pieces.append(_Piece(name, match["original"], item, "canvas", resubmission=int(again["number"]) if again else 0, upload=int(match["file"])))
        elif match := MOODLE_FILE.match(name):
            student = students.setdefault(("moodle", match["user"]), _Student("moodle", match["user"], match["name"]))
            student.pieces.append(_Piece(name, match["original"], item, "moodle"))
        elif item.link and not name.lower().endswith(".ipynb"):
            self._stray(name, "a symbolic link (or not a regular file): not followed")
        elif not name.lower().endswith(".ipynb"):
            self._stray(name, "not a notebook")
        elif not STUDENT_ID.match(stem := name[: -len(".ipynb")]):
            self._stray(name, f"{stem!r} is not a usable student id (letters, digits, _.@+- only)")
        else:
            students.setdefault(("plain", stem), _Student("plain", stem)).pieces.append(_Piece(name, name, item, "plain", for_student=True))

    def _folder(self, name: str, inside: list[_Item], students: dict[tuple[str, str], _Student]) -> None:
        if match := MOODLE_FOLDER.match(name):
            student = students.setdefault(("moodle", match["user"]), _Student("moodle", match["user"], match["name"]))
        elif STUDENT_ID.match(name):
            student = students.setdefault(("plain", name), _Student("plain", name))
        else:
            self._stray(f"{name}/", f"{name!r} is not a usable student id (letters, digits, _.@+- only)")
            return
        student.pieces += [_Piece("/".join(item.parts), "/".join(item.parts[1:]), item, student.layout) for item in inside]

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
        """A student's course id through the roster (a plain id stands for itself without one) and a note; or None and the reason."""
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
            return None, f"the name {student.name!r} matches several roster rows ({', '.join(p.id for p in people)}): ambiguous; put {student.key} in the lms_id column of the right one"
        if not people:
            return None, f"neither the {lms} nor the name {student.name!r} is on the roster"
        person = people[0]
        if student.layout == "canvas" and person.lms_id:
            return None, f"the name {student.name!r} matches roster row {person.id}, but its lms_id is {person.lms_id}, not {student.key}"
        return person.id, f"matched to the roster by name ({student.name!r}): the {lms} is not in its lms_id column"

    # ---- choosing the notebook

    def _submit(self, course_id: str, group: list[_Student], notes: list[str]) -> bool:
        """Record the student's notebook (the latest one named like the assignment); False if none could be used."""
        pieces = [piece for student in group for piece in student.pieces]
        problems = {piece.entry: self._problem(piece) for piece in pieces}
        notebooks = [p for p in pieces if problems[p.entry] is None]
        named = [p for p in notebooks if p.for_student or looks_like(p.original, self.assignment)]
        if not notebooks or (not named and len(notebooks) > 1):
            names = ", ".join(p.original for p in notebooks)
            why = f"no notebook for {course_id}" if not notebooks else f"{course_id} handed in several notebooks and none named like {self.assignment}.ipynb ({names})"
            for piece in pieces:
                self._reject(piece.entry, f"{problems[piece.entry] or 'not graded'}: {why}")
            return False
        pool = named or notebooks
        chosen = max(pool, key=_order)
        for piece in pieces:
            if problems[piece.entry]:
                self._reject(piece.entry, f"{problems[piece.entry]}: not graded ({course_id}'s {chosen.entry} is)")
        path = self._extract(chosen, course_id)
        if path is None:
            return False
        notes = notes + self._choice_notes(chosen, pool, [p for p in notebooks if p not in pool])
        if any(s.late for s in group):
            notes.append("Canvas marked it LATE")
        submitted_at, source = chosen.time, "file" if chosen.time else "none"
        if chosen.layout != "plain":
            notes.append(f"submission time unknown: {chosen.layout.capitalize()}'s export does not record it")
        elif submitted_at is None:
            notes.append("submission time unknown: the file has no time")
        else:
            notes.append("submission time taken from the file's modification time (the export records none)")
        self.result.submissions[course_id] = Submission(course_id, path, chosen.entry, submitted_at, source, notes)
        return True

    @staticmethod
    def _problem(piece: _Piece) -> str | None:
        """Why a file cannot be graded, or None for a usable notebook."""
        if piece.item.link:
            return "a symbolic link (or not a regular file): not followed"
        if piece.original.endswith("onlinetext.html") and piece.layout == "moodle":
            return "online text, not a notebook"
        if not piece.original.lower().endswith(".ipynb"):
            return "not a notebook"
        if piece.item.size > MAX_ENTRY_BYTES:
            return f"larger than {MAX_ENTRY_BYTES >> 20} MiB: skipped"
        return None

    def _choice_notes(self, chosen: _Piece, pool: list[_Piece], unnamed: list[_Piece]) -> list[str]:
        """What the instructor should know about the choice of notebook."""
        notes = []
        if len(pool) > 1:
            others = ", ".join(p.entry for p in sorted(pool, key=_order) if p is not chosen)
            tied = len({_order(p)[:3] for p in pool}) == 1
            how = "nothing tells which is the latest: the last by name is graded" if tied else "the latest is graded"
            notes.append(f"{len(pool)} notebooks handed in: {how} ({chosen.entry}); not graded: {others}")
        if unnamed:
            notes.append(f"also handed in, not named like {self.assignment}.ipynb, not graded: {', '.join(p.entry for p in unnamed)}")
        if not chosen.for_student and not looks_like(chosen.original, self.assignment):
            notes.append(f"{chosen.original} is not named like {self.assignment}.ipynb: graded as the only notebook handed in")
        return notes

    def _extract(self, piece: _Piece, course_id: str) -> Path | None:
        """The notebook's path: the file itself, or its copy out of the zip (None, and a rejection, if unreadable)."""
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
                    if copied > MAX_ENTRY_BYTES:
                        raise ValueError(f"larger than {MAX_ENTRY_BYTES >> 20} MiB once unpacked")
                    dst.write(chunk)
        except (zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError, OSError, EOFError) as error:
            target.unlink(missing_ok=True)
            self._reject(piece.entry, f"could not be read from the zip ({error}): not graded")
            return None
        return target


def _order(piece: _Piece) -> tuple[datetime, int, int, str]:
    """Later pieces sort higher: by time, then Canvas's resubmission number and upload order, then name."""
    return (piece.time or NO_TIME, piece.resubmission, piece.upload, piece.entry)
