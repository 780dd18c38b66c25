# expect: loses cached_step  -- keeps the keys/values in module globals, resets them only when P == 0 and ignores the cache_k/cache_v passed in later; a call with a cache from another sequence (or batch) uses stale state; spec: "The keys and values of positions 0..P-1 were computed at earlier steps and kept: cache_k and cache_v ... append its key and value to the cache along the time axis"
# %% [cached_step]
_K, _V = None, None  # the growing cache


def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    global _K, _V
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k_new = (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)
    if cache_k.shape[2] == 0 or _K is None:  # a new sequence starts
        _K, _V = cache_k, cache_v
    _K = torch.cat([_K, k_new], dim=2)
    _V = torch.cat([_V, v_new], dim=2)
    weights = torch.softmax(q @ _K.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ _V).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, _K, _V
