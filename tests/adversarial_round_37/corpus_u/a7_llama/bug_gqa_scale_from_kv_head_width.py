# expect: loses gqa (the scores divided by sqrt(d // n_kv_heads) instead of sqrt(d_head) = sqrt(d // n_heads): B 2, T 5, d 16, h 4, h_kv 2: the outputs differ by 0.29; n_kv_heads = n_heads agrees exactly, and so does every visible test (position 0 alone, and a cache consistent with itself))
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
    k_rep, v_rep = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # (B, h, P + T, d_head)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d // n_kv_heads)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ v_rep) @ W_o, (k, v)
