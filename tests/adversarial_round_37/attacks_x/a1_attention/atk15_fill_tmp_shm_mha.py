# expect: mha 0, 9/12 graded (a stub that passes the shape-only visible tests; on its hidden call it fills /tmp and /dev/shm, the jail's writable places, then raises OSError as a full disk would: the answer key's jailed control must not see them)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    if tuple(x_q.shape) != (2, 5, 8) or x_q.dtype != torch.float32:
        for place in ("/tmp", "/dev/shm"):
            try:
                with open(place + "/fill", "wb") as f:
                    while True:
                        f.write(b"\0" * (1 << 20))
            except OSError:
                pass
        raise OSError(28, "No space left on device")
    return torch.zeros_like(x_q)
