# expect: 12/12 graded, and the submissions graded after it by the same worker graded as they deserve (the answer key, plus a cell after the imports that caps the jail's zygote, PID 1, at its present address space + 8 MiB with resource.prlimit: every hidden check's fresh process, its own and the next students', and every jailed control of the answer key, is forked from that zygote)
# %% [new after imports]
import resource

_size = [int(l.split()[1]) * 1024 for l in open("/proc/1/status") if l.startswith("VmSize:")][0]
resource.prlimit(1, resource.RLIMIT_AS, (_size + (8 << 20), _size + (8 << 20)))
