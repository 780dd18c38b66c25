# container jail probe (goal c): the key, plus a cell that reports (through masks' failure message) what the
# student's process can see: its ids, its inherited descriptors, environment, the other processes' command lines and
# environments, world-writable folders the sweep does not cover, what it can open under /autograder. A correct grader:
# masks 0 (it is made to fail), nothing hidden shown.
# %% [new after masks]
import os, json
_info = {"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups()}
_fds = {}
for _fd in os.listdir("/proc/self/fd"):
    try: _fds[_fd] = os.readlink(f"/proc/self/fd/{_fd}")
    except OSError as e: _fds[_fd] = str(e)
_info["fds"] = _fds
_info["env"] = sorted(os.environ)
_procs = {}
for _p in os.listdir("/proc"):
    if _p.isdigit():
        try: _c = open(f"/proc/{_p}/cmdline", "rb").read().replace(b"\0", b" ")[:160].decode()
        except OSError: _c = "?"
        try: open(f"/proc/{_p}/environ", "rb").read(1); _e = "ENV READABLE"
        except OSError: _e = ""
        if any(w in _c for w in ("course", "autograder", "student_server")): _procs[_p] = _c + " " + _e
_info["procs"] = _procs
_ww = []
for _root, _dirs, _files in os.walk("/", topdown=True):
    if _root.startswith(("/proc", "/sys")): _dirs[:] = []; continue
    if os.access(_root, os.W_OK): _ww.append(_root); 
    if len(_ww) > 40: break
_info["writable"] = _ww
_au = []
for _root, _dirs, _files in os.walk("/autograder"):
    for _f in _files:
        _p = os.path.join(_root, _f)
        try: open(_p, "rb").read(1); _au.append(_p)
        except OSError: pass
_info["autograder_readable"] = _au[:30] + [len(_au)]
_INFO = json.dumps(_info)
def causal_mask(*a, **k):
    raise RuntimeError("PROBE " + _INFO)
