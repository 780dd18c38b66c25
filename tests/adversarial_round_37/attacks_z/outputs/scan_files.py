"""scan_files.py FILE.py ...: pre-check with the scan alone (no checks module read): every part under COURSE_RULES and under Rules() (the
standard imports) and Rules(forbid=TORCH_ATTENTION)."""
import sys, subprocess, nbformat
from pathlib import Path
from course_grading.sandbox.shortcuts import review, COURSE_RULES, Rules, TORCH_ATTENTION
from course_grading.markers import is_test, nbgrader_meta, part_of
for f in sys.argv[1:]:
    f = Path(f); aid = f.parent.name
    out = Path("/tmp/az/scan_nb")/f.stem
    subprocess.run([sys.executable, "/work/main/tests/adversarial_round_37/attacks_z/outputs/mksub.py", str(f), str(out)], check=True, capture_output=True, env={"COURSE":"/tmp/az/course/assignments"})
    nb = nbformat.read(out/f"{aid}.ipynb", as_version=4)
    parts = [part_of(nbgrader_meta(c)["grade_id"]) for c in nb.cells if is_test(c)]
    for label, r in [("course", COURSE_RULES), ("std", Rules()), ("attn", Rules(forbid=TORCH_ATTENTION))]:
        ev = review(nb, {p: r for p in parts})
        print(f.name, label, {p: [(e.kind, e.key) for e in es] for p, es in ev.items()})
