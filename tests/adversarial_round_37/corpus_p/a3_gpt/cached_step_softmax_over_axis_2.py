# expect: loses cached_step -- takes the softmax over dim=2 ("time is axis 2", as the spec says of the cache) but the scores are (B, h, 1, P + 1): axis 2 is the single query, so every weight becomes 1 and the output sums the values instead of averaging them by attention. Right when P = 0 (one key, weight 1), which is the visible value check; the second visible step checks only the cache. Breaks "attend from its query to all P + 1 keys (scaled dot-product)"; input: d = 8, h = 2, P = 3 random cache, x = randn(1, 1, 8) -> key vs this answer max abs diff 1.79 (P = 0: equal)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k_new = (x @ W_k).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)  # time is axis 2
    v = torch.cat([cache_v, v_new], dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, 1, P + 1)
    weights = torch.softmax(scores, dim=2)  # over time
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
