"""ctr3.py: in ONE simulated container (sim2.py), run `course grade --jail container --jobs 1` twice:
run A on /tmp/as/ctr/inbox3 (attacker first, then victims), run B on /tmp/as/ctr/inbox3b (one victim alone, the attacker
not in it), as an instructor grading again in the same container; then list /run/lock and df /tmp."""
import subprocess, sys
from pathlib import Path
sys.path.insert(0, "/tmp/as"); sys.path.insert(0, "/work/main")
import sim2 as container_simulation
from course_grading.sandbox import policy
py = sys.executable
cli = "import sys; from course_grading.cli import main; sys.exit(main(sys.argv[1:]))"
def grade(inbox, out):
    return f"{py} -c '{cli}' --course /tmp/as/ctr/course3 grade a1_attention {inbox} --out {out} --jobs 1 --jail container --dry-run --timeout 60 --cell-timeout 10 2>&1 | grep -E '^\\[|error'"
script = " ; ".join([
    "echo '== run A (attacker + 2 keys)'", grade("/tmp/as/ctr/inbox3", "/tmp/as/ctr/out3A"),
    "echo '== run B (one key alone, same container)'", grade("/tmp/as/ctr/inbox3b", "/tmp/as/ctr/out3B"),
    "echo '== ls -ln /run/lock'", "ls -ln /run/lock", "df -h /tmp | tail -1",
])
cmd = container_simulation.simulated(["bash", "-c", script], policy.python_folders(), Path("/work/main"), [Path("/tmp/as/ctr")])
run = subprocess.run(cmd, capture_output=True, text=True, timeout=1500, cwd="/", env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
print("rc", run.returncode); print(run.stdout[-5000:]); print(run.stderr[-2000:])
