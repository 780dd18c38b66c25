import sys, time, resource, json, nbformat
sys.path.insert(0, "/work/main")
from pathlib import Path
from course_grading.notebook import canonical
rel = nbformat.read("/tmp/as/course/release/a1_attention/a1_attention.ipynb", as_version=4)
t = time.time()
nb, notes = canonical.canonical(Path(sys.argv[1]), rel, Path("/tmp/as/course/release"))
print("canonical:", "None" if nb is None else "nb", [n[:150] for n in notes][:5], "wall", round(time.time()-t,1), "maxrss_MB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss//1024)
