"""mksub.py FIXTURE.py OUTDIR -> OUTDIR/<assignment>.ipynb (answer key for cells the fixture does not give).
Sections: '# %% [grade_id]' replaces that answer cell; '# %% [new after grade_id]' adds a code cell after it."""
import json, re, sys, copy, uuid
from pathlib import Path
fx, out = Path(sys.argv[1]), Path(sys.argv[2])
aid = fx.parent.name
rel = json.load(open(f"{__import__('os').environ.get('COURSE', '/tmp/aw/assignments')}/release/{aid}/{aid}.ipynb"))
sol = json.load(open(f"{__import__('os').environ.get('SOL', '/work/main/solutions')}/{aid}/{aid}.ipynb"))
scells = sol["cells"][1:] if len(sol["cells"]) == len(rel["cells"]) + 1 else sol["cells"]
assert len(scells) == len(rel["cells"])
key = {rc.get("metadata", {}).get("nbgrader", {}).get("grade_id"): "".join(sc["source"]) for rc, sc in zip(rel["cells"], scells)}
secs, cur = [], None
for line in fx.read_text().splitlines(keepends=True):
    m = re.match(r"# %% \[(.+)\]\s*$", line)
    if m: cur = [m.group(1), ""]; secs.append(cur)
    elif cur: cur[1] += line
cells = []
for c in rel["cells"]:
    c = copy.deepcopy(c); gid = c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    if c["cell_type"] == "code" and c["metadata"].get("nbgrader", {}).get("solution"):
        c["source"] = key[gid]
    cells.append(c)
for name, src in secs:
    if name.startswith("new after "):
        g = name[len("new after "):]
        i = next(i for i, c in enumerate(cells) if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == g)
        cells.insert(i + 1, {"cell_type": "code", "execution_count": None, "id": uuid.uuid4().hex[:8], "metadata": {}, "outputs": [], "source": src})
    else:
        c = next(c for c in cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == name)
        c["source"] = src
rel["cells"] = cells
out.mkdir(parents=True, exist_ok=True)
json.dump(rel, open(out / f"{aid}.ipynb", "w"), indent=1)
print(out / f"{aid}.ipynb")
