# expect: loses gqa -- "rotate the queries and the new keys as positions P .. P + T - 1 (`apply_rotary`, rotate-half layout, the given `base`)": the queries get the given base, the keys apply_rotary's default 10,000; with the default base (every visible test) the two agree and all is right, and with any other base (Llama 3's 500,000, Code Llama's 1,000,000, a small one) q.k no longer depends on the positions through m - n alone and every score is off
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    k_all, v_all = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # (B, h, P + T, d_head)
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ v_all) @ W_o, (k, v)
