# expect: loses gqa -- a separate fast path for one new position (T == 1, no mask) that shares the key/value heads out with .repeat (query head j gets head j % n_kv_heads) while the general path is right; the visible part-4 tests never use T = 1 and part 5 uses n_kv_heads = 1, where both orders agree; differs for T == 1 with 1 < n_kv_heads < n_heads, e.g. B=2, T=1, d=16, n_heads=4, n_kv_heads=2, with or without a cache
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    if T == 1:  # decoding: the one new position sees everything, no mask needed
        k_all, v_all = k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1)
        weights = torch.softmax(q @ k_all.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
        return merge_heads(weights @ v_all) @ W_o, (k, v)
    q = q.view(B, n_kv_heads, group, T, d_head)
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
