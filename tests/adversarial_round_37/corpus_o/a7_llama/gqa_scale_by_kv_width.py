# expect: loses gqa — divides the scores by the square root of the key projection's width (W_k.shape[1] = n_kv_heads * d_head) instead of sqrt(d_head); equal only for multi-query attention (n_kv_heads = 1), and the visible tests check a lone position (weight 1 whatever the scale) and cache consistency, both blind to the scale; input: B, T, d, h, h_kv = 2, 5, 16, 4, 2 -> out differs from the key's (max abs diff ~0.38; with h_kv = 1 equal)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    group = n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    kk, vv = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = q @ kk.transpose(-2, -1) / math.sqrt(W_k.shape[1])  # the key width
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ vv) @ W_o, (k, v)
