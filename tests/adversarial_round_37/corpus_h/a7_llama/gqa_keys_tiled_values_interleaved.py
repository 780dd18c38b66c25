# expect: loses gqa -- keys expanded with k.repeat(1, g, 1, 1) (query head j scores against key head j % n_kv_heads) but values with repeat_interleave (head j // g): the visible position-0 check only sees the values; differs whenever 1 < n_kv_heads < n_heads and T >= 2, e.g. B=2, T=5, d=16, n_heads=4, n_kv_heads=2, no cache
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = cache[0].shape[2] if cache is not None else 0
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=2)
        v = torch.cat([cache[1], v], dim=2)
    keys = k.repeat(1, group, 1, 1)  # (B, n_heads, P + T, d_head): one key head per query head
    values = v.repeat_interleave(group, dim=1)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d_head)  # (B, n_heads, T, P + T)
    causal = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    scores = scores.masked_fill(~causal, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ values
    return merge_heads(out) @ W_o, (k, v)
