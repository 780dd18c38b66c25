# expect: loses gqa -- the queries are rotated with the given base but the new keys with apply_rotary's default (10,000): with base 10,000 (float or int) every call agrees with the key exactly; with base 500 the scores no longer depend on m - n alone and the cache holds keys rotated with the wrong frequencies (x (2, 5, 16), 4 heads over 2: outputs differ by 0.20, the returned keys by 0.23)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), P)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    kk, vv = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = q @ kk.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    out = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ vv
    return merge_heads(out) @ W_o, (k, v)
