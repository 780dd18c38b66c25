# expect: mha 0, 9/12 graded (as atk04, but the zygote's address space is capped at its present size, so that the answer key's jailed control fails at the first case: the student's own MemoryError is then taken for the jail's)
# %% [mha]
import resource


def _vm(path):
    for line in open(path):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    if tuple(x_q.shape) != (2, 5, 8) or x_q.dtype != torch.float32:
        try:
            size = _vm("/proc/1/status")
        except OSError:
            size = 0
        size = size or _vm("/proc/self/status") // 2
        resource.prlimit(1, resource.RLIMIT_AS, (size, size))
        raise MemoryError("hidden")
    return torch.zeros_like(x_q)
