"""post.py NAME NOTEBOOK: the JSON-level edits some fixtures need on top of mksub.py (metadata, outputs, size)."""
import json, sys, copy
name, path = sys.argv[1], sys.argv[2]
nb = json.load(open(path))
cells = nb["cells"]
def gid(c): return c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
if name.startswith("atk05"):
    i = next(i for i, c in enumerate(cells) if gid(c) == "test_sdpa")
    fake = copy.deepcopy(cells[i])
    fake["id"] = "fake-test-sdpa"
    fake["metadata"]["nbgrader"].update({"grade_id": "test_sdpa", "points": 100, "solution": True, "grade": True, "locked": True, "checksum": "0" * 32})
    fake["source"] = 'print("Part 1: visible tests passed.")\n'
    fake["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "Part 1: visible tests passed.\n"}]
    fake["execution_count"] = 5
    cells.insert(i - 1, fake)  # before the answer cell: the first of two test_sdpa cells
    # the real test cell: pre-filled passing output, points raised
    cells[i + 1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "Part 1: visible tests passed.\n"}]
    cells[i + 1]["metadata"]["nbgrader"]["points"] = 100
    # the answer cell claims to be a graded test cell too
    cells[i]["metadata"]["nbgrader"].update({"grade": True, "points": 50})
    nb["metadata"]["nbgrader"] = {"total_points": 1000}
elif name.startswith("atk06"):  # memory amplification: notebook metadata of N empty dicts (3 bytes each)
    n = int(name.split("_")[-1].replace("M", "")) * 1_000_000
    nb["metadata"]["x"] = "__BLOB__"
    s = json.dumps(nb).replace('"__BLOB__"', "[" + ",".join(["{}"] * n) + "]")
    open(path, "w").write(s); sys.exit()
json.dump(nb, open(path, "w"), indent=1)
