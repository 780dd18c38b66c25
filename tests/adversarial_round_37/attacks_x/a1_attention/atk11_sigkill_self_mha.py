# expect: mha 0, 9/12 graded (a stub that passes the shape-only visible tests and kills its own process with SIGKILL on every hidden call, as the kernel's out-of-memory killer would: ProcessDied)
# %% [mha]
import os


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    if tuple(x_q.shape) != (2, 5, 8) or x_q.dtype != torch.float32:
        os.kill(os.getpid(), 9)
    return torch.zeros_like(x_q)
