"""ctr2.py COURSE INBOX OUT [extra]: course grade a1_attention --jail container --jobs 1 in the simulated container
(sim2.py: tests/container_simulation.py + /run/lock on the container's /tmp filesystem, as in Docker's one writable layer)."""
import subprocess, sys
from pathlib import Path
sys.path.insert(0, "/tmp/as"); sys.path.insert(0, "/work/main")
import sim2 as container_simulation
from course_grading.sandbox import policy
course, inbox, out, *extra = sys.argv[1:]
cli = "import sys; from course_grading.cli import main; sys.exit(main(sys.argv[1:]))"
argv = [sys.executable, "-c", cli, "--course", course, "grade", "a1_attention", inbox, "--out", out, "--jobs", "1", "--jail", "container", "--dry-run", *extra]
cmd = container_simulation.simulated(argv, policy.python_folders(), Path("/work/main"), [Path("/tmp/as/ctr")])
cmd = [c if c != str(Path("/work/main/tests/container_simulation.py").resolve()) else "/tmp/as/sim2.py" for c in cmd]
run = subprocess.run(cmd, capture_output=True, text=True, timeout=1500, cwd="/", env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
print("rc", run.returncode); print(run.stdout[-5000:]); print(run.stderr[-3000:])
