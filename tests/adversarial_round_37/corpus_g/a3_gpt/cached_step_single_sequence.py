# expect: loses cached_step -- written for one sequence: the heads are split with view(-1, n_heads, d_head) and the batch axis is lost, so any B > 1 fails
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    d = x.shape[-1]
    d_head = d // n_heads
    q = (x @ W_q).view(-1, n_heads, d_head).transpose(0, 1)  # (h, 1, d_head)
    k_new = (x @ W_k).view(-1, n_heads, d_head).transpose(0, 1)
    v_new = (x @ W_v).view(-1, n_heads, d_head).transpose(0, 1)
    k = torch.cat([cache_k, k_new.unsqueeze(0)], dim=2)  # (1, h, P + 1, d_head)
    v = torch.cat([cache_v, v_new.unsqueeze(0)], dim=2)
    weights = torch.softmax(q.unsqueeze(0) @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(x.shape) @ W_o
    return out, k, v
