import json, copy, sys
rel = json.load(open("/work/main/assignments/release/a1_attention/a1_attention.ipynb"))
kind, n = sys.argv[1], int(sys.argv[2])
nb = copy.deepcopy(rel)
cells = nb["cells"]
if kind == "added":      # n added code cells after sdpa
    add = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": "x=1"} for _ in range(n)]
    nb["cells"] = cells[:4] + add + cells[4:]
elif kind == "duptest":  # test_sdpa duplicated n times
    nb["cells"] = cells[:4] + [copy.deepcopy(cells[4]) for _ in range(n)] + cells[4:]
elif kind == "dupanswer":
    nb["cells"] = cells[:4] + [copy.deepcopy(cells[3]) for _ in range(n)] + cells[4:]
elif kind == "markdown":
    nb["cells"] = cells + [{"cell_type": "markdown", "metadata": {}, "source": "m"} for _ in range(n)]
elif kind == "ids":      # every cell the same id
    nb["cells"] = cells[:4] + [{"cell_type": "code", "id": "same", "execution_count": None, "metadata": {}, "outputs": [], "source": "x=1"} for _ in range(n)] + cells[4:]
out = f"/tmp/as/shape_{kind}_{n}.ipynb"
s = json.dumps(nb, separators=(",", ":"))
open(out, "w").write(s); print(out, len(s))
