"""How long `make book` takes to rebuild after one chapter's text is edited (target: under 30 s).

    python benchmarks/book_rebuild.py [--chapter book/03_gpt.md]

Works on a copy of the book in a temporary folder, so the checkout is untouched. The copy starts
from the checkout's execution cache (`_build/.jupyter_cache`, made by `make book`) when there is one;
without it the first build executes every chapter (minutes). Then: one build (warm), an edit to the
chapter's prose, and the timed rebuild, which re-reads that chapter and executes nothing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["book", "_config.yml", "_toc.yml", "references.bib", "assignments/release"]  # release/: the chapters link it
TARGET_S = 30.0


def build(folder: Path) -> tuple[float, str]:
    start = time.perf_counter()
    command = [sys.executable, str(ROOT / "book" / "_ext" / "build_book.py"), "-W", "-n", "--keep-going", str(folder)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"the build failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return time.perf_counter() - start, result.stdout + result.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", default="book/03_gpt.md", help="the chapter whose text is edited")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "book-copy"
        copy.mkdir()
        for name in SOURCES:
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree if (ROOT / name).is_dir() else shutil.copy2)(ROOT / name, copy / name)
        cache = ROOT / "_build" / ".jupyter_cache"
        if cache.exists():
            shutil.copytree(cache, copy / "_build" / ".jupyter_cache")
        else:
            print("no execution cache in _build/ (run `make book` first): the first build executes every chapter")
        first, _ = build(copy)
        chapter = copy / args.chapter
        chapter.write_text(chapter.read_text() + "\nOne more sentence, added to time a rebuild.\n")
        rebuild, log = build(copy)
        executed = log.count("Executing notebook")
    print(f"{'first build of the copy':<44} {first:>7.1f} s")
    print(
        f"{'rebuild after editing ' + args.chapter:<44} {rebuild:>7.1f} s  (target < {TARGET_S:.0f} s: "
        f"{'met' if rebuild < TARGET_S else 'NOT met'})"
    )
    print(f"{'chapters executed by the rebuild':<44} {executed:>7d}")


if __name__ == "__main__":
    main()
