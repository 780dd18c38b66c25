# expect: mha 0 (a stub that passes the shape-only visible tests and loops forever on hidden calls); 9/12, graded
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    if tuple(x_q.shape) != (2, 5, 8) or x_q.dtype != torch.float32:
        while True:
            pass
    return torch.zeros_like(x_q)
