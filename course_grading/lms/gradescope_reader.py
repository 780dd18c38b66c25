"""Gradescope's "Export Submissions" zip, read by ``course grade``; and the scores file Gradescope imports.

The export (Gradescope's assignment page, "Review Grades", "Export Submissions") holds a folder per
submission, ``submission_<id>/``, with the files handed in, and one ``submission_metadata.yml``
beside them (the zip may wrap both in one folder, ``assignment_<id>_export/``). The YAML is written by
Ruby, with symbol keys that keep their leading colon when read by any other YAML reader::

    submission_123456:
      :submitters:
      - :name: Ada Lovelace
        :sid: '1815'
        :email: ada@example.edu
      :created_at: 2026-11-20 23:41:07.123456000 -08:00
      :score: 10.0
      ...

Each submitter (several for a group submission) becomes a student of the batch: their SID is the
student id where it is one (letters, digits, ``_.@+-``), else their email; with a roster, whichever
of the two the roster knows. A student may type their own SID, the email is their account's: a submitter whose SID
names another roster row than their email (or a row with another email) is not graded, and two submissions that
name one student are neither graded as theirs (each said in the rejections). The student gets the submission's
files as a plain
``<student>/<files>`` folder, so the rest of intake (:mod:`course_grading.lms.intake`: which notebook,
unreadable files) is the same as for every layout, and ``:created_at`` as the submission time (a
``course grade --times`` list still wins). Other keys (``:score``, ``:history``, ``:results``) are
not read; a value with a Ruby tag (``!ruby/object:BigDecimal``) is read as plain data.

:func:`write_import` writes ``gradescope_import.csv``: ``Name, SID, Email, Total Score`` (the names of
the columns of Gradescope's own grade export), one row per submitter of each graded submission, to
upload to a Gradescope assignment's scores; Gradescope matches its students by Email or SID.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from course_grading.lms import intake
from course_grading.lms.intake import STUDENT_ID, Person, Regrouped, Roster, _Item, derived_id
from course_grading.lms.late import SubmissionTimes
from course_grading.lms.results import GRADED, Result
from course_grading.text import csv_cell

__all__ = ["IMPORT_COLUMNS", "IMPORT_FILE", "METADATA", "parse_metadata", "regroup", "write_import"]

METADATA = "submission_metadata.yml"
IMPORT_FILE = "gradescope_import.csv"
IMPORT_COLUMNS = ("Name", "SID", "Email", "Total Score")
MAX_METADATA_BYTES = 64 << 20  # a class's metadata, with every submission's results: far less


def _loader() -> Any:
    import yaml

    class Loader(yaml.SafeLoader):
        """PyYAML's safe loader that reads Ruby's tagged values (``!ruby/object:BigDecimal 18:0.1e2``) as plain data."""

    def plain(loader: Any, suffix: str, node: Any) -> Any:
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!ruby/", plain)
    return Loader


def parse_metadata(text: str, where: str) -> dict[str, tuple[list[Person], datetime | None]]:
    """``submission_metadata.yml``'s submissions: folder -> (submitters as :class:`Person` with the SID
    as ``lms_id``, submission time). Raises ValueError naming the problem for a file of another shape."""
    import yaml

    try:
        data = yaml.load(text, Loader=_loader())  # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError as error:
        raise ValueError(f"{where} is not valid YAML ({error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where} is not Gradescope's submission metadata (a mapping of submission_<id> folders)")
    found = {}
    for folder, record in data.items():
        submitters = record.get(":submitters") if isinstance(record, dict) else None
        if not isinstance(submitters, list) or not submitters or not all(isinstance(s, dict) for s in submitters):
            raise ValueError(f"{where}: {folder} has no :submitters list (each with :name, :sid, :email)")
        people = [
            Person("", str(s.get(":name") or ""), str(s.get(":email") or ""), str(s.get(":sid") or ""))
            for s in submitters
        ]
        found[str(folder)] = (people, _time(record.get(":created_at"), f"{where}: {folder}'s :created_at"))
    return found


def _time(value: Any, what: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{what} {value!r} is not a time") from None
    if not isinstance(value, datetime):
        raise ValueError(f"{what} {value!r} is not a time")
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)  # PyYAML gives UTC without a zone


def _student_id(person: Person, roster: Roster | None) -> str | None:
    """The batch's id for a submitter: the SID or email the roster knows, else the first usable of them, else one made
    from the name."""
    keys = [k for k in (person.lms_id, person.email) if k and STUDENT_ID.match(k)]
    if roster is not None:
        for key in keys:
            if roster.by_any_id(key) is not None:
                return key
    return keys[0] if keys else derived_id(person.name) or None


def _conflict(person: Person, roster: Roster | None) -> str | None:
    """Why a submitter's SID and email point at different students of the roster, or None. A student may type their
    own SID into Gradescope (self-enrolment, account settings); the email is the account's: an SID that names
    another roster row than the email does, or a row whose email is another, is not taken on trust."""
    if roster is None or not person.lms_id or not person.email:
        return None
    by_sid, by_email = roster.by_any_id(person.lms_id), roster.by_any_id(person.email)
    if by_sid is None:
        return None
    if by_email is not None and by_email is not by_sid:
        return f"its SID {person.lms_id} is roster row {by_sid.id}, its email {person.email} row {by_email.id}"
    if by_email is None and by_sid.email and by_sid.email.casefold() != person.email.casefold():
        return f"its SID {person.lms_id} is roster row {by_sid.id}, whose email is not the submitter's ({person.email})"
    return None


def regroup(
    items: list[_Item], read: Callable[[_Item, int], bytes], roster: Roster | None, times: SubmissionTimes | None
) -> Regrouped | None:
    """``items`` as plain ``<student>/<file>`` items if they are a Gradescope export (a
    ``submission_metadata.yml`` at the top or in the one folder that wraps it), else None. ``read(item, limit)``
    gives an item's bytes. ``times`` (``--times``) take precedence over the export's."""
    metadata = [item for item in items if item.parts[-1] == METADATA and len(item.parts) <= 2 and not item.link]
    if not metadata:
        return None
    # an export at the top: one a student uploaded sits a level down, in their folder
    if any(len(item.parts) == 1 for item in metadata):
        metadata = [item for item in metadata if len(item.parts) == 1]
    if len(metadata) > 1:
        raise ValueError(
            f"the export holds {len(metadata)} {METADATA} files "
            f"({', '.join('/'.join(m.parts) for m in metadata)}): export one assignment at a time"
        )
    meta = metadata[0]
    if meta.size > MAX_METADATA_BYTES:
        raise ValueError(f"{'/'.join(meta.parts)} is larger than {MAX_METADATA_BYTES >> 20} MiB: not read")
    prefix = meta.parts[:-1]
    submissions = parse_metadata(read(meta, MAX_METADATA_BYTES).decode("utf-8", errors="replace"), "/".join(meta.parts))
    regrouped = Regrouped([], SubmissionTimes(times.source if times else Path(METADATA)), {})
    ids: dict[str, list[str]] = {}
    folders: dict[str, list[str]] = {}  # a student id -> the submissions that name it
    for folder, (people, created) in submissions.items():
        for person in people:
            student = _student_id(person, roster)
            if student is None:
                regrouped.rejected.append(
                    f"{folder}: submitter {person.name or '(no name)'} has no SID, email or name usable as a student id"
                )
                continue
            if (conflict := _conflict(person, roster)) is not None:
                regrouped.rejected.append(f"{folder}: submitter {person.name or '(no name)'}: {conflict}: not graded")
                continue
            folders.setdefault(student.casefold(), []).append(folder)
            ids.setdefault(folder, []).append(student)
            regrouped.people[student] = dataclasses.replace(person, id=student)
            if created is not None:
                regrouped.times.by_student[student.casefold()] = created
    for student, named in folders.items():  # one student in two submissions: two accounts, which is theirs?
        if len(named) > 1:
            regrouped.rejected.append(
                f"{', '.join(named)}: each names the student {student}: neither is graded as theirs (two accounts with "
                "one SID or email: correct the roster or the SIDs, and grade again)"
            )
            for folder in named:
                ids[folder] = [i for i in ids[folder] if i.casefold() != student]
    for item in items:
        if item is meta or item.parts[: len(prefix)] != prefix:
            continue
        inner = item.parts[len(prefix) :]
        if len(inner) < 2 or inner[0] not in submissions:
            regrouped.rejected.append(f"{'/'.join(item.parts)}: not in a submission folder that {METADATA} names")
            continue
        for student in ids.get(inner[0], []):
            regrouped.items.append(dataclasses.replace(item, parts=(student, *inner[1:])))
    if times is not None:
        regrouped.times.by_student.update(times.by_student)
        regrouped.times.by_participant.update(times.by_participant)
    return regrouped


def write_import(results: Sequence[Result], people: dict[str, Person], path: Path) -> int:
    """Write the scores Gradescope imports (:data:`IMPORT_COLUMNS`) for the graded students among
    ``people``; return how many rows. A submission that needs attention or was not graded has no
    row: Gradescope keeps what it has for them. Every field goes through :func:`course_grading.text.csv_cell`
    (control and bidi characters escaped, a formula's start marked with an apostrophe); the total has
    two decimals at most, as in the other LMS files."""
    rows = [(people[r.student], r.total) for r in results if r.status == GRADED and r.student in people]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([csv_cell(column) for column in IMPORT_COLUMNS])
        for person, total in rows:
            writer.writerow(
                [csv_cell(person.name), csv_cell(person.lms_id), csv_cell(person.email), csv_cell(round(total, 2))]
            )
    return len(rows)


intake.EXPORT_READERS.append(regroup)  # intake tries it on every export
