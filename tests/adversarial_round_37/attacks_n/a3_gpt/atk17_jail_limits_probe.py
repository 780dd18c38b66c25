# expect: loses lm_loss -- lm_loss fails its visible test on purpose with a message describing the jail's limits as seen from inside (mount table, /tmp's size and free space, rlimits, cgroup, what /root holds by name): information for a resource attack; nothing of the instructor's may show
# %% [lm_loss]
import os


def _read(path, n=3000):
    try:
        with open(path, "rb") as f:
            return f.read(n).decode(errors="replace")
    except OSError as e:
        return f"<{e.__class__.__name__}>"


def _probe():
    out = ["mounts=" + " ; ".join(l.split(" ")[1] + ":" + l.split(" ")[2] + ":" + l.split(" ")[3][:60] for l in _read("/proc/self/mounts").splitlines())]
    for d in ["/tmp", "/dev/shm", "/"]:
        try:
            s = os.statvfs(d)
            out.append(f"statvfs {d}: free={s.f_bavail * s.f_frsize >> 20} MiB total={s.f_blocks * s.f_frsize >> 20} MiB files_free={s.f_favail}")
        except OSError as e:
            out.append(f"statvfs {d}: {e}")
    out.append("limits=" + " ; ".join(" ".join(l.split()) for l in _read("/proc/self/limits").splitlines()[1:]))
    out.append("cgroup=" + _read("/proc/self/cgroup").replace("\n", " "))
    out.append("status=" + " ".join(l for l in _read("/proc/self/status").splitlines() if l.startswith(("Cap", "NoNewPrivs", "Seccomp", "Uid", "Threads"))))
    try:
        out.append("rootdir=" + ",".join(sorted(os.listdir("/root"))[:30]))
    except OSError as e:
        out.append(f"rootdir:{e}")
    try:
        out.append("workdir=" + ",".join(sorted(os.listdir("/work"))[:30]))
    except OSError as e:
        out.append(f"workdir:{e}")
    return " | ".join(out)


def lm_loss(logits, targets):
    """Mean next-token cross-entropy."""
    raise AssertionError("PROBE " + _probe())
