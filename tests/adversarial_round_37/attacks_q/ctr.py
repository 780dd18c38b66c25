"""ctr.py COURSE INBOX OUT [extra args]: course grade a1_attention in the simulated Docker container (tests/container_simulation.py)."""
import subprocess, sys
from pathlib import Path
sys.path.insert(0, "/work/main/tests"); sys.path.insert(0, "/work/main")
import container_simulation
from course_grading.sandbox import policy
course, inbox, out, *extra = sys.argv[1:]
assignment = extra.pop(0) if extra and not extra[0].startswith("-") else "a1_attention"
cli = "import sys; from course_grading.cli import main; sys.exit(main(sys.argv[1:]))"
argv = [sys.executable, "-c", cli, "--course", course, "grade", assignment, inbox, "--out", out, "--jobs", "2", "--jail", "container", "--dry-run", *extra]
cmd = container_simulation.simulated(argv, policy.python_folders(), Path("/work/main"), [Path("/tmp/aq/ctr")])
run = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, cwd="/", env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
print("rc", run.returncode); print(run.stdout[-6000:]); print(run.stderr[-4000:])
