"""The book builds with every chapter executed, a failing or hanging cell fails the build, and the
built HTML reveals no solution or hidden test."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from assignment_support import ASSIGNMENTS, ROOT, assignment_ids, exercise_solution_lines, hidden_lines, solution_lines
from conftest import appendix_pages, book_pages, build, build_failure, notebook_pages

pytestmark = pytest.mark.slow


def test_every_page_is_built_and_every_chapter_executed(html: Path) -> None:
    assert len(notebook_pages()) >= 3
    for page_name in book_pages():
        page = (html / f"{page_name}.html").read_text()
        if page_name in notebook_pages():
            assert "cell_output" in page, f"{page_name} shows no executed output"
        assert "Traceback" not in page and "NameError" not in page, page_name
        # a widget output (a library's progress bar) makes the page fetch require.js and the widget
        # manager from a CDN: the book must work offline
        assert not re.findall(r'<script[^>]+src="https?://', page), (
            page_name,
            re.findall(r'<script[^>]+src="https?://[^"]+', page),
        )


# What the prose says of the numbers its cells produced: per page, patterns of the text (tags removed)
# and what their groups must satisfy. Checked on the built book, and on the sources with every glued
# number replaced by one value (test_prose_patterns_match_the_sources): a sentence rewritten without its
# pattern fails in a second, not after a 30-minute build.
PROSE: dict[str, list[tuple[str, Callable[[tuple[str, ...]], bool]]]] = {
    "01_attention": [
        (r"additive attention was\s+(\d+) times slower", lambda g: int(g[0]) > 1),
    ],
    "02_blocks": [
        (r"single pass was\s+(\d+) times faster", lambda g: int(g[0]) > 1),
        (
            r"once each position\s+adds its own vector to its token, they differ by ([\d.]+)",
            lambda g: float(g[0]) > 0.01,
        ),
        # reversal: both kinds of positions learn it; without them the loss stays near the bag-of-digits bound
        (
            r"final losses: sinusoidal\s+([\d.]+), learned ([\d.]+);.*?Without any, it ends\s+at "
            r"([\d.]+):.*?which costs ([\d.]+) on average",
            lambda g: max(float(g[0]), float(g[1])) < 0.3 * float(g[3]) and abs(float(g[2]) - float(g[3])) < 0.1,
        ),
        (r"on average\s+([\d.]+) of each output position.s weight falls on the source", lambda g: float(g[0]) > 0.5),
    ],
    # the chapter's training run reaches 1.9 nats per character or better on held-out text, and its KV
    # cache is faster than recomputation
    "03_gpt": [
        (r"the validation loss is\s+([\d.]+) nats per character", lambda g: float(g[0]) <= 1.9),
        (r"the cache is ([\d.]+) times faster", lambda g: float(g[0]) > 2),
    ],
}


def page_text(markup: str) -> str:
    """The words of an HTML page, tags removed."""
    return re.sub(r"<[^>]+>", "", markup)


@pytest.mark.parametrize("page", sorted(PROSE))
def test_the_prose_says_what_its_numbers_show(html: Path, page: str) -> None:
    text = page_text((html / "book" / f"{page}.html").read_text())
    for pattern, holds in PROSE[page]:
        match = re.search(pattern, text, re.DOTALL)
        assert match, f"{page}: no sentence matches {pattern!r}"
        assert holds(match.groups()), (page, pattern, match.groups())


def source_text(markdown: str, number: str) -> str:
    """A chapter's source as its built page reads: each glued value replaced by ``number``, each role by
    its text, emphasis and code fences' marks removed."""
    text = re.sub(r"\{glue:text\}`[^`]+`", number, markdown)
    text = re.sub(r"\{numref\}`[^`]+`", "Figure 1", text)
    text = re.sub(r"\{\w+\}`([^`<]*?)\s*(?:<[^>]*>)?`", r"\1", text)
    return re.sub(r"[*_]{1,2}(\S[^*_]*?)[*_]{1,2}", r"\1", text)


@pytest.mark.parametrize("page", sorted(PROSE))
def test_prose_patterns_match_the_sources(page: str) -> None:
    text = source_text((ROOT / "book" / f"{page}.md").read_text(), "12")
    for pattern, _ in PROSE[page]:
        assert re.search(pattern, text, re.DOTALL), f"{page}.md: no sentence matches {pattern!r}"


def test_assignment_links_serve_the_student_versions(html: Path) -> None:
    downloads = {p.name: p for p in (html / "_downloads").rglob("*.ipynb")}
    assert set(downloads) == {f"{a}.ipynb" for a in assignment_ids()}
    for a in assignment_ids():
        assert downloads[f"{a}.ipynb"].read_bytes() == (ASSIGNMENTS / "release" / a / f"{a}.ipynb").read_bytes()


def test_book_reveals_no_solution_or_hidden_test(html: Path) -> None:
    hidden = set().union(*(hidden_lines(a) for a in assignment_ids()))
    solution = set().union(*(solution_lines(a) for a in assignment_ids()))
    exercises = exercise_solution_lines()
    assert hidden and solution and exercises
    solution |= exercises
    for path in html.rglob("*"):
        if path.suffix in {".html", ".ipynb", ".md", ".txt", ".js", ".py"} and path.is_file():
            text = path.read_text(errors="ignore")
            leaked = {line for line in hidden | solution if line in text}
            assert not leaked, (path, leaked)
            assert "_checks" not in text, path


def scratch_book(tmp_path: Path, cell: str, timeout: int | None = None) -> Path:
    """A one-page book with the project's configuration and a single code cell."""
    tmp_path.mkdir(parents=True)
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    if timeout is not None:
        config["execute"]["timeout"] = timeout
    config.pop("bibtex_bibfiles")  # the page cites nothing, so no bibliography and no citation style
    config["sphinx"]["config"].pop("bibtex_reference_style")
    # the project's extensions and static files, at their paths in the project
    config["sphinx"]["local_extensions"] = {
        name: str(ROOT / path) for name, path in config["sphinx"]["local_extensions"].items()
    }
    config["sphinx"]["config"]["html_static_path"] = [
        str(ROOT / path) for path in config["sphinx"]["config"]["html_static_path"]
    ]
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: page\n")
    front = (
        "---\njupytext:\n  text_representation:\n    extension: .md\n    format_name: myst\nkernelspec:\n"
        "  display_name: Python 3\n  language: python\n  name: python3\n---\n"
    )
    (tmp_path / "page.md").write_text(f"{front}\n# Page\n\n```{{code-cell}} ipython3\n{cell}\n```\n")
    return tmp_path


def test_a_scratch_book_with_a_good_cell_builds(tmp_path: Path) -> None:
    """The control for the two tests below: the scratch book itself is sound."""
    result = build(scratch_book(tmp_path / "src", "print(6 * 7)"), tmp_path / "out")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "42" in (tmp_path / "out" / "_build" / "html" / "page.html").read_text()


def test_a_cell_that_raises_fails_the_build_and_the_failure_names_the_cell(tmp_path: Path) -> None:
    result = build(scratch_book(tmp_path / "src", "answer = 6 * 7\nraise RuntimeError('boom')"), tmp_path / "out")
    assert result.returncode != 0
    assert "ExecutionError" in result.stdout + result.stderr
    # what make test shows: the cell and its error, and where the whole log is
    message = build_failure(result, tmp_path / "out")
    log = Path(message.split("its whole log: ", 1)[1].split("\n", 1)[0])
    assert "answer = 6 * 7" in message and "RuntimeError: boom" in re.sub(r"\x1b\[[0-9;]*m", "", message)
    assert log.read_text() == f"==== stdout\n{result.stdout}\n\n==== stderr\n{result.stderr}\n"
    assert message.splitlines()[-1].endswith("page.md: RuntimeError: boom"), message.splitlines()[-1]


def test_a_cell_that_hangs_fails_the_build(tmp_path: Path) -> None:
    result = build(scratch_book(tmp_path / "src", "import time\ntime.sleep(60)", timeout=3), tmp_path / "out")
    assert result.returncode != 0
    assert "CellTimeoutError" in result.stdout + result.stderr


def test_math_is_served_with_the_book(html: Path) -> None:
    """MathJax comes from the built site, not a CDN (tests/test_browser.py checks that it typesets)."""
    assert (html / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert list((html / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    for name in notebook_pages():
        page = (html / f"{name}.html").read_text()
        assert re.search(r'<script[^>]+src="[./]*_static/mathjax/tex-chtml\.js[?"]', page), name
        assert "cdn.jsdelivr" not in page and "mathjax@3" not in page, name


def test_chapters_launch_their_notebooks_and_link_the_repository(html: Path) -> None:
    """Colab and Binder open book/<chapter>.ipynb from the repository (which exists there); the
    page offers the executed notebook and its source for download, and links its source for editing."""
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    org_repo = url.removeprefix("https://github.com/")
    for name in notebook_pages():
        page = (html / f"{name}.html").read_text().replace("&amp;", "&")
        assert (ROOT / f"{name}.ipynb").is_file()
        assert f'href="https://colab.research.google.com/github/{org_repo}/blob/main/{name}.ipynb"' in page, name
        assert f'href="https://mybinder.org/v2/gh/{org_repo}/main?urlpath=lab/tree/{name}.ipynb"' in page, name
        assert f"_sources/{name}.ipynb" in page and (html / "_sources" / f"{name}.ipynb").is_file(), name
        assert f"_sources/{name}.md" in page, name
        assert f"{url}/edit/main/{name}.md" in page, name
        assert f'href="{url}"' in page and f'href="{url}/issues' in page, name


def test_a_rebuild_executes_only_chapters_whose_code_changed(tmp_path: Path) -> None:
    """`execute_notebooks: cache`: editing prose rebuilds the page from the cached outputs; editing a
    code cell executes the chapter again (benchmarks/book_rebuild.py times the first case)."""
    src, out = scratch_book(tmp_path / "src", "print(6 * 7)"), tmp_path / "out"
    page = src / "page.md"
    first = build(src, out)
    assert first.returncode == 0 and "Executing notebook" in first.stdout + first.stderr
    page.write_text(page.read_text() + "\nA sentence added later.\n")
    prose = build(src, out)
    assert prose.returncode == 0 and "Executing notebook" not in prose.stdout + prose.stderr
    assert "A sentence added later." in (out / "_build" / "html" / "page.html").read_text()
    page.write_text(page.read_text().replace("6 * 7", "6 * 8"))
    code = build(src, out)
    assert code.returncode == 0 and "Executing notebook" in code.stdout + code.stderr
    assert "48" in (out / "_build" / "html" / "page.html").read_text()


def _article(html: Path, name: str) -> str:
    """The page's own content: its article, without the sidebars, header and footer."""
    page = (html / f"{name}.html").read_text()
    return page[page.index('<article class="bd-article"') : page.index("</article>")]


def _text(html: Path, name: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _article(html, name)))


def test_every_chapter_opens_with_objectives_and_ends_with_summary_exercises_assignment(html: Path) -> None:
    appendices = appendix_pages()
    assert appendices and set(appendices) < set(notebook_pages())
    for name in notebook_pages():
        page = _article(html, name)
        text = _text(html, name)
        assert (
            -1
            < text.find("Learning objectives")
            < text.find("Prerequisites")
            < text.find(" Summary ")
            < text.find(" Exercises ")
        ), name
        objectives = re.search(r"Learning objectives</p>.*?<ul[^>]*>(.*?)</ul>", page, re.DOTALL)
        assert objectives and objectives.group(1).count("<li") >= 3, name
        if name in appendices:  # an appendix has no assignment of its own
            assert 'id="assignment"' not in page, name
            continue
        assert text.find(" Exercises ") < text.find(" Assignment "), name
        assignment = page[page.rindex('id="assignment"') :]
        link = re.search(r'href="([^"]*_downloads/[^"]+\.ipynb)"', assignment)
        assert link and "solution" not in link.group(1), name


def test_figures_have_captions_and_alt_text(html: Path) -> None:
    figures = 0
    for name in notebook_pages():
        page = _article(html, name)
        for img in re.findall(r"<img [^>]*>", page):
            alt = re.search(r'alt="([^"]*)"', img)
            assert alt and len(alt.group(1)) > 20 and not alt.group(1).endswith(".png"), (name, img[:200])
        for figure in re.findall(r"<figure[^>]*>(.*?)</figure>", page, re.DOTALL):
            if "<img" in figure:
                figures += 1
                caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.DOTALL)
                assert caption and len(re.sub(r"<[^>]+>", "", caption.group(1)).strip()) > 20, name
        assert page.count("<img") == len(re.findall(r"<figure[^>]*>(?:(?!</figure>).)*<img", page, re.DOTALL)), (
            f"{name}: an image outside a captioned figure"
        )
    assert figures >= 6


# The papers the course builds on (issue 6), each by its first author's name and year.
REQUIRED_REFERENCES = [
    ("Vaswani", "2017"),
    ("Radford", "2018"),
    ("Radford", "2019"),
    ("Brown", "2020"),
    ("Devlin", "2018"),
    ("Lewis", "2019"),
    ("Raffel", "2020"),
    ("He", "2016"),
    ("Ba", "2016"),
    ("Dehghani", "2023"),
    ("Hu", "2021"),
]


def test_reference_pages_and_citations(html: Path) -> None:
    references = _text(html, "book/references")
    for author, year in REQUIRED_REFERENCES:
        assert re.search(rf"\b{author}\b[^.]*?(?:\.|,)[^\n]*?{year}", references), (author, year)
    for name in notebook_pages():
        page = (html / f"{name}.html").read_text()
        cited = set(re.findall(r'href="references\.html#(id\d+|[\w-]+)"', page))
        assert len(cited) >= 3, f"{name} cites {len(cited)} references"
    notation = (html / "book" / "notation.html").read_text()
    for symbol in ["d_{model}", "d_{head}", "d_k", "n_heads", "T_q", "T_k", "d_{ff}", "causal_mask"]:
        assert symbol in notation, symbol
    glossary = (html / "book" / "glossary.html").read_text()
    terms = re.findall(r'<dt id="term-([^"]+)"', glossary)
    assert len(terms) >= 30
    for name in notebook_pages():
        assert len(set(re.findall(r'glossary\.html#term-([^"]+)"', (html / f"{name}.html").read_text()))) >= 5, name
