"""``OUT/overrides.csv``: every bad row reported in one run, parts named as an instructor names them,
and a grade's total always the sum of its parts (course_grading.lms.overrides, grade.finish)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.lms.overrides import OverridesError, Parts, read_overrides
from course_grading.markers import part_points

from assignment_support import ASSIGNMENTS

RELEASE = nbformat.read(ASSIGNMENTS / "release" / "a4_bert" / "a4_bert.ipynb", as_version=4)
# wordpiece 2, mask_tokens 3, mlm_loss 2, encoder_block 3, pair_inputs 2
PARTS = Parts.of(RELEASE, part_points(RELEASE))
STUDENTS = {"s001", "s002", "s003"}


def overrides(tmp_path: Path, text: str) -> dict[str, dict[str, tuple[float, str]]]:
    (tmp_path / "overrides.csv").write_text(text, encoding="utf-8")
    return read_overrides(tmp_path / "overrides.csv", PARTS, STUDENTS)


def test_parts_are_named_by_grade_id_number_or_heading(tmp_path: Path) -> None:
    read = overrides(tmp_path, "student,part,points,reason\n"
                               "s001,mask_tokens,3,by id\n"
                               "s001,4,1,by number\n"
                               "s001,Part 1,2,by Part N\n"
                               "s002,  part 3: the MASKED-LM loss (2 points) ,1.5,by the whole heading\n"
                               "s002,a sentence pair as BERT's input,0,by the title\n")  # fmt: skip
    assert read == {
        "s001": {"mask_tokens": (3.0, "by id"), "encoder_block": (1.0, "by number"), "wordpiece": (2.0, "by Part N")},
        "s002": {"mlm_loss": (1.5, "by the whole heading"), "pair_inputs": (0.0, "by the title")},
    }


def test_every_bad_row_is_reported_at_once_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(OverridesError) as caught:
        overrides(tmp_path, "student,part,points,reason\n"
                            "s002,mask_tokens,5,too many\n"      # line 2: over the part's 3 points
                            "s003,wordpiece,-1,negative\n"       # line 3
                            "s999,wordpiece,1,unknown student\n" # line 4
                            "s001,Part 9,1,unknown part\n"       # line 5
                            "s001,mlm_loss,three,not a number\n" # line 6
                            "s001,mlm_loss,1,first\n"            # line 7: fine
                            "s001,Part 3,2,duplicate\n"          # line 8: the same part again
                            "s001,encoder_block,nan,\n")  # line 9  # fmt: skip
    message = str(caught.value)
    assert "7 row(s) cannot be applied" in message
    for line, why in [
        (2, "5 points is outside 0..3, what mask_tokens is worth"),
        (3, "-1 points is outside 0..2, what wordpiece is worth"),
        (4, "'s999' is not a student of this batch or the roster"),
        (5, "'Part 9' is not a part of this assignment (parts: 1 wordpiece (max 2), 2 mask_tokens (max 3)"),
        (6, "points 'three' is not a number"),
        (8, "a second row for s001's mlm_loss (the first is on line 7)"),
        (9, "nan points is outside 0..3"),
    ]:
        assert f"line {line}: {why}" in message, (line, message)
    assert "line 7" not in message.replace("the first is on line 7", "")


def test_a_header_without_the_columns_is_named(tmp_path: Path) -> None:
    with pytest.raises(
        OverridesError, match="line 1: the header must name student, part, points, reason \\(missing points\\)"
    ):
        overrides(tmp_path, "student,part,score\ns001,wordpiece,1\n")


def test_no_file_means_no_overrides_and_blank_lines_and_a_bom_are_fine(tmp_path: Path) -> None:
    assert read_overrides(tmp_path / "overrides.csv", PARTS, STUDENTS) == {}
    (tmp_path / "overrides.csv").write_bytes("\ufeffStudent,Part,Points,Reason\n\ns003,pair_inputs,2,\n".encode())
    assert read_overrides(tmp_path / "overrides.csv", PARTS, STUDENTS) == {"s003": {"pair_inputs": (2.0, "")}}


def test_a_name_two_parts_share_names_neither() -> None:
    release = nbformat.from_dict(RELEASE)
    for cell in release.cells:
        if cell.cell_type == "markdown":
            cell.source = cell.source.replace(
                "Part 2: masking tokens for the masked language model", "Part 2: WordPiece"
            )
    parts = Parts.of(release, part_points(release))
    assert parts.find("wordpiece") == "wordpiece"  # the grade id still names its part
    assert parts.find("Part 2") == "mask_tokens" and parts.find("Part 1: WordPiece (2 points)") == "wordpiece"


def test_overrides_apply_after_the_cache_and_the_total_is_the_sum_of_the_parts() -> None:
    result = grading.Result("s001", "graded", scores={"wordpiece": 0.0, "mask_tokens": 3.0})
    grading.finish(result, None, grading.Options(), {"wordpiece": (2.0, "regraded by hand")})
    assert result.total == 5.0 == sum(result.scores.values())
    assert "wordpiece set to 2 by the instructor: regraded by hand" in result.notes
