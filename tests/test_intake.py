"""course_grading.intake: LMS exports (plain, Canvas, Moodle) to one notebook per student, or a reason."""

from __future__ import annotations

import os
import struct
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from course_grading.intake import MAX_ENTRY_BYTES, Intake, Person, Roster, batch_warning, intake

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


def rejected(result: Intake, entry: str) -> str:
    """The reason ``entry`` was rejected (fails if it was not)."""
    reasons = [line[len(entry) + 2 :] for line in result.rejected if line.startswith(entry + ": ")]
    assert reasons, f"{entry} not rejected: {result.rejected}"
    return reasons[0]


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
    assert alice.submitted_at == datetime.fromtimestamp(1_800_000_000, timezone.utc) and alice.time_source == "file"
    assert alice.submitted_at.tzinfo is not None
    assert any("modification time" in note for note in alice.notes)
    assert result.submissions["bob"].entry == "bob/a1.ipynb"
    assert batch_warning(result) is None


def test_plain_zip_in_a_wrapper_folder_with_macosx_junk(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "class.zip",
        {"export/alice.ipynb": NOTEBOOK, "export/bob/a1.ipynb": NOTEBOOK, "__MACOSX/export/._alice.ipynb": b"junk", "export/.hidden.ipynb": NOTEBOOK, "export/carol.pdf": b"%PDF"},
    )
    result = intake(archive, "a1", tmp_path / "out")
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
    assert result.submissions["alice"].submitted_at == datetime.fromtimestamp(1_800_000_000, timezone.utc)


def test_one_student_folder_is_not_taken_for_a_wrapper(tmp_path: Path) -> None:
    result = intake(make_zip(tmp_path / "one.zip", {"alice/a1.ipynb": NOTEBOOK}), "a1", tmp_path / "out")
    assert list(result.submissions) == ["alice"]


def test_unusable_plain_names_are_rejected_with_the_layouts(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "c.zip", {"two words.ipynb": NOTEBOOK, "notes.txt": b"x", "ok.ipynb": NOTEBOOK})
    result = intake(archive, "a1", tmp_path / "out")
    assert "not a usable student id" in rejected(result, "two words.ipynb")
    assert "expected <student>.ipynb" in rejected(result, "notes.txt")
    assert list(result.submissions) == ["ok"]


def test_plain_ids_go_through_the_roster(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "c.zip", {"jsmith.ipynb": NOTEBOOK, "zoe@uni.edu.ipynb": NOTEBOOK, "stranger.ipynb": NOTEBOOK})
    result = intake(archive, "a1", tmp_path / "out", ROSTER)
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
    assert any(note.startswith("3 notebooks handed in: the latest is graded") for note in john.notes)
    assert any("does not record it" in note for note in john.notes)
    assert "not a notebook" in rejected(result, "smithjohn_LATE_12345_907_report.pdf")
    assert any("matched to the roster by name" in note for note in result.submissions["zmuller"].notes)
    ambiguous = rejected(result, "leealice_888_920_a1.ipynb")
    assert "several roster rows" in ambiguous and "alee" in ambiguous and "alee2" in ambiguous
    assert "neither the Canvas user id 999" in rejected(result, "doejane_999_930_a1.ipynb")
    assert (result.entries, result.rejected_entries) == (4, 2)


def test_canvas_name_whose_row_has_another_user_id_is_rejected(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "c.zip", {"smithjohn_4444_1_a1.ipynb": NOTEBOOK})
    result = intake(archive, "a1", tmp_path / "out", ROSTER)
    assert "its lms_id is 12345, not 4444" in rejected(result, "smithjohn_4444_1_a1.ipynb")


def test_canvas_without_roster_derives_ids_from_names(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "c.zip",
        {"müllerzoë_555_1_a1.ipynb": NOTEBOOK, "smithjohn_1_2_a1.ipynb": NOTEBOOK, "smithjohn_2_3_a1.ipynb": NOTEBOOK, "anon_Xy12z_4_a1.ipynb": NOTEBOOK},
    )
    result = intake(archive, "a1", tmp_path / "out")
    # Two different Canvas users with the same name keep apart: their user id is appended.
    assert sorted(result.submissions) == ["canvas_anonxy12z", "mullerzoe", "smithjohn_1", "smithjohn_2"]
    assert any("no roster: student id 'mullerzoe' made from the name" in note for note in result.submissions["mullerzoe"].notes)


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
    assert sorted(result.submissions) == ["johnsmith", "zoemuller"]
    zoe = result.submissions["zoemuller"]
    assert zoe.entry == "Zoë Müller_123456_assignsubmission_file_/work/a1_attention.ipynb"
    assert zoe.path.read_bytes() == NOTEBOOK and zoe.time_source == "none"
    assert any("no roster" in note for note in zoe.notes)
    assert "online text" in rejected(result, "Zoë Müller_123456_assignsubmission_onlinetext_/onlinetext.html")
    assert "not a notebook: not graded" in rejected(result, "John Smith_222222_assignsubmission_file_/helpers.py")
    assert "no notebook for janedoe" in rejected(result, "Jane Doe_333333_assignsubmission_file_/report.pdf")
    assert (result.entries, result.rejected_entries) == (3, 1)


def test_moodle_maps_by_lms_id_before_name(tmp_path: Path) -> None:
    roster = Roster([Person("zm", "Zoe Muller", "", "123456"), Person("js", "Smith, John", "", "")])
    result = intake(moodle_export(tmp_path), "a1", tmp_path / "out", roster)
    assert sorted(result.submissions) == ["js", "zm"]
    assert not any("by name" in note for note in result.submissions["zm"].notes)
    assert any("by name" in note for note in result.submissions["js"].notes)
    assert "neither the Moodle participant id 333333" in rejected(result, "Jane Doe_333333_assignsubmission_file_/report.pdf")


def test_moodle_flat_files(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "m.zip", {"Zoë Müller_123456_assignsubmission_file_a1.ipynb": NOTEBOOK})
    result = intake(archive, "a1", tmp_path / "out", ROSTER)
    assert list(result.submissions) == ["zmuller"]


# ---------------------------------------------------------------------------- choosing a notebook


def test_a_notebook_named_for_another_assignment_is_taken_when_alone(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "c.zip",
        {
            "smithjohn_1_1_a2_blocks.ipynb": NOTEBOOK,  # alone: taken, with a note
            "doejane_2_2_scratch.ipynb": NOTEBOOK,  # two notebooks, neither named like a1: rejected
            "doejane_2_3_a2_blocks.ipynb": NOTEBOOK,
            "leealice_3_4_a1.ipynb": NOTEBOOK,  # named like a1, and another one: a1 taken
            "leealice_3_5_a10.ipynb": NOTEBOOK,
        },
    )
    result = intake(archive, "a1", tmp_path / "out")
    assert sorted(result.submissions) == ["leealice", "smithjohn"]
    assert any("not named like a1.ipynb: graded as the only notebook" in n for n in result.submissions["smithjohn"].notes)
    assert "none named like a1.ipynb" in rejected(result, "doejane_2_2_scratch.ipynb")
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
        {"../escape.ipynb": NOTEBOOK, "/abs.ipynb": NOTEBOOK, "ok.ipynb": NOTEBOOK, "big.ipynb": b" " * (MAX_ENTRY_BYTES + 1)},
    )
    link = zipfile.ZipInfo("linked.ipynb", date_time=WHEN)
    link.external_attr = 0o120777 << 16
    with zipfile.ZipFile(archive, "a") as zf:
        zf.writestr(link, "/etc/passwd")
    result = intake(archive, "a1", tmp_path / "out" / "deep")
    assert "leaves the export" in rejected(result, "../escape.ipynb")
    assert "leaves the export" in rejected(result, "/abs.ipynb")
    assert "symbolic link" in rejected(result, "linked.ipynb")
    assert "larger than 20 MiB" in rejected(result, "big.ipynb")
    assert list(result.submissions) == ["ok"]
    assert not (tmp_path / "out" / "escape.ipynb").exists() and not (tmp_path / "escape.ipynb").exists()
    assert sorted(p.name for p in (tmp_path / "out" / "deep").rglob("*") if p.is_file()) == ["a1.ipynb"]


def test_symlinks_in_a_folder_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "secret.ipynb").write_bytes(NOTEBOOK)
    (tmp_path / "s" / "mallory.ipynb").symlink_to(tmp_path / "secret.ipynb")
    (tmp_path / "s" / "eve").symlink_to(tmp_path, target_is_directory=True)
    result = intake(tmp_path / "s", "a1", tmp_path / "out")
    assert result.submissions == {}
    assert "symbolic link" in rejected(result, "mallory.ipynb")
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
    assert "could not be read from the zip" in rejected(result, "alice.ipynb")
    assert list(result.submissions) == ["bob"]


# ------------------------------------------------------------------------------ batch warnings


def test_batch_warning_when_empty_or_mostly_rejected(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert "no entries" in (batch_warning(intake(tmp_path / "empty", "a1", tmp_path / "o")) or "")
    mostly = intake(make_zip(tmp_path / "m.zip", {"a.pdf": b"x", "b.pdf": b"x", "ok.ipynb": NOTEBOOK}), "a1", tmp_path / "o")
    assert "2 of 3 entries were rejected" in (batch_warning(mostly) or "")
    half = intake(make_zip(tmp_path / "h.zip", {"a.pdf": b"x", "ok.ipynb": NOTEBOOK}), "a1", tmp_path / "o")
    assert batch_warning(half) is None
    none = intake(make_zip(tmp_path / "n.zip", {"a.pdf": b"x"}), "a1", tmp_path / "o")
    assert "none of the 1 entries" in (batch_warning(none) or "")


# -------------------------------------------------------------------------------------- roster


def test_roster_reads_a_csv_with_extra_columns_and_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text("\ufeffID,Name,Email,lms_id,section\njsmith,John Smith,john@uni.edu,12345,A\nzm,,, ,B\n", encoding="utf-8")
    assert Roster.read(path).people == [Person("jsmith", "John Smith", "john@uni.edu", "12345"), Person("zm")]


def test_roster_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_bytes("id,name\nzm,Zoë\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8"):
        Roster.read(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,email\nJohn,j@x\n", "line 1: the header has no 'id' column"),
        ("id,lms_id\na,1\nb,2\na,3\n", "line 4: id 'a' is already on line 2"),
        ("id,lms_id\na,1\nb,1\n", "line 3: lms_id '1' is already on line 2"),
        ("id,email\na,X@y.edu\nb,x@Y.edu\n", "line 3: email 'x@y.edu' is already on line 2"),
        ("id\nok\nnot ok\n", "line 3: 'not ok' is not a usable student id"),
        ("", "the header has no 'id' column"),
        ('id,name\na,"unclosed\n', "line 2: not valid CSV"),
    ],
)
def test_roster_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        Roster.read(path)
