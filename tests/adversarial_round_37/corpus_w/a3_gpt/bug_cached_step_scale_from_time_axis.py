# expect: loses cached_step -- "attend from its query to all P + 1 keys (scaled dot-product ...)": the scale is 1/sqrt(d_head), but this step reads k.shape[-2] (the time axis, P + 1) instead of k.shape[-1]; with one key (P = 0, the visible value test) the softmax is 1 whatever the scale, so only later steps, where P + 1 != d_head, are wrong
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).reshape(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    v = torch.cat([cache_v, (x @ W_v).reshape(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-2])
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
