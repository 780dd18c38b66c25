# expect: loses gqa -- scores divided by sqrt(q.size(1)), which is n_heads, not d_head (split_heads gives (B, h, T, d_head)); n_heads = d_head = 4 in every visible test; "scores divided by sqrt(d_head)"; x randn(2,6,16), h 2 (d_head 8), h_kv 1, seed 0: max abs diff of out vs the key 0.68; h 4 (d_head 4): equal
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    P = 0 if cache is None else cache[0].shape[2]
    T = x.shape[1]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    g = n_heads // n_kv_heads
    kk, vv = k.repeat_interleave(g, 1), v.repeat_interleave(g, 1)
    scores = torch.einsum("bhtd,bhsd->bhts", q, kk) / math.sqrt(q.size(1))  # / sqrt(d_head)
    future = torch.ones(T, P + T, dtype=torch.bool).triu(diagonal=P + 1)
    weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    return merge_heads(torch.einsum("bhts,bhsd->bhtd", weights, vv)) @ W_o, (k, v)
