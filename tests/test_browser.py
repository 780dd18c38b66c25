"""The built book in a real browser (headless Chromium, driven by Playwright): every page renders with
its math typeset, loads every image, raises no JavaScript error, makes no request off the machine,
and links only to pages and anchors that exist; search finds the chapter on attention; math also
typesets from a file:// copy, as a reader opens it after `make book`.

A screenshot of each page (the top, and the whole page) is kept in ``_build/screenshots/``.
Without Chromium the tests are skipped, with how to install it; ``.ci/run`` installs it and sets
REQUIRE_BROWSER=1, which turns the skip into a failure.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT, book_pages, notebook_pages

pytestmark = pytest.mark.slow
SCREENSHOTS = ROOT / "_build" / "screenshots"
INSTALL = (
    "Chromium is not installed, so the browser tests are skipped. Install it with "
    "`sudo apt-get install chromium` (Debian/Ubuntu) or `brew install --cask chromium` (macOS), or point "
    "CHROMIUM at a Chrome/Chromium executable; .ci/run installs it."
)


def chromium() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if name and (path := shutil.which(name)):
            return path
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    path = chromium()
    if path is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(INSTALL)
        pytest.skip(INSTALL)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chrome = playwright.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield chrome
        chrome.close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(html: Path) -> Iterator[str]:
    """The built book served over HTTP on the loopback interface, as a web host would serve it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@dataclass
class Visit:
    """What a browser saw on one page."""

    errors: list[str] = field(default_factory=list)  # uncaught exceptions and console errors
    offsite: list[str] = field(default_factory=list)  # requests that would need the network
    math: dict = field(default_factory=dict)
    broken_images: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)


# In the page: wait for MathJax, then report the math elements that are not typeset and raw TeX
# delimiters left in the text outside code.
MATH_REPORT = """async () => {
  if (window.MathJax && MathJax.startup) { await MathJax.startup.promise; }
  const nodes = [...document.querySelectorAll('.math')];
  const raw = nodes.filter(n => !n.querySelector('mjx-container')).map(n => n.textContent.slice(0, 60));
  const body = document.querySelector('main') || document.body;
  const copy = body.cloneNode(true);
  copy.querySelectorAll('pre, code, script, style, mjx-container').forEach(e => e.remove());
  const text = copy.textContent;
  const leftover = (text.match(/\\$\\$|\\\\\\(|\\\\\\[|\\\\frac|\\\\sqrt/g) || []);
  return {nodes: nodes.length, typeset: document.querySelectorAll('mjx-container').length, raw, leftover};
}"""

# In the page: decode every image (lazy ones too); the sources that fail.
IMAGE_REPORT = """async () => {
  const failed = [];
  for (const img of [...document.images]) {
    img.loading = 'eager';
    try { await img.decode(); if (!img.naturalWidth) failed.push(img.src); } catch (e) { failed.push(img.src); }
  }
  return failed;
}"""


def visit(browser: object, url: str, shot: str | None = None) -> Visit:
    seen = Visit()
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    local = urlsplit(url).netloc

    def route(r: object) -> None:
        request_url = r.request.url  # type: ignore[attr-defined]
        parts = urlsplit(request_url)
        if parts.scheme in ("data", "blob", "file") or parts.netloc == local:
            r.continue_()  # type: ignore[attr-defined]
        else:
            seen.offsite.append(request_url)
            r.abort()  # type: ignore[attr-defined]

    page.route("**/*", route)
    page.on("pageerror", lambda error: seen.errors.append(f"uncaught: {error}"))
    page.on(
        "console", lambda message: seen.errors.append(f"console: {message.text}") if message.type == "error" else None
    )
    response = page.goto(url, wait_until="load")
    assert response is None or response.ok, (url, response.status)
    seen.math = page.evaluate(MATH_REPORT)
    seen.broken_images = page.evaluate(IMAGE_REPORT)
    seen.links = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
    page.wait_for_timeout(200)  # late errors (e.g. from deferred scripts)
    if shot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"))
        page.screenshot(path=str(SCREENSHOTS / f"{shot}-full.jpeg"), full_page=True, type="jpeg", quality=60)
    page.close()
    return seen


@pytest.fixture(scope="module")
def visits(browser: object, site: str) -> dict[str, Visit]:
    """Every page of the book, visited once."""
    return {name: visit(browser, f"{site}/{name}.html", shot=name.replace("/", "_")) for name in book_pages()}


@pytest.mark.parametrize("name", book_pages())
def test_page_has_no_javascript_error_and_needs_no_network(visits: dict[str, Visit], name: str) -> None:
    assert visits[name].errors == []
    assert visits[name].offsite == []


@pytest.mark.parametrize("name", book_pages())
def test_page_math_is_typeset(visits: dict[str, Visit], html: Path, name: str) -> None:
    math = visits[name].math
    source_has_math = 'class="math' in (html / f"{name}.html").read_text()
    assert (math["nodes"] > 0) == source_has_math
    assert math["raw"] == [] and math["leftover"] == [], math
    assert math["typeset"] >= math["nodes"]


def test_the_chapters_have_math(visits: dict[str, Visit]) -> None:
    """The control for the test above: it is not vacuous."""
    for name in notebook_pages():
        assert visits[name].math["typeset"] >= 5, name


@pytest.mark.parametrize("name", book_pages())
def test_page_images_load(visits: dict[str, Visit], name: str) -> None:
    assert visits[name].broken_images == []


def test_the_chapters_have_figures(html: Path) -> None:
    for name in notebook_pages():
        assert (html / f"{name}.html").read_text().count("<img") >= 2, name


@pytest.mark.parametrize("name", book_pages())
def test_page_internal_links_resolve(visits: dict[str, Visit], site: str, html: Path, name: str) -> None:
    broken = []
    for link in visits[name].links:
        parts = urlsplit(link)
        if f"{parts.scheme}://{parts.netloc}" != site:
            continue
        target = html / unquote(parts.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(link)
        elif parts.fragment and target.suffix == ".html":
            if not re.search(rf'\bid="{re.escape(unquote(parts.fragment))}"', target.read_text()):
                broken.append(link)
    assert broken == []
    assert any(urlsplit(link).netloc == urlsplit(site).netloc for link in visits[name].links)


@pytest.mark.parametrize("term, chapter", [("attention", "book/01_attention"), ("nucleus", "book/03_gpt")])
def test_search_finds_the_chapter(browser: object, site: str, term: str, chapter: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site}/search.html?q={term}", wait_until="load")
    page.wait_for_selector("ul.search li a", timeout=30_000)
    hits = page.eval_on_selector_all("ul.search li a", "links => links.map(a => a.href)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"search-{term}.png"))
    page.close()
    assert errors == []
    assert any(f"/{chapter}.html" in hit for hit in hits), hits


def test_math_typesets_from_files_without_a_server(browser: object, html: Path) -> None:
    """Opened as files (`make book`'s output, no server, no network), math still typesets."""
    name = notebook_pages()[0]
    seen = visit(browser, (html / f"{name}.html").as_uri())
    assert seen.math["typeset"] >= max(5, seen.math["nodes"]) and seen.math["raw"] == []
    assert seen.offsite == [] and seen.errors == []
