"""Serve MathJax with the book, so that math typesets without a network connection.

MathJax 3 (its ``es5`` build) comes from the ``sphinx-mathjax-offline`` package (requirements-data.txt);
this extension copies the parts that the ``tex-chtml`` component loads into ``_static/mathjax/`` of
the built site, where ``mathjax_path: mathjax/tex-chtml.js`` in _config.yml points. The copy happens after the build,
not through ``html_static_path``: Jupyter Book adds every ``.js`` file under ``_static`` as a script tag.
"""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

DISTRIBUTION = "sphinx-mathjax-offline"
# tex-chtml.js and what it loads on demand: TeX extensions, CHTML fonts, the menu, accessibility.
NEEDED = ["tex-chtml.js", "input", "output/chtml", "a11y", "ui", "adaptors", "sre"]


def mathjax_source() -> Path:
    """The installed MathJax ``es5`` folder."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as err:
        raise ExtensionError(f"{DISTRIBUTION} is not installed: run `make install` (requirements-data.txt)") from err
    entry = next((f for f in dist.files or [] if f.name == "tex-chtml.js"), None)
    if entry is None:
        raise ExtensionError(f"{DISTRIBUTION} has no tex-chtml.js: reinstall it")
    return Path(str(dist.locate_file(entry))).parent


def copy_mathjax(app: Sphinx, exception: Exception | None) -> None:
    """Copy MathJax into ``_static/mathjax`` of an HTML build (once: later builds keep the copy)."""
    if app.builder.format != "html":
        return
    source, target = mathjax_source(), Path(app.outdir) / "_static" / "mathjax"
    for part in NEEDED:
        src, dst = source / part, target / part
        if dst.exists():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)


def setup(app: Sphinx) -> dict[str, object]:
    mathjax_source()  # fail early, with the fix, if MathJax is missing
    app.connect("build-finished", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
