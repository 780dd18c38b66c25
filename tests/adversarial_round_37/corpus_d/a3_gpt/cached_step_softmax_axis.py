# expect: loses cached_step -- the softmax runs over the query axis (size 1) instead of the keys, so every weight is 1: right on the first step (P = 0), a plain sum of the values once the cache holds anything; spec: "attend from its query to all P + 1 keys (scaled dot-product ...)"
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    v = torch.cat([cache_v, (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, 1, P + 1)
    weights = torch.softmax(scores, dim=-2)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
