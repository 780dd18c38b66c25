"""One trust boundary (issue 26, item 2), end to end through ``course grade`` on a1.

A submission's process holds the hidden checks' inputs once they are sent; these attacks try to get
them into the feedback (printed by a later visible test, or carried by an error's message) or to
overwhelm the grader with a reply that inflates. Each must cost the attacking part its points and
leave no trace of the hidden inputs in the feedback, while the honest parts keep theirs.
"""

from __future__ import annotations

from pathlib import Path

from test_course_grade import LIMITS, course_copy

from course_grading import grade as grading

from hostile_submissions import FULL, KEY, notebook

UNDER_HIDDEN_CALL = "any(frame.function == 'call_in' for frame in __import__('inspect').stack())"

STASHING_SDPA = (
    KEY["sdpa"]
    + f"""

_stash = []
_correct_sdpa = scaled_dot_product_attention


def scaled_dot_product_attention(q, k, v, mask=None):
    if {UNDER_HIDDEN_CALL}:
        _stash.append("HIDDEN" + "INPUT" + ",".join(f"{{x:.6f}}" for x in q.flatten()[:4].tolist()))
    return _correct_sdpa(q, k, v, mask)
"""
)

SECRET_RAISING_MASKS = (
    KEY["masks"]
    + f"""

_correct_causal = causal_mask


def causal_mask(T):
    if {UNDER_HIDDEN_CALL}:
        raise ValueError("SECRET" + "MSG" + repr(T))
    return _correct_causal(T)
"""
)

INFLATING_SPLIT = (
    KEY["split_merge"]
    + f"""

_correct_split = split_heads


def split_heads(x, n_heads):
    if {UNDER_HIDDEN_CALL}:
        import io, os, zipfile
        buffer = io.BytesIO()
        torch.save({{"value": torch.zeros(100_000_000)}}, buffer)  # 400 MB of zeros, a few hundred kB deflated
        bomb = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as plain, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as packed:
            for entry in plain.infolist():
                packed.writestr(entry.filename, plain.read(entry))
        data = bomb.getvalue()
        for fd in map(int, os.listdir("/proc/self/fd")):
            try:
                if os.readlink(f"/proc/self/fd/{{fd}}").startswith("socket:"):
                    os.write(fd, len(data).to_bytes(8, "little") + data)
            except OSError:
                pass
        os._exit(0)
    return _correct_split(x, n_heads)
"""  # noqa: E501 (code run as written)
)

PRINTING_MHA = KEY["mha"].replace('    """\n', '    """\n    print("STA" + "SH:", _stash)\n', 1)


def test_hidden_inputs_never_reach_the_feedback_and_an_inflating_reply_is_refused(tmp_path: Path) -> None:
    """The honest parts (sdpa and mha are correct) keep their points unless the submission is flagged
    for a person (the attack reads the stack: a route the source scan reports); the attacking parts
    get none; nothing of the hidden calls is in the feedback, and the batch is graded."""
    assert 'print("STA" + "SH:"' in PRINTING_MHA  # the markers are built at run time: the feedback shows the source too
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    (inbox / "leaky.ipynb").write_bytes(
        notebook(
            {"sdpa": STASHING_SDPA, "masks": SECRET_RAISING_MASKS, "split_merge": INFLATING_SPLIT, "mha": PRINTING_MHA}
        )
    )
    course = course_copy(tmp_path / "course")
    (result,), _ = grading.grade(
        grading.Batch(course, "a1_attention", inbox, out),
        grading.Options(jobs=1, limits=LIMITS),
        progress=lambda done, total, line: None,
    )
    assert result.status != "not graded", result.notes
    assert result.scores["masks"] == 0 and result.scores["split_merge"] == 0, result.scores
    for part in ("sdpa", "mha"):
        assert result.scores[part] == FULL[part] or any(part in note and "review" in note for note in result.notes), (
            result.scores,
            result.notes,
        )
    feedback = (out / "feedback" / "leaky.html").read_text()
    # the visible tests' output is shown: it was printed before any hidden call, with nothing stashed
    assert "STASH: []" in feedback
    assert "HIDDENINPUT" not in feedback and "SECRETMSG" not in feedback
    assert "its message is not shown" in feedback
