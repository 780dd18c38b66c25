# expect: loses lm_loss -- lm_loss fails its visible test on purpose with a message listing what the jail lets the student's process see (paths of the course, the checks, the secret, the answer keys, other students, /proc, the environment's names) and marker files from earlier submissions (state kept across submissions): it must show nothing of the instructor's, and no marker from an earlier run
# %% [lm_loss]
import os


def _probe():
    seen = []
    for p in ["/work/main/assignments/grading", "/work/main/assignments/grading/course_secret",
              "/work/main/assignments/source", "/work/main/course_grading", "/work/main/tests",
              "/work/main/solutions", "/tmp/m_keys", "/tmp/s62", "/tmp/atk", "/work", "/root", "/home",
              "/work/main/assignments/gradebook.db", "/work/main/assignments/submitted", "/proc/1/environ"]:
        seen.append(f"{p}:{'E' if os.path.exists(p) else '-'}{'R' if os.access(p, os.R_OK) else '-'}{'W' if os.access(p, os.W_OK) else '-'}")
    try:
        seen.append("root=" + ",".join(sorted(os.listdir("/"))))
    except OSError as e:
        seen.append(f"root:{e}")
    seen.append(f"cwd={os.getcwd()} uid={os.getuid()} pid={os.getpid()} ppid={os.getppid()}")
    try:
        seen.append("cwdls=" + ",".join(sorted(os.listdir("."))[:40]))
    except OSError as e:
        seen.append(f"cwdls:{e}")
    try:
        seen.append("tmpls=" + ",".join(sorted(os.listdir("/tmp"))[:40]))
    except OSError as e:
        seen.append(f"tmpls:{e}")
    seen.append("env=" + ",".join(sorted(os.environ)))
    try:
        with open("/proc/1/cmdline", "rb") as f:
            seen.append("pid1=" + f.read()[:200].replace(b"\0", b" ").decode(errors="replace"))
    except OSError as e:
        seen.append(f"pid1:{e}")
    try:
        seen.append("procs=" + ",".join(sorted(x for x in os.listdir("/proc") if x.isdigit())))
    except OSError as e:
        seen.append(f"procs:{e}")
    for d in ["/tmp", "/var/tmp", "/dev/shm", "/run/shm", os.path.expanduser("~"), ".", "/run/lock"]:
        m = os.path.join(d, ".probe_marker_r37")
        had = os.path.exists(m)
        try:
            with open(m, "w") as f:
                f.write("x")
            wrote = "w"
        except OSError:
            wrote = "-"
        seen.append(f"mark {d}:{'OLD' if had else 'new'}{wrote}")
    return " | ".join(seen)


def lm_loss(logits, targets):
    """Mean next-token cross-entropy."""
    raise AssertionError("PROBE " + _probe())
