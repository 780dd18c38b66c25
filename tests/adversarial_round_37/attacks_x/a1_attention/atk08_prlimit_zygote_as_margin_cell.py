# expect: the notebook's own grade is irrelevant (answer key otherwise); the submissions graded after it by the same worker must keep their points (a cell added after the imports caps the jail's zygote, PID 1, at its present address space + 512 MiB with resource.prlimit: every student process forked after it, the next students' included, inherits that cap; a notebook that keeps some hundreds of MB in its globals fails hidden cases that the answer key's jailed control, holding nothing, passes)
# %% [new after imports]
import resource


def _status(path):
    return {l.split(":")[0]: l.split(":")[1].strip() for l in open(path) if ":" in l}


_z = _status("/proc/1/status")
print("zygote:", _z.get("Name"), _z.get("Uid"), _z.get("VmSize"), "limits before:", resource.prlimit(1, resource.RLIMIT_AS))
_cap = int(_z["VmSize"].split()[0]) * 1024 + (512 << 20)
resource.prlimit(1, resource.RLIMIT_AS, (_cap, _cap))
print("limits after:", resource.prlimit(1, resource.RLIMIT_AS))
