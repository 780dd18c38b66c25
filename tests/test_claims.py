"""Every sentence of the book that states a measured fact is checked by an ``assert`` in a cell of its
section, so an edit that makes the sentence false fails the build (``make book``, and the book tests).

``CLAIMS`` lists, for each executed chapter, a phrase from each such sentence and a piece of the
assert that checks it. The tests read the chapters' sources only (no build): each phrase is in the
prose, each check is an ``assert`` of a code cell in the phrase's section, and every assert of a chapter
is listed here, so the list stays the chapter's inventory of claims.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from myst_nb.core.read import read_myst_markdown_notebook

from conftest import ROOT, notebook_pages

CLAIMS: dict[str, list[tuple[str, str]]] = {
    "book/01_attention": [
        ("goes to key 2, the key the query was made from", "weights[0].argmax() == 2"),
        ("lies near the value stored under it", "abs(output.item() - 2) < 0.5"),
        ("additive attention was", "t_additive > 2 * t_dot"),
        ("The\ntwo agree", "torch.allclose(out, F.scaled_dot_product_attention(q, k, v)"),
        ("of the rows are saturated", "saturated[at[1024]] > 0.5"),
        ("of the unscaled rows are saturated at $d_k = 64$", "saturated[at[64]] > 0.1"),
        ("a share that grows with the width", "zip(saturated[1:], saturated[2:])"),
        ("the\nscaling removes it at every width", "max(stats['scaled']['saturated']) == 0"),
        ("times less gradient than with the scaling", "jac[-1] < 0.01 * stats['scaled']['jac'][-1]"),
        ("times less gradient than a scaled one", "jac[at[128]] < stats['scaled']['jac'][at[128]]"),
        ("still passes back about as much as a scaled one", "0.7 < jac[at[64]] / stats['scaled']['jac'][at[64]] < 1.5"),
        ("Positions 0 to 4 are untouched", "change[:5].max() == 0 and change[5:].min() > 0"),
        ("Splitting costs no parameters", "MultiHeadAttention(64, h).parameters()"),
        ("Head 0 matches a query's position with the\n*previous* position", "weights[0, 0, t].argmax() == t - 1"),
        ("head 1 matches a query's word with the *same word*", "words[int(weights[0, 1, t].argmax())] == words[t]"),
        ("recovers\nthe alignment, including the swapped order", "[french[int(j)] for j in alignment.argmax(-1)]"),
    ],
    "book/02_blocks": [
        ("times the gradient norm of the last\nlayer's in the plain stack", "plain[0] / plain[-1] < 1e-06"),
        ("times it in the residual one", "0.2 < residual[0] / residual[-1] < 5"),
        ("the same\nplain stack passes its first layer", "plain_preserving[0] / plain_preserving[-1] > 0.1"),
        ("every token\nhas mean 0 and standard deviation 1", "float(mean)"),
        ("the gain and bias then set a scale and offset", "float(std)"),
        ("order now matters", "no_positions < 1e-05 and with_positions > 0.1"),
        ("With either kind of position vector the model learns the task", "max(final['sinusoidal'], final['learned']) < 0.1"),
        ("which costs {glue:text}`bag_loss:.3f` on average", "abs(final['none'] - bag_loss) < 0.1"),
        ("In this run the learned table even gets there first", "solved_at['learned'] < solved_at['sinusoidal']"),
        ("At a learning rate that pre-LN and parallel blocks take from the\nfirst step", "max(final['pre_ln'], final['parallel']) < 0.5"),
        ("climbs back to the loss of guessing and stays there", "abs(final['post_ln'] - 2.303) < 0.05"),
        ("Ramping the learning rate up first lets it train", "final['post_ln + warmup'] < 1.0"),
        ("the gap grows with depth", "1 < ratio[6] < ratio[24]"),
        ("leaves\nthe decoder's outputs at earlier positions exactly as they were", "decoder_moved.max() == 0"),
        ("while the encoder's change\neverywhere", "encoder_moved.min() > 0.01"),
        ("the\ncross-attention has found the alignment by itself", "weights['cross'].flip(-1).diagonal().mean() > 0.5"),
        ("The two losses differ by", "abs(one_pass - one_by_one) < 1e-05"),
        ("the single pass was", "t_one_by_one > 2 * t_one_pass"),
    ],
}


@dataclass
class Chapter:
    sections: list[tuple[str, list[str]]]  # (prose, asserts) of each "## " section, in order

    @classmethod
    def read(cls, page: str, root: Path = ROOT) -> Chapter:
        notebook = read_myst_markdown_notebook((root / f"{page}.md").read_text())
        sections: list[tuple[str, list[str]]] = [("", [])]
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                for part in re.split(r"(?m)^(?=## )", cell.source):
                    if part.startswith("## "):
                        sections.append(("", []))
                    prose, asserts = sections[-1]
                    sections[-1] = (prose + "\n" + part, asserts)
            elif cell.cell_type == "code":
                tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
                sections[-1][1].extend(ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Assert))
        return cls(sections)

    def asserts(self) -> list[str]:
        return [a for _, asserts in self.sections for a in asserts]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def executed_chapters() -> list[str]:
    return [page for page in notebook_pages() if page != "book/intro"]


def test_every_executed_chapter_lists_its_claims() -> None:
    assert set(CLAIMS) == set(executed_chapters())


def unchecked_claims(page: str, root: Path = ROOT) -> list[str]:
    """What is wrong with ``page``'s listed claims: phrases gone from the prose, checks gone from their section."""
    chapter = Chapter.read(page, root)
    problems = []
    for phrase, check in CLAIMS[page]:
        sections = [asserts for prose, asserts in chapter.sections if squash(phrase) in squash(prose)]
        if not sections:
            problems.append(f"the claim {phrase!r} is no longer in the prose")
        elif not any(squash(check) in squash(a) for asserts in sections for a in asserts):
            problems.append(f"no assert in the section of {phrase!r} checks {check!r}")
    return problems


@pytest.mark.parametrize("page", sorted(CLAIMS))
def test_each_claim_is_in_the_prose_and_asserted_in_its_section(page: str) -> None:
    assert not unchecked_claims(page), unchecked_claims(page)


@pytest.mark.parametrize("page", sorted(CLAIMS))
def test_every_assert_of_a_chapter_backs_a_listed_claim(page: str) -> None:
    checks = [squash(check) for _, check in CLAIMS[page]]
    unlisted = [a for a in Chapter.read(page).asserts() if not any(check in squash(a) for check in checks)]
    assert not unlisted, f"{page}: asserts that back no listed claim (add the claim to CLAIMS): {unlisted}"


def test_the_checker_catches_a_claim_whose_assert_or_sentence_is_gone(tmp_path: Path) -> None:
    """The control: removing an assert, or rewording its sentence, is reported."""
    page = "book/01_attention"
    source = (ROOT / f"{page}.md").read_text()
    (tmp_path / "book").mkdir()
    assert "assert t_additive > 2 * t_dot" in source and "additive attention was" in source
    (tmp_path / f"{page}.md").write_text(source.replace("assert t_additive > 2 * t_dot", "assert t_additive > 0"))
    assert unchecked_claims(page, tmp_path) == ["no assert in the section of 'additive attention was' checks 't_additive > 2 * t_dot'"]
    (tmp_path / f"{page}.md").write_text(source.replace("additive attention was", "additive attention is"))
    assert unchecked_claims(page, tmp_path) == ["the claim 'additive attention was' is no longer in the prose"]
