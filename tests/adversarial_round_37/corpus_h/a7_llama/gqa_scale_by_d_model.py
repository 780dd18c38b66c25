# expect: loses gqa -- scores divided by sqrt(d) (the model width) instead of sqrt(d_head); position 0 attends only to itself and the cache check compares the function with itself, so the visible tests pass; differs for any T >= 2 (or P >= 1), e.g. B=2, T=5, d=16, n_heads=4, n_kv_heads=2
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
    k_all, v_all = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(d)  # scaled dot-product
    mask = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    return merge_heads(weights @ v_all) @ W_o, (k, v)
