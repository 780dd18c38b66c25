"""Two fixes to the pages Jupyter Book 1 writes, each a JavaScript error in every page otherwise
(tests/test_browser.py checks that pages have none):

- sphinx-thebe's and sphinx-togglebutton's inline scripts are added twice (once with a filename of
  None, once of ""), and the second ``const THEBE_JS_URL`` throws "Identifier has already been
  declared": each script is kept once.
- the theme's colour mode defaults to "" when a reader has not chosen one, which its script reports
  as an invalid mode: the default is set to "auto" (follow the system's light or dark setting).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx


def fix_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    context["default_mode"] = context.get("default_mode") or "auto"
    seen, unique = set(), []
    for script in context.get("script_files", []):
        # inline scripts come with a filename of None or "": the same script either way
        key = (getattr(script, "filename", None) or "", repr(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("html-page-context", fix_page, priority=900)  # after the extensions add theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True}
