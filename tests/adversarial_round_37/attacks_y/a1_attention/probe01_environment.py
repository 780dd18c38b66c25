# expect: 12/12 (the answer key) plus a cell that prints what the jailed process sees: descriptors,
# writable places, mounts, limits, ids, cgroup. Reconnaissance for attacks_y, not an attack.
# %% [new after imports]
import os, resource
print("uid", os.getuid(), os.geteuid(), "gid", os.getgid(), "pid", os.getpid(), "ppid", os.getppid(), "pgid", os.getpgid(0))
for fd in sorted(int(f) for f in os.listdir("/proc/self/fd")):
    try:
        print("fd", fd, os.readlink(f"/proc/self/fd/{fd}"))
    except OSError as e:
        print("fd", fd, e)
for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_MEMLOCK", "RLIMIT_MSGQUEUE", "RLIMIT_SIGPENDING", "RLIMIT_NICE", "RLIMIT_RTPRIO"):
    print(name, resource.getrlimit(getattr(resource, name)))
with open("/proc/self/status") as f:
    print("".join(l for l in f if l.split(":")[0] in ("Seccomp", "Seccomp_filters", "NoNewPrivs", "CapEff", "CapBnd", "CapPrm", "Threads", "NSpid")))
with open("/proc/self/cgroup") as f:
    print("cgroup", f.read())
with open("/proc/self/mountinfo") as f:
    print("mounts", f.read()[:6000])
found = []
for root, dirs, files in os.walk("/", topdown=True):
    if root.startswith(("/proc", "/sys")):
        dirs[:] = []
        continue
    if os.access(root, os.W_OK):
        found.append(root)
    if len(found) > 60:
        break
print("writable dirs", found)
print("proc pids", sorted(int(p) for p in os.listdir("/proc") if p.isdigit())[:50])
print("sys exists", os.path.exists("/sys/fs/cgroup"), os.listdir("/sys") if os.path.exists("/sys") else None)
print("env", dict(os.environ))
