"""excerpts.py: each attack's feedback page, its score line and its error lines (AssertionError and the like)."""
import html
import re
import sys
from pathlib import Path

for run in sys.argv[1:]:
    for page in sorted(Path(f"/tmp/az/out_{run}/feedback").glob("*.html")):
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))
        print(f"== {run} {page.stem}")
        for m in re.finditer(r"\b[A-Z][A-Za-z]*Error: [^\n]{0,400}", text):
            print("   ", m.group(0)[:400])
