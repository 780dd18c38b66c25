"""The execution cache's database made once, before the build's processes read pages in parallel.

myst-nb opens jupyter-cache's database when a page is first executed, and jupyter-cache creates its tables
when the database file does not exist yet. With two processes reading pages (book/_ext/build_book.py), on a
fresh clone both find no file and both create the tables: one fails with "table nbcache already exists", and
the build with it. Made here, in the main process once myst-nb has set the cache's path, the database exists
before either process starts.
"""

from __future__ import annotations

from jupyter_cache import get_cache
from sphinx.application import Sphinx


def create_cache(app: Sphinx) -> None:
    cache = get_cache(app.env.mystnb_config.execution_cache_path)  # type: ignore[attr-defined]  # myst-nb sets it
    cache.db.dispose()  # tables made; no connection carried into the processes forked next


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("builder-inited", create_cache, priority=900)  # after myst-nb sets the cache's path (at 500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
