# expect: loses cached_step -- written for generation one sequence at a time: takes x[0, 0] and cache_k[0], so it is right for B = 1 (all the visible tests) but for B >= 2 it returns only the first sequence's output (1, 1, d) and cache (1, h, P + 1, d_head), e.g. x = randn(3, 1, 8), P = 2
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    d = x.shape[-1]
    d_head = d // n_heads
    token = x[0, 0]  # the newest position's vector (d,)
    q = (token @ W_q).view(n_heads, 1, d_head)
    k = torch.cat([cache_k[0], (token @ W_k).view(n_heads, 1, d_head)], dim=1)  # (h, P + 1, d_head)
    v = torch.cat([cache_v[0], (token @ W_v).view(n_heads, 1, d_head)], dim=1)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (h, 1, P + 1)
    out = (weights @ v).reshape(1, 1, d) @ W_o
    return out, k.unsqueeze(0), v.unsqueeze(0)
