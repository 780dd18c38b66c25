# expect: loses cached_step -- takes the softmax over dim=2, "the time axis" of the cache, but in the (B, h, 1, P+1) scores axis 2 is the single query: every weight becomes 1 and the output is the sum of the values (correct only at P = 0); spec: "attend from its query to all P + 1 keys (scaled dot-product ...)", the softmax running over the keys
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)  # time is axis 2
    v = torch.cat([cache_v, (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    scores = q @ k.transpose(2, 3) / math.sqrt(d_head)  # (B, h, 1, P + 1)
    weights = torch.softmax(scores, dim=2)  # over time
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d)
    return out @ W_o, k, v
