"""course_grading.lms.intake: LMS exports (plain, Canvas, Moodle 3 and 4) to one submission per student, or a reason.

The Canvas and Moodle exports are built here as those LMSs write them: Canvas's ``content_zipper.rb``
(the sortable name lower-cased without non-word characters, ``LATE`` or ``late``, the user id, the
attachment id, the upload's name; UTF-8 names without the zip's UTF-8 flag, as rubyzip writes them)
and Moodle's ``mod/assign`` downloader (``<full name>_<participant id>_assignsubmission_<plugin>``
then the file's path: ``/`` in 4.1 and later, ``_/`` in 3.x). The last test grades one class exported
all three ways with ``course grade``."""

from __future__ import annotations

import csv
import json
import os
import re
import struct
import sys
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from course_grading.lms.intake import Intake, Person, Roster, batch_warning, derived_id, intake, late_notices
from course_grading.lms.late import LatePolicy, SubmissionTimes
from course_grading.markers import MAX_FILE_BYTES
from course_grading.sandbox import limits as sandbox

NOTEBOOK = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
WHEN = (2026, 11, 20, 23, 59, 58)


def make_zip(path: Path, entries: dict[str, bytes], when: tuple[int, ...] = WHEN) -> Path:
    """A zip holding ``entries`` (name -> content), each stamped ``when``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in entries.items():
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, content)
    return path


EXPORT = "export.zip"  # intake_zip's archive, in the test's tmp_path


def intake_zip(tmp_path: Path, entries: dict[str, bytes], roster: Roster | None = None) -> Intake:
    """:func:`intake` of a1 from a zip of ``entries`` (``tmp_path / EXPORT``), unpacked into ``tmp_path / "out"``."""
    return intake(make_zip(tmp_path / EXPORT, entries), "a1", tmp_path / "out", roster)


def rejected(result: Intake, entry: str) -> str:
    """The reason ``entry`` was rejected (fails if it was not)."""
    reasons = [line[len(entry) + 2 :] for line in result.rejected if line.startswith(entry + ": ")]
    assert reasons, f"{entry} not rejected: {result.rejected}"
    return reasons[0]


# ------------------------------------------------------------------- exports as the LMSs write them


@dataclass(frozen=True)
class Student:
    """A student of a test class, as the roster, Canvas and Moodle know them."""

    id: str  # the course's id
    first: str
    last: str
    canvas_id: int
    participant: int  # Moodle's participant id for the assignment
    uploads: dict[str, bytes] = field(default_factory=dict)  # as Canvas names them, in upload order
    moodle_uploads: dict[str, bytes] | None = None  # as Moodle names them, if not the same
    late: bool = False
    online_text: str = ""  # Moodle's online text, beside the uploads

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


def canvas_prefix(student: Student, late: str = "LATE") -> str:
    """Canvas's ``get_filename``: the sortable name ("Last, First") with ``_digits_`` joined, lower-cased,
    ``LATE`` and the user id joined with ``_``, every non-word character removed."""
    sortable = re.sub(r"_(\d+)_", r"\1", f"{student.last}, {student.first}").lower()
    return re.sub(r"[^\w]", "", "_".join([sortable, *([late] if student.late else []), str(student.canvas_id)]))


def canvas_zip(path: Path, students: list[Student], late: str = "LATE") -> Path:
    """A Canvas "Download Submissions" zip: ``<prefix>_<attachment id>_<name>``, attachment ids growing with
    each upload, names in raw UTF-8 without the UTF-8 flag (rubyzip), every entry stamped with the download time."""
    entries, attachment = {}, 5000
    for student in students:
        for name, content in student.uploads.items():
            attachment += 1
            entries[f"{canvas_prefix(student, late)}_{attachment}_{name}"] = content
    return without_utf8_flags(make_zip(path, entries))


def without_utf8_flags(archive: Path) -> Path:
    """``archive`` with the zip UTF-8 flag cleared in every local and central header, names left as they are."""
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        infos, central = zf.infolist(), zf.start_dir
    for info in infos:
        struct.pack_into(
            "<H", data, info.header_offset + 6, struct.unpack_from("<H", data, info.header_offset + 6)[0] & ~0x800
        )
    for _ in infos:
        assert data[central : central + 4] == b"PK\x01\x02"
        struct.pack_into("<H", data, central + 8, struct.unpack_from("<H", data, central + 8)[0] & ~0x800)
        central += 46 + sum(struct.unpack_from("<HHH", data, central + 28))
    archive.write_bytes(bytes(data))
    return archive


def moodle_zip(path: Path, students: list[Student], version: int) -> Path:
    """A Moodle "Download all submissions" zip with "download as folders": per student and plugin a folder
    ``<full name>_<participant id>_assignsubmission_<plugin>``, with a trailing ``_`` before 4.1."""
    trail = "_" if version < 4 else ""
    entries = {}
    for student in students:
        prefix = f"{student.name.replace('_', ' ')}_{student.participant}_assignsubmission"
        for name, content in (
            student.moodle_uploads if student.moodle_uploads is not None else student.uploads
        ).items():
            entries[f"{prefix}_file{trail}/{name}"] = content
        if student.online_text:
            entries[f"{prefix}_onlinetext{trail}/onlinetext.html"] = f"<p>{student.online_text}</p>".encode()
    return make_zip(path, entries)


def write_roster(path: Path, students: list[Student]) -> Path:
    """The course's roster: Canvas user ids in lms_id (Moodle's entries then map by name)."""
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "name", "email", "lms_id"])
        for s in students:
            writer.writerow([s.id, s.name, f"{s.id}@uni.edu", s.canvas_id])
    return path


ROSTER = Roster(
    [
        Person("jsmith", "John Smith", "john@uni.edu", "12345"),
        Person("zmuller", "Zoë Müller", "zoe@uni.edu", ""),
        Person("alee", "Alice Lee", "alice@uni.edu", "777"),
        Person("alee2", "Lee Alice", "alee2@uni.edu", ""),
    ]
)


# ------------------------------------------------------------------------------- plain layouts


def test_plain_folder_takes_both_layouts_with_the_files_time(tmp_path: Path) -> None:
    (tmp_path / "subs" / "bob").mkdir(parents=True)
    (tmp_path / "subs" / "alice.ipynb").write_bytes(NOTEBOOK)
    (tmp_path / "subs" / "bob" / "a1.ipynb").write_bytes(NOTEBOOK)
    (tmp_path / "subs" / ".DS_Store").write_bytes(b"x")
    os.utime(tmp_path / "subs" / "alice.ipynb", (1_800_000_000, 1_800_000_000))
    result = intake(tmp_path / "subs", "a1", tmp_path / "out")
    assert sorted(result.submissions) == ["alice", "bob"] and result.rejected == []
    alice = result.submissions["alice"]
    assert alice.path == tmp_path / "subs" / "alice.ipynb" and alice.entry == "alice.ipynb"
    assert alice.submitted_at == datetime.fromtimestamp(1_800_000_000, UTC) and alice.time_source == "file"
    assert alice.submitted_at.tzinfo is not None
    assert any("modification time" in note for note in alice.notes)
    assert result.submissions["bob"].entry == "bob/a1.ipynb"
    assert batch_warning(result) is None


def test_plain_zip_in_a_wrapper_folder_with_macosx_junk(tmp_path: Path) -> None:
    result = intake_zip(
        tmp_path,
        {
            "export/alice.ipynb": NOTEBOOK,
            "export/bob/a1.ipynb": NOTEBOOK,
            "__MACOSX/export/._alice.ipynb": b"junk",
            "export/.hidden.ipynb": NOTEBOOK,
            "export/carol.pdf": b"%PDF",
        },
    )
    assert sorted(result.submissions) == ["alice", "bob"]
    assert result.submissions["alice"].path == tmp_path / "out" / "alice" / "a1.ipynb"
    assert result.submissions["alice"].path.read_bytes() == NOTEBOOK
    # A zip entry's DOS time is read in this machine's zone.
    assert result.submissions["alice"].submitted_at == datetime(*WHEN).astimezone()
    assert "not a notebook" in rejected(result, "carol.pdf")
    assert len(result.rejected) == 1  # the junk is ignored, not rejected


def test_zip_extended_timestamp_is_utc(tmp_path: Path) -> None:
    info = zipfile.ZipInfo("alice.ipynb", date_time=WHEN)
    info.extra = struct.pack("<HHBi", 0x5455, 5, 1, 1_800_000_000)
    with zipfile.ZipFile(tmp_path / "class.zip", "w") as zf:
        zf.writestr(info, NOTEBOOK)
    result = intake(tmp_path / "class.zip", "a1", tmp_path / "out")
    assert result.submissions["alice"].submitted_at == datetime.fromtimestamp(1_800_000_000, UTC)


def test_one_student_folder_is_not_taken_for_a_wrapper(tmp_path: Path) -> None:
    result = intake_zip(tmp_path, {"alice/a1.ipynb": NOTEBOOK})
    assert list(result.submissions) == ["alice"]


def test_unusable_plain_names_are_rejected_with_the_layouts(tmp_path: Path) -> None:
    result = intake_zip(tmp_path, {"two words.ipynb": NOTEBOOK, "notes.txt": b"x", "ok.ipynb": NOTEBOOK})
    assert "not a usable student id" in rejected(result, "two words.ipynb")
    assert "expected <student>.ipynb" in rejected(result, "notes.txt")
    assert list(result.submissions) == ["ok"]


def test_plain_ids_go_through_the_roster(tmp_path: Path) -> None:
    result = intake_zip(
        tmp_path, {"jsmith.ipynb": NOTEBOOK, "zoe@uni.edu.ipynb": NOTEBOOK, "stranger.ipynb": NOTEBOOK}, ROSTER
    )
    assert sorted(result.submissions) == ["jsmith", "zmuller"]  # by id, and by email
    assert "not on the roster" in rejected(result, "stranger.ipynb")


# -------------------------------------------------------------------------------------- Canvas


def canvas_export(tmp_path: Path) -> Path:
    return make_zip(
        tmp_path / "canvas.zip",
        {
            # John Smith handed a1_attention.ipynb in three times; Canvas renamed the later ones -1, -2.
            "smithjohn_12345_900_a1_attention.ipynb": b'{"v": 0}',
            # (Attachment ids order uploads too; here they disagree, to show the resubmission number decides.)
            "smithjohn_LATE_12345_905_a1_attention-2.ipynb": b'{"v": 2}',
            "smithjohn_LATE_12345_906_a1_attention-1.ipynb": b'{"v": 1}',
            "smithjohn_LATE_12345_907_report.pdf": b"%PDF",
            # Zoë Müller: non-ASCII name, not in the roster's lms_id column: matched by name.
            "müllerzoë_555_910_a1_attention.ipynb": NOTEBOOK,
            # Alice Lee / Lee Alice: two roster rows match the name "leealice".
            "leealice_888_920_a1.ipynb": NOTEBOOK,
            # Nobody on the roster by id or name.
            "doejane_999_930_a1.ipynb": NOTEBOOK,
        },
    )


def test_canvas_export_mapped_through_the_roster(tmp_path: Path) -> None:
    result = intake(canvas_export(tmp_path), "a1", tmp_path / "out", ROSTER)
    assert sorted(result.submissions) == ["jsmith", "zmuller"]
    john = result.submissions["jsmith"]
    assert john.entry == "smithjohn_LATE_12345_905_a1_attention-2.ipynb"  # the latest resubmission
    assert john.path.read_bytes() == b'{"v": 2}'
    assert john.submitted_at is None and john.time_source == "none"
    assert "Canvas marked it LATE" in john.notes
    assert any(
        note.startswith("3 notebooks handed in: the latest is graded") and "Canvas renames a later upload" in note
        for note in john.notes
    )
    # the unknown time is said once per batch (late_notices)
    assert not any("time" in note for note in john.notes) and john.attention == []
    assert "not a notebook (a PDF)" in rejected(result, "smithjohn_LATE_12345_907_report.pdf")
    assert any("matched to the roster by name" in note for note in result.submissions["zmuller"].notes)
    ambiguous = rejected(result, "leealice_888_920_a1.ipynb")
    assert "several roster rows" in ambiguous and "alee" in ambiguous and "alee2" in ambiguous
    assert "neither the Canvas user id 999" in rejected(result, "doejane_999_930_a1.ipynb")
    assert (result.entries, result.rejected_entries) == (4, 2)


def test_canvas_name_whose_row_has_another_user_id_is_rejected(tmp_path: Path) -> None:
    result = intake_zip(tmp_path, {"smithjohn_4444_1_a1.ipynb": NOTEBOOK}, ROSTER)
    assert "its lms_id is 12345, not 4444" in rejected(result, "smithjohn_4444_1_a1.ipynb")


def test_canvas_without_roster_derives_ids_from_names(tmp_path: Path) -> None:
    result = intake_zip(
        tmp_path,
        {
            "müllerzoë_555_1_a1.ipynb": NOTEBOOK,
            "smithjohn_1_2_a1.ipynb": NOTEBOOK,
            "smithjohn_2_3_a1.ipynb": NOTEBOOK,
            "anon_Xy12z_4_a1.ipynb": NOTEBOOK,
        },
    )
    # Two different Canvas users with the same name keep apart: their user id is appended.
    assert sorted(result.submissions) == ["canvas_anonxy12z", "mullerzoe", "smithjohn_1", "smithjohn_2"]
    assert any(
        "no roster: student id 'mullerzoe' made from the name" in note for note in result.submissions["mullerzoe"].notes
    )


def test_canvas_names_without_the_utf8_flag_are_read_as_utf8(tmp_path: Path) -> None:
    """rubyzip (Canvas) writes UTF-8 names without the zip UTF-8 flag: clear the flag as it does."""
    archive = make_zip(tmp_path / "c.zip", {"müllerzoë_555_1_a1.ipynb": NOTEBOOK})
    data = bytearray(archive.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        flags = struct.unpack_from("<H", data, at + offset)[0]
        struct.pack_into("<H", data, at + offset, flags & ~0x800)
    archive.write_bytes(bytes(data))
    assert not zipfile.ZipFile(archive).infolist()[0].flag_bits & 0x800
    result = intake(archive, "a1", tmp_path / "out", ROSTER)
    assert result.submissions["zmuller"].entry == "müllerzoë_555_1_a1.ipynb"


# -------------------------------------------------------------------------------------- Moodle


def moodle_export(tmp_path: Path) -> Path:
    return make_zip(
        tmp_path / "moodle.zip",
        {
            "Zoë Müller_123456_assignsubmission_file_/work/a1_attention.ipynb": NOTEBOOK,
            "Zoë Müller_123456_assignsubmission_onlinetext_/onlinetext.html": b"<p>done</p>",
            "John Smith_222222_assignsubmission_file_/a1.ipynb": NOTEBOOK,
            "John Smith_222222_assignsubmission_file_/helpers.py": b"x = 1",
            "Jane Doe_333333_assignsubmission_file_/report.pdf": b"%PDF",
        },
    )


def test_moodle_folders_with_a_non_ascii_name_without_roster(tmp_path: Path) -> None:
    result = intake(moodle_export(tmp_path), "a1", tmp_path / "out")
    assert sorted(result.submissions) == ["janedoe", "johnsmith", "zoemuller"]
    zoe = result.submissions["zoemuller"]
    assert zoe.entry == "Zoë Müller_123456_assignsubmission_file_/work/a1_attention.ipynb"
    assert zoe.path is not None and zoe.path.read_bytes() == NOTEBOOK and zoe.time_source == "none"
    assert any("no roster" in note for note in zoe.notes)
    assert (
        "Moodle online text ignored (only uploaded files are graded): Zoë "
        "Müller_123456_assignsubmission_onlinetext_/onlinetext.html"
    ) in zoe.notes
    assert "not a notebook (a Python file): not graded" in rejected(
        result, "John Smith_222222_assignsubmission_file_/helpers.py"
    )
    jane = result.submissions["janedoe"]  # only a PDF: a row that names it, held for the instructor
    assert jane.path is None and jane.attention == [
        "no notebook to grade; handed in: report.pdf (not a notebook (a PDF))"
    ]
    assert jane.notes[0] == jane.attention[0] and jane.entry == "Jane Doe_333333_assignsubmission_file_/report.pdf"
    assert (result.entries, result.rejected_entries) == (3, 0) and len(result.rejected) == 1


def test_moodle_maps_by_lms_id_before_name(tmp_path: Path) -> None:
    roster = Roster([Person("zm", "Zoe Muller", "", "123456"), Person("js", "Smith, John", "", "")])
    result = intake(moodle_export(tmp_path), "a1", tmp_path / "out", roster)
    assert sorted(result.submissions) == ["js", "zm"]
    assert not any("by name" in note for note in result.submissions["zm"].notes)
    assert any("by name" in note for note in result.submissions["js"].notes)
    assert "neither the Moodle participant id 333333" in rejected(
        result, "Jane Doe_333333_assignsubmission_file_/report.pdf"
    )


def test_moodle_flat_files(tmp_path: Path) -> None:
    result = intake_zip(tmp_path, {"Zoë Müller_123456_assignsubmission_file_a1.ipynb": NOTEBOOK}, ROSTER)
    assert list(result.submissions) == ["zmuller"]


def test_an_upload_named_like_another_participants_entry_stays_its_uploaders(tmp_path: Path) -> None:
    """attacks_r: Eve (555) uploads ``x_777_assignsubmission_file_a1 (9).ipynb``; Moodle's flat export prefixes her
    own name and id. Read up to the last ``_<id>_assignsubmission_``, it was Victor's (777) latest notebook; the
    first one is Moodle's, the rest is the upload's name."""
    entries = {
        "Eve Smith_555_assignsubmission_file_x_777_assignsubmission_file_a1 (9).ipynb": b"eve" + NOTEBOOK,
        "Victor Vic_777_assignsubmission_file_a1.ipynb": NOTEBOOK,
    }
    roster = Roster([Person("victor", "Victor Vic", "", "777"), Person("eve", "Eve Smith", "", "555")])
    for given in (roster, None):
        folder = tmp_path / ("roster" if given else "none")
        folder.mkdir()
        result = intake_zip(folder, entries, given)
        victor = result.submissions["victor" if given else "victorvic"]
        assert victor.entry == "Victor Vic_777_assignsubmission_file_a1.ipynb" and not victor.attention
        assert victor.path is not None and victor.path.read_bytes() == NOTEBOOK
        eve = result.submissions["eve" if given else "evesmith"]
        assert eve.entry.startswith("Eve Smith_555_") and eve.path is not None and eve.path.read_bytes()[:3] == b"eve"


def test_two_accounts_matched_to_one_student_by_name_are_held_not_merged(tmp_path: Path) -> None:
    """attacks_r: two Moodle participants named alike (namesakes) and a roster without lms_id: the other person's
    ``a1 (1).ipynb`` was Victor's latest. Neither account is graded as his; the row asks which is his."""
    entries = {
        "Victor Vic_777_assignsubmission_file_/a1.ipynb": NOTEBOOK,
        "Victor Vic_999_assignsubmission_file_/a1 (1).ipynb": b"other" + NOTEBOOK,
    }
    result = intake_zip(tmp_path, entries, Roster([Person("victor", "Victor Vic")]))
    victor = result.submissions["victor"]
    assert victor.path is None and len(victor.attention) == 1, victor
    assert "2 accounts of the export map to victor" in victor.attention[0]
    assert "Moodle participant id 777" in victor.attention[0] and "Moodle participant id 999" in victor.attention[0]


def test_an_account_matched_by_name_only_never_joins_the_one_the_roster_names(tmp_path: Path) -> None:
    """Where the roster's lms_id says which account is the student's, another account of that name is rejected."""
    entries = {
        "Victor Vic_777_assignsubmission_file_/a1.ipynb": NOTEBOOK,
        "Victor Vic_999_assignsubmission_file_/a1 (1).ipynb": b"other" + NOTEBOOK,
    }
    result = intake_zip(tmp_path, entries, Roster([Person("victor", "Victor Vic", "", "777")]))
    victor = result.submissions["victor"]
    assert victor.entry == "Victor Vic_777_assignsubmission_file_/a1.ipynb" and not victor.attention
    assert victor.path is not None and victor.path.read_bytes() == NOTEBOOK
    assert "matches victor by name only" in rejected(result, "Victor Vic_999_assignsubmission_file_/a1 (1).ipynb")
    assert (result.entries, result.rejected_entries) == (2, 1)


def test_a_look_alike_name_in_compatibility_letters_matches_no_one(tmp_path: Path) -> None:
    """attacks_r: a full-width ``Ｖｉｃｔｏｒ Ｖｉｃ`` folded (NFKD) to Victor Vic's key; accents still fold away."""
    entries = {
        "Ｖｉｃｔｏｒ Ｖｉｃ_555_assignsubmission_file_/a1.ipynb": NOTEBOOK,
        "Zoë Müller_123_assignsubmission_file_/a1.ipynb": NOTEBOOK,
    }
    result = intake_zip(tmp_path, entries, Roster([Person("victor", "Victor Vic"), Person("zm", "Zoe Muller")]))
    assert sorted(result.submissions) == ["zm"]
    assert "neither the Moodle participant id 555" in rejected(
        result, "Ｖｉｃｔｏｒ Ｖｉｃ_555_assignsubmission_file_/a1.ipynb"
    )


def test_a_file_names_line_break_reaches_no_note_or_rejection(tmp_path: Path) -> None:
    """attacks_r: a newline in an upload's name printed a line of its own (``Total: 12.0 of 12.0``) in a report."""
    forged = "x\nTotal: 12.0 of 12.0.ipynb"
    entries = {
        "Victor Vic_777_assignsubmission_file_/a1.ipynb": NOTEBOOK,
        f"Victor Vic_777_assignsubmission_file_/{forged}": NOTEBOOK,
        "Victor Vic_777_assignsubmission_file_/notes\nTotal: 12.0 of 12.0.txt": b"x",
    }
    archive = make_zip(tmp_path / EXPORT, entries)
    link = zipfile.ZipInfo("Victor Vic_777_assignsubmission_file_/a1-link.ipynb", date_time=WHEN)
    link.external_attr = 0o120777 << 16
    with zipfile.ZipFile(archive, "a") as zf:
        zf.writestr(link, "/etc/passwd")
    result = intake(archive, "a1", tmp_path / "out", Roster([Person("victor", "Victor Vic", "", "777")]))
    victor = result.submissions["victor"]
    assert victor.entry.endswith("/a1.ipynb") and victor.notes
    texts = [*victor.notes, *result.rejected]
    assert not [t for t in texts if "\n" in t] and [t for t in texts if "\\nTotal: 12.0 of 12.0" in t], texts
    assert any("Total: 12.0 of 12.0.txt" in note for note in victor.notes)  # the student is told, on one line
    assert any("a1-link.ipynb (a symbolic link" in note for note in victor.notes), victor.notes  # and of the link


# ---------------------------------------------------------------------------- choosing a notebook


def test_a_notebook_named_for_another_assignment_is_taken_when_alone(tmp_path: Path) -> None:
    result = intake_zip(
        tmp_path,
        {
            "smithjohn_1_1_a2_blocks.ipynb": NOTEBOOK,  # alone: taken, with a note
            "doejane_2_2_scratch.ipynb": NOTEBOOK,  # two notebooks, neither named like a1: a row, nothing graded
            "doejane_2_3_a2_blocks.ipynb": NOTEBOOK,
            "leealice_3_4_a1.ipynb": NOTEBOOK,  # named like a1, and another one: a1 taken
            "leealice_3_5_a10.ipynb": NOTEBOOK,
        },
    )
    assert sorted(result.submissions) == ["doejane", "leealice", "smithjohn"]
    assert any(
        "not named like a1.ipynb: graded as the only notebook" in n for n in result.submissions["smithjohn"].notes
    )
    jane = result.submissions["doejane"]
    assert (
        jane.path is None
        and "several notebooks handed in and none named like a1.ipynb (scratch.ipynb, a2_blocks.ipynb)"
        in jane.attention[0]
    )
    assert result.submissions["leealice"].entry == "leealice_3_4_a1.ipynb"
    assert any("leealice_3_5_a10.ipynb" in n and "not graded" in n for n in result.submissions["leealice"].notes)


def test_plain_duplicates_keep_the_later_file(tmp_path: Path) -> None:
    (tmp_path / "s" / "alice").mkdir(parents=True)
    (tmp_path / "s" / "alice.ipynb").write_bytes(b"old")
    (tmp_path / "s" / "alice" / "a1.ipynb").write_bytes(b"new")
    os.utime(tmp_path / "s" / "alice.ipynb", (1_700_000_000, 1_700_000_000))
    os.utime(tmp_path / "s" / "alice" / "a1.ipynb", (1_700_000_100, 1_700_000_100))
    result = intake(tmp_path / "s", "a1", tmp_path / "out")
    assert result.submissions["alice"].entry == "alice/a1.ipynb"
    assert any("the latest is graded" in n and "alice.ipynb" in n for n in result.submissions["alice"].notes)


# ------------------------------------------------------------------------------ hostile exports


def test_zip_slip_links_and_huge_entries_are_refused(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "evil.zip",
        {
            "../escape.ipynb": NOTEBOOK,
            "/abs.ipynb": NOTEBOOK,
            "ok.ipynb": NOTEBOOK,
            "big.ipynb": b" " * (MAX_FILE_BYTES + 1),
        },
    )
    link = zipfile.ZipInfo("linked.ipynb", date_time=WHEN)
    link.external_attr = 0o120777 << 16
    with zipfile.ZipFile(archive, "a") as zf:
        zf.writestr(link, "/etc/passwd")
    result = intake(archive, "a1", tmp_path / "out" / "deep")
    assert "leaves the export" in rejected(result, "../escape.ipynb")
    assert "leaves the export" in rejected(result, "/abs.ipynb")
    # Named after a student, they are that student's rows, held with the reason; nothing is followed or unpacked.
    assert (
        "linked.ipynb (a symbolic link (or not a regular file): not followed)"
        in result.submissions["linked"].attention[0]
    )
    assert (
        "big.ipynb (the file is larger than 128 MiB (outputs included): not read)"
        in result.submissions["big"].attention[0]
    )
    assert [s for s, sub in result.submissions.items() if sub.path is not None] == ["ok"]
    assert not (tmp_path / "out" / "escape.ipynb").exists() and not (tmp_path / "escape.ipynb").exists()
    assert sorted(p.name for p in (tmp_path / "out" / "deep").rglob("*") if p.is_file()) == ["a1.ipynb"]


def test_a_notebook_large_only_by_its_outputs_is_taken(tmp_path: Path) -> None:
    """Outputs are never graded: 26 MB of stored plots (over the old 20 MiB file limit) is not a reason to refuse."""
    (tmp_path / "s").mkdir()
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "id": "c1",
        "metadata": {},
        "source": "x = 1",
        "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": "A" * (26 * 10**6)}}],
    }
    (tmp_path / "s" / "ann.ipynb").write_text(
        json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    result = intake(tmp_path / "s", "a1", tmp_path / "out")
    assert result.submissions["ann"].path is not None and not result.submissions["ann"].attention


def test_symlinks_in_a_folder_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "secret.ipynb").write_bytes(NOTEBOOK)
    (tmp_path / "s" / "mallory.ipynb").symlink_to(tmp_path / "secret.ipynb")
    (tmp_path / "s" / "eve").symlink_to(tmp_path, target_is_directory=True)
    result = intake(tmp_path / "s", "a1", tmp_path / "out")
    assert [sub.path for sub in result.submissions.values()] == [None]
    assert "not followed" in result.submissions["mallory"].attention[0]
    assert "symbolic link" in rejected(result, "eve")


def test_corrupt_zip_and_other_files_raise(tmp_path: Path) -> None:
    good = make_zip(tmp_path / "good.zip", {"alice.ipynb": NOTEBOOK})
    (tmp_path / "cut.zip").write_bytes(good.read_bytes()[:-30])
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="corrupt or truncated zip"):
        intake(tmp_path / "cut.zip", "a1", tmp_path / "out")
    with pytest.raises(ValueError, match="neither a folder nor a .zip"):
        intake(tmp_path / "notes.txt", "a1", tmp_path / "out")
    with pytest.raises(ValueError, match="neither a folder nor a .zip"):
        intake(tmp_path / "missing", "a1", tmp_path / "out")


def test_a_damaged_entry_is_rejected_not_fatal(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "c.zip", {"alice.ipynb": NOTEBOOK * 50, "bob.ipynb": NOTEBOOK})
    data = bytearray(archive.read_bytes())
    data[60] ^= 0xFF  # inside alice's compressed data
    archive.write_bytes(bytes(data))
    result = intake(archive, "a1", tmp_path / "out")
    alice = result.submissions["alice"]  # a row saying why, not only a rejection
    assert alice.path is None and alice.attention[0].startswith("alice.ipynb could not be read from the zip (")
    assert result.submissions["bob"].path is not None and result.rejected == []
    assert not (tmp_path / "out" / "alice").exists() or not any((tmp_path / "out" / "alice").iterdir())


# ------------------------------------------------------------------------------ batch warnings


def test_batch_warning_when_empty_or_mostly_rejected(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert "no entries" in (batch_warning(intake(tmp_path / "empty", "a1", tmp_path / "o")) or "")
    mostly = intake(
        make_zip(tmp_path / "m.zip", {"a.pdf": b"x", "b.pdf": b"x", "ok.ipynb": NOTEBOOK}), "a1", tmp_path / "o"
    )
    assert "2 of 3 entries were rejected or held no notebook" in (batch_warning(mostly) or "")
    half = intake(make_zip(tmp_path / "h.zip", {"a.pdf": b"x", "ok.ipynb": NOTEBOOK}), "a1", tmp_path / "o")
    assert batch_warning(half) is None
    none = intake(make_zip(tmp_path / "n.zip", {"a.pdf": b"x"}), "a1", tmp_path / "o")
    assert "none of the 1 entries" in (batch_warning(none) or "")
    only_pdfs = intake(make_zip(tmp_path / "p.zip", {"ann/a1.pdf": b"x", "bob/a1.html": b"x"}), "a1", tmp_path / "o")
    assert len(only_pdfs.submissions) == 2 and "none of the 2 entries gave a notebook" in (
        batch_warning(only_pdfs) or ""
    )


# -------------------------------------------------------------------------------------- roster


def test_roster_reads_a_csv_with_extra_columns_and_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(
        "\ufeffID,Name,Email,lms_id,section\njsmith,John Smith,john@uni.edu,12345,A\nzm,,, ,B\n", encoding="utf-8"
    )
    assert Roster.read(path).people == [Person("jsmith", "John Smith", "john@uni.edu", "12345"), Person("zm")]


def test_roster_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_bytes("id,name\nzm,Zoë\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8"):
        Roster.read(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name,email\nJohn,j@x\n",
            "line 1: the header has no 'id' column .*expected the columns id, name, email, lms_id",
        ),
        ("id,lms_id\na,1\nb,2\na,3\n", "line 4: id 'a' is already on line 2"),
        ("id,lms_id\na,1\nb,1\n", "line 3: lms_id '1' is already on line 2"),
        ("id,email\na,X@y.edu\nb,x@Y.edu\n", "line 3: email 'x@y.edu' is already on line 2"),
        (
            "id\nok\nnot ok\n",
            "line 3: 'not ok' is not a usable student id .*expected the columns id, name, email, lms_id",
        ),
        ("", "the header has no 'id' column"),
        ('id,name\na,"unclosed\n', "line 2: not valid CSV"),
    ],
)
def test_roster_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        Roster.read(path)


def test_roster_reads_canvas_gradebook_export(tmp_path: Path) -> None:
    """Canvas's own gradebook export as the roster: its "Points Possible" row skipped, the SIS login (else
    the SIS user id, else an id made from the name) as the course id, the Canvas user id as lms_id."""
    path = tmp_path / "gradebook.csv"
    path.write_text(
        "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,a1_attention (98765),Current Score\n"
        "    Points Possible,,,,,12.00,(read only)\n"
        '"Smith, John",12345,s1001,jsmith,PT2026,,\n'
        '"Kierkegaard, Søren",12346,s1002,,PT2026,,\n'
        '"Müller, Zoë",12347,,zoe@uni.edu,PT2026,,\n'
        '"李, 伟",12348,,,PT2026,,\n'
        '"Nguyễn, An",12349,,,PT2026,,\n',
        encoding="utf-8",
    )
    people = Roster.read(path).people
    assert people == [
        Person("jsmith", "Smith, John", "", "12345"),
        Person("s1002", "Kierkegaard, Søren", "", "12346"),
        Person("zoe@uni.edu", "Müller, Zoë", "zoe@uni.edu", "12347"),
        Person("canvas_12348", "李, 伟", "", "12348"),
        Person("nguyenan", "Nguyễn, An", "", "12349"),
    ]
    result = intake(
        make_zip(tmp_path / "c.zip", {"müllerzoë_12347_1_a1.ipynb": NOTEBOOK, "李伟_12348_2_a1.ipynb": NOTEBOOK}),
        "a1",
        tmp_path / "out",
        Roster(people),
    )
    assert sorted(result.submissions) == ["canvas_12348", "zoe@uni.edu"]
    assert result.missing == ["jsmith", "s1002", "nguyenan"]


# ----------------------------------------------------------------------------- Moodle 3 and 4


MOODLE_CLASS = [
    Student("zm", "Zoë", "Müller", 101, 500101, {"a1_attention.ipynb": b'{"zm": 1}'}, online_text="see my notebook"),
    Student("js", "John", "Smith", 102, 500102, {"work/a1.ipynb": b'{"js": 1}', "work/helpers.py": b"x = 1"}),
    Student(
        "ai",
        "Анна",
        "Иванова",
        103,
        500103,
        {"a1.ipynb": b'{"ai": 0}', "a1 (1).ipynb": b'{"ai": 1}', "a1 (2).ipynb": b'{"ai": 2}'},
    ),
    Student("lh", "ليلى", "حداد", 104, 500104, {"a1.ipynb": b'{"lh": 0}', "a1-1.ipynb": b'{"lh": 1}'}),
    Student("jd", "Jane", "Doe", 105, 500105, {"report.pdf": b"%PDF", "a1.html": b"<html>", "a1.zip": b"PK"}),
    Student("on", "Only", "Text", 106, 500106, online_text="I wrote it here"),
]
ROSTER_MOODLE = Roster(
    [Person(s.id, s.name, f"{s.id}@uni.edu", "") for s in MOODLE_CLASS] + [Person("kim", "김 민준", "kim@uni.edu", "")]
)


@pytest.mark.parametrize("version", [3, 4])
def test_moodle_3_and_4_exports_are_read_alike(tmp_path: Path, version: int) -> None:
    result = intake(moodle_zip(tmp_path / "m.zip", MOODLE_CLASS, version), "a1", tmp_path / "out", ROSTER_MOODLE)
    folder = "_assignsubmission_file" + ("_" if version == 3 else "")
    subs = result.submissions
    assert sorted(subs) == ["ai", "jd", "js", "lh", "on", "zm"] and result.missing == ["kim"]
    assert subs["zm"].entry == f"Zoë Müller_500101{folder}/a1_attention.ipynb" and subs["zm"].path is not None
    assert subs["zm"].path.read_bytes() == b'{"zm": 1}' and subs["zm"].attention == []
    # The online text plugin's folder: ignored, with a note, not a rejection.
    assert any(n.startswith("Moodle online text ignored") and "onlinetext" in n for n in subs["zm"].notes)
    assert subs["js"].path is not None and subs["js"].path.read_bytes() == b'{"js": 1}'
    assert "not a notebook (a Python file)" in rejected(result, f"John Smith_500102{folder}/work/helpers.py")
    # Moodle's own renaming tells the order: "a1 (2).ipynb" came after "a1 (1).ipynb" after "a1.ipynb".
    ai = subs["ai"]
    assert ai.path is not None and ai.path.read_bytes() == b'{"ai": 2}' and ai.attention == []
    assert any(
        n.startswith("3 notebooks handed in: the latest is graded") and "Moodle renames a later upload" in n
        for n in ai.notes
    ), ai.notes
    # "-1" is not Moodle's: nothing tells which is the latest, so the submission waits for the instructor.
    lh = subs["lh"]
    assert lh.path is not None and len(lh.attention) == 1 and "nothing tells which is the latest" in lh.attention[0]
    assert lh.notes[0] == lh.attention[0] and "no grade is exported" in lh.attention[0]
    # No notebook: a row that names what was handed in.
    assert subs["jd"].path is None and subs["jd"].attention[0] == (
        "no notebook to grade; handed in: report.pdf (not a notebook (a PDF)); a1.html (not a notebook (an HTML "
        "page)); a1.zip (not a notebook (a zip archive))"
    )
    assert subs["on"].path is None and "only Moodle's online text" in subs["on"].attention[0]
    assert len(result.rejected) == 1  # helpers.py, beside the graded notebook
    assert (result.entries, result.rejected_entries) == (6, 0) and batch_warning(result) is None


def test_moodle_4_blind_marking_and_flat_files(tmp_path: Path) -> None:
    entries = {
        "Participant_500107_assignsubmission_file/a1.ipynb": NOTEBOOK,
        "Eve Stone_500108_assignsubmission_file_a1 (1).ipynb": NOTEBOOK,
        "Eve Stone_500108_assignsubmission_file_a1.ipynb": b"{}",
    }
    result = intake_zip(tmp_path, entries, Roster([Person("p7", "Somebody", "", "500107"), Person("es", "Eve Stone")]))
    assert sorted(result.submissions) == ["es", "p7"]
    # flat files: the same renaming
    assert result.submissions["es"].entry == "Eve Stone_500108_assignsubmission_file_a1 (1).ipynb"
    unmapped = intake(tmp_path / EXPORT, "a1", tmp_path / "out2", Roster([Person("es", "Eve Stone")]))
    assert "not in the roster's lms_id column, and the export gives no name" in rejected(
        unmapped, "Participant_500107_assignsubmission_file/a1.ipynb"
    )


# ---------------------------------------------------------------------------------- Canvas, late


def test_canvas_late_in_either_case_is_the_same_student(tmp_path: Path) -> None:
    """Canvas versions that lower-case the whole prefix write ``_late_``: the same student as ``_LATE_``."""
    rossi = Student("ir", "Isabella", "Rossi", 1005, 0, {"a1.ipynb": NOTEBOOK}, late=True)
    for late in ("LATE", "late"):
        archive = canvas_zip(tmp_path / f"{late}.zip", [rossi], late)
        assert zipfile.ZipFile(archive).namelist() == [f"rossiisabella_{late}_1005_5001_a1.ipynb"]
        alone = intake(archive, "a1", tmp_path / late)
        assert (
            list(alone.submissions) == ["rossiisabella"]
            and "Canvas marked it LATE" in alone.submissions["rossiisabella"].notes
        )
        mapped = intake(archive, "a1", tmp_path / f"{late}-r", Roster([Person("ir", "Isabella Rossi", "", "1005")]))
        assert list(mapped.submissions) == ["ir"] and not any("by name" in n for n in mapped.submissions["ir"].notes)


def test_ids_without_a_roster_keep_latin_letters(tmp_path: Path) -> None:
    assert [derived_id(n) for n in ("Kierkegaard, Søren", "Æbeltoft Straße", "Łukasz Đorđević", "李伟")] == [
        "kierkegaardsoren",
        "aebeltoftstrasse",
        "lukaszdordevic",
        "",
    ]
    soren = Student("sk", "Søren", "Kierkegaard", 1006, 0, {"a1.ipynb": NOTEBOOK})
    result = intake(canvas_zip(tmp_path / "c.zip", [soren]), "a1", tmp_path / "out")
    assert list(result.submissions) == ["kierkegaardsoren"]


def test_plain_files_with_equal_times_need_attention(tmp_path: Path) -> None:
    (tmp_path / "s" / "alice").mkdir(parents=True)
    (tmp_path / "s" / "alice.ipynb").write_bytes(b"one")
    (tmp_path / "s" / "alice" / "a1.ipynb").write_bytes(b"two")
    for name in ("alice.ipynb", "alice/a1.ipynb"):
        os.utime(tmp_path / "s" / name, (1_700_000_000, 1_700_000_000))
    alice = intake(tmp_path / "s", "a1", tmp_path / "out").submissions["alice"]
    assert alice.entry == "alice/a1.ipynb" and "nothing tells which is the latest" in alice.attention[0]


# ------------------------------------------------------------------------------ times and late


def test_times_from_a_list_by_course_id_canvas_id_or_moodle_participant(tmp_path: Path) -> None:
    late = datetime(2026, 11, 21, 1, 0, tzinfo=UTC)
    times = SubmissionTimes(
        tmp_path / "times.csv",
        {"zm": late, "102": late - timedelta(hours=3), "ghost": late},
        {"500103": late + timedelta(days=1), "599999": late},
    )
    canvas = canvas_zip(
        tmp_path / "c.zip",
        [
            Student("zm", "Zoë", "Müller", 101, 0, {"a1.ipynb": NOTEBOOK}),
            Student("js", "John", "Smith", 102, 0, {"a1.ipynb": NOTEBOOK}),
            Student("ai", "Анна", "Иванова", 103, 0, {"a1.ipynb": NOTEBOOK}),
        ],
    )
    roster = Roster(
        [
            Person("zm", "Zoë Müller", "", "101"),
            Person("js", "John Smith", "", "102"),
            Person("ai", "Анна Иванова", "", "103"),
        ]
    )
    result = intake(canvas, "a1", tmp_path / "out", roster, times)
    subs = result.submissions
    assert (subs["zm"].submitted_at, subs["zm"].time_source) == (late, "times")
    assert subs["js"].submitted_at == late - timedelta(hours=3)  # by Canvas user id
    assert (subs["ai"].submitted_at, subs["ai"].time_source) == (None, "none")
    assert result.notices == [
        "--times times.csv: no submission in this export for ghost, Participant 500103, Participant "
        "599999: those times were not used"
    ]
    moodle = intake(moodle_zip(tmp_path / "m.zip", MOODLE_CLASS[2:3], 4), "a1", tmp_path / "out2", ROSTER_MOODLE, times)
    # by participant id, no roster needed for it
    assert moodle.submissions["ai"].submitted_at == late + timedelta(days=1)
    # A plain file's own time gives way to the list's.
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "zm.ipynb").write_bytes(NOTEBOOK)
    plain = intake(tmp_path / "p", "a1", tmp_path / "out3", None, times).submissions["zm"]
    assert (plain.submitted_at, plain.time_source) == (late, "times") and not any(
        "modification time" in n for n in plain.notes
    )


def test_late_notices_say_once_what_the_policy_cannot_see(tmp_path: Path) -> None:
    policy = LatePolicy(
        datetime(2026, 11, 20, 23, 59, tzinfo=UTC),
        extensions={"zm": datetime(2026, 11, 22, tzinfo=UTC), "zoe": datetime(2026, 11, 22, tzinfo=UTC)},
    )
    result = intake(moodle_zip(tmp_path / "m.zip", MOODLE_CLASS, 4), "a1", tmp_path / "out", ROSTER_MOODLE)
    notices = late_notices(result, policy, ROSTER_MOODLE)
    assert notices == [
        "--due: 6 of 6 submissions have no submission time (ai, jd, js, lh, on and 1 more): a Canvas or Moodle export "
        "records none, so no late penalty is applied to them; give the times with --times CSV",
        "--extensions: zoe not on the roster: their extension applies to nobody; use the course's student ids",
    ]
    assert late_notices(result, None, ROSTER_MOODLE) == []
    assert (
        "--extensions: zm, zoe not in this batch"
        in late_notices(
            intake(make_zip(tmp_path / "p.zip", {"ann.ipynb": NOTEBOOK}), "a1", tmp_path / "o"), policy, None
        )[0]
    )


# --------------------------------------------------------------------------------- end to end


@pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)
def test_one_class_from_canvas_moodle_3_and_moodle_4_gets_the_same_grades(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class of nine (names in six scripts) exported from Canvas, Moodle 3 and Moodle 4 and graded by
    ``course grade`` into one output folder: the same score and status per student from each export.
    The Moodle batches grade nothing again: intake gave every student the very notebook the Canvas
    batch graded (the cache is keyed by content). Two notebooks in one submission (Canvas ``-1``,
    Moodle ``(1)``: the later one is worth less, so the wrong choice would show), a late submission
    whose time comes from ``--times``, an empty notebook, a PDF hand-in and a student with nothing."""
    from test_course_grade import LIMITS, course_copy

    from course_grading import cli

    from hostile_submissions import ASSIGNMENT, FULL, MISSING_SCALE, notebook, without

    stub = "raise NotImplementedError()\n"
    correct, no_scale, no_masks, both = (
        notebook(),
        notebook({"sdpa": MISSING_SCALE}),
        notebook({"masks": stub}),
        notebook({"sdpa": MISSING_SCALE, "masks": stub}),
    )
    nb = f"{ASSIGNMENT}.ipynb"
    students = [
        Student("zm", "Zoë", "Müller", 1001, 500101, {nb: correct}),
        Student("sk", "Søren", "Kierkegaard", 1002, 500102, {nb: no_scale}),
        Student("wl", "伟", "李", 1003, 500103, {nb: no_masks}),
        Student(
            "ai",
            "Анна",
            "Иванова",
            1004,
            500104,
            {nb: correct, f"{ASSIGNMENT}-1.ipynb": both},
            {nb: correct, f"{ASSIGNMENT} (1).ipynb": both},
        ),
        Student("lh", "ليلى", "حداد", 1005, 500105, {nb: correct}, online_text="شكرا"),
        Student("nv", "Văn An", "Nguyễn", 1006, 500106, {nb: b""}),
        Student("ir", "Isabella", "Rossi", 1007, 500107, {nb: correct}, late=True),
        Student("jd", "Jane", "Doe", 1008, 500108, {"report.pdf": b"%PDF-1.7"}),
    ]
    missing = Student("mk", "민준", "김", 1009, 500109)
    expected = {  # student -> (total, status)
        "zm": ("12", "graded"), "sk": (f"{sum(without('sdpa').values()):g}", "graded"),
        "wl": (f"{sum(without('masks').values()):g}", "graded"),
        "ai": (f"{sum(without('sdpa', 'masks').values()):g}", "graded"), "lh": ("12", "graded"),
        "nv": ("0", "needs attention"),
        "ir": ("10.8", "graded"), "jd": ("0", "needs attention"), "mk": ("", "missing"),
    }  # fmt: skip
    assert sum(FULL.values()) == 12
    course, out = course_copy(tmp_path / "course"), tmp_path / "out"
    roster = write_roster(tmp_path / "roster.csv", [*students, missing])
    (tmp_path / "times.csv").write_text("student,time\nir,2026-11-21T00:59:00Z\n")  # an hour late: -10%
    exports = {
        "canvas": canvas_zip(tmp_path / "PT2026-A1 submissions.zip", students, late="late"),
        "moodle3": moodle_zip(tmp_path / "moodle3.zip", students, 3),
        "moodle4": moodle_zip(tmp_path / "PT2026-A1 attention-4711.zip", students, 4),
    }
    bar = cli.ProgressBar
    # its default stream is the stderr of the moment cli was imported
    monkeypatch.setattr(cli, "ProgressBar", lambda: bar(sys.stderr))
    grades: dict[str, dict[str, tuple[str, ...]]] = {}
    for lms, export in exports.items():
        command = ["--course", str(course), "grade", ASSIGNMENT, str(export), "--roster", str(roster),
                   "--out", str(out), "--jobs", "2", "--dry-run", "--cell-timeout", str(LIMITS.cell_s),
                   "--due", "2026-11-20T23:59Z", "--late-penalty", "10%/day",
                   "--times", str(tmp_path / "times.csv")]  # fmt: skip
        assert cli.main(command) == 0, lms
        err = capsys.readouterr().err.splitlines()
        warned = [k for k, line in enumerate(err) if line.startswith("warning: --due:")]
        assert [err[k] for k in warned] == [
            "warning: --due: 7 of 8 submissions have no submission time (ai, jd, lh, nv, sk and 2 more): a Canvas or "
            "Moodle export records none, so no late penalty is applied to them; give the times with --times CSV"
        ], (lms, err)  # fmt: skip
        graded_now = [k for k, line in enumerate(err) if line.startswith("[")]
        assert all(warned[0] < k for k in graded_now), err  # said once, before anything is graded
        # the Moodle batches: every notebook the same as Canvas's
        assert len(graded_now) == (8 if lms == "canvas" else 0), (lms, graded_now)
        with (out / "grades.csv").open(encoding="utf-8-sig") as f:
            rows = {row["student"]: row for row in csv.DictReader(f)}
        grades[lms] = {s: (*(row[p] for p in FULL), row["total"], row["status"]) for s, row in rows.items()}
        assert {s: (row["total"], row["status"]) for s, row in rows.items()} == expected, lms
        notes = {s: row["notes"] for s, row in rows.items()}
        assert ("Canvas marked it LATE" in notes["ir"]) == (lms == "canvas"), notes["ir"]
        assert "submitted 1 h late" in notes["ir"] and "-10%" in notes["ir"]
        assert "no notebook to grade; handed in: report.pdf (not a notebook (a PDF))" in notes["jd"]
        assert ("Moodle online text ignored" in notes["lh"]) == (lms != "canvas")
        assert "3 notebooks" not in notes["ai"] and "2 notebooks handed in: the latest is graded" in notes["ai"]
        imported = (out / "canvas_import.csv").read_text(encoding="utf-8-sig")
        # graded only: no 0 for jd, nv or mk
        assert {row[1] for row in csv.reader(imported.splitlines()[1:])} == {
            "1001",
            "1002",
            "1003",
            "1004",
            "1005",
            "1007",
        }
        assert "report.pdf" in (out / "feedback" / "jd.html").read_text()
        first_reason = re.search(r"<li>([^<]*)</li>", (out / "feedback" / "nv.html").read_text())
        # the empty file first, not a time or roster note
        assert first_reason and "empty" in first_reason[1], first_reason
    assert grades["canvas"] == grades["moodle3"] == grades["moodle4"]
