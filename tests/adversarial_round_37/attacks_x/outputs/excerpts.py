"""excerpts.py RUN...: each feedback page's scores and first errors (tags stripped) -> stdout."""
import html, re, sys
from pathlib import Path
for run in sys.argv[1:]:
    for page in sorted(Path(f"/tmp/ax/out_{run}/feedback").glob("*.html")):
        t = html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))
        errs = [m.group(0)[:500] for m in re.finditer(r"AssertionError[^\n]{0,500}", t)]
        total = re.search(r"Score: [0-9.]+ / [0-9.]+", t)
        print(f"{run} {page.stem}: {total.group(0) if total else '?'}")
        for e in errs:
            print("   ", e)
