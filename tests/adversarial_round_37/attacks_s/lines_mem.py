import sys, time, resource, json, copy, nbformat
sys.path.insert(0, "/work/main")
from pathlib import Path
from course_grading.notebook import canonical
n = int(sys.argv[1]); unit = sys.argv[2].encode().decode("unicode_escape")
rel = json.load(open("/work/main/assignments/release/a1_attention/a1_attention.ipynb"))
nb = copy.deepcopy(rel)
nb["cells"].insert(4, {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": unit * n})
p = Path(f"/tmp/as/lines_{n}.ipynb"); p.write_text(json.dumps(nb))
print("file bytes", p.stat().st_size)
release = nbformat.read("/tmp/as/course/release/a1_attention/a1_attention.ipynb", as_version=4)
t = time.time(); c, notes = canonical.canonical(p, release); t1 = time.time() - t
m1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
t = time.time(); s = nbformat.writes(c); t2 = time.time() - t
print("canonical", round(t1, 1), "s maxrss", m1, "MB; nbformat.writes", round(t2, 1), "s ->", len(s), "bytes; maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, "MB", notes[:2])
