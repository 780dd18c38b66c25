"""gs2.py (gs.py in sim2.py: /run/lock on the container /tmp filesystem, as in Docker's one layer) NAME SUBMISSION_DIR [namespace]: run_autograder (a1 zip at /tmp/as/a1.zip) in a fresh root /tmp/as/gsroots/NAME,
in the simulated Docker container (tests/container_simulation.py) as root in Gradescope's layout (container jail),
or with namespace jail if 'namespace' given. Prints rc, results.json summary."""
import json, os, shutil, subprocess, sys, zipfile
from pathlib import Path
sys.path.insert(0, "/work/main/tests"); sys.path.insert(0, "/work/main")
sys.path.insert(0, "/tmp/as"); import sim2 as container_simulation  # /run/lock on the /tmp layer
from course_grading.sandbox import policy
from course_grading.gradescope import JAIL_VARIABLE, ROOT_VARIABLE
name, sub = sys.argv[1], Path(sys.argv[2])
jail = sys.argv[3] if len(sys.argv) > 3 else "container"
roots = Path("/tmp/as/gsroots2"); roots.mkdir(parents=True, exist_ok=True); roots.chmod(0o755)
root = roots / name
if root.exists(): shutil.rmtree(root)
root.mkdir(); root.chmod(0o755)
with zipfile.ZipFile("/tmp/as/a1.zip") as z: z.extractall(root / "source")
shutil.copytree(sub, root / "submission", symlinks=True)
env = dict(os.environ, **{ROOT_VARIABLE: str(root), "COURSE_AUTOGRADER_PYTHON": "/work/main/.venv/bin/python", "OMP_NUM_THREADS": "1", JAIL_VARIABLE: jail})
argv = ["/usr/bin/time", "-v", "bash", str(root / "source" / "run_autograder")]
if jail == "container":
    argv = container_simulation.simulated(argv, policy.python_folders(), Path("/work/main"), [roots])
run = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1500, cwd="/")
print("rc", run.returncode)
out = run.stdout + "\n----stderr\n" + run.stderr
(roots / f"{name}.log").write_text(out)
for l in out.splitlines():
    if any(k in l for k in ("Maximum resident", "Elapsed (wall", "Exit status")): print(l.strip())
p = root / "results" / "results.json"
if p.exists():
    r = json.loads(p.read_text())
    print("score", r.get("score"), "extra", r.get("extra_data"))
    for t in r.get("tests", []):
        print(" test", repr(t.get("name")), t.get("score"), "/", t.get("max_score"), "|", (t.get("output") or "")[:300].replace("\n", "\\n"))
    print("output:", (r.get("output") or "")[:600].replace("\n", "\\n"))
else:
    print("no results.json"); print(out[-3000:])
