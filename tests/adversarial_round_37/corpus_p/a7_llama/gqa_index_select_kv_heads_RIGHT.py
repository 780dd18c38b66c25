# expect: full marks -- gathers each query head's key/value head with index_select on an explicit head map (j * n_kv_heads // n_heads, which is j // g), builds the causal mask from the absolute positions of queries and keys, and scales q before the product
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v_new = split_heads(x @ W_v, n_kv_heads)
    k = k_new if cache is None else torch.cat([cache[0], k_new], dim=-2)
    v = v_new if cache is None else torch.cat([cache[1], v_new], dim=-2)
    head_map = torch.arange(n_heads) * n_kv_heads // n_heads  # query head j -> kv head floor(j / g)
    kk, vv = k.index_select(1, head_map), v.index_select(1, head_map)  # (B, h, P + T, d_head)
    q_pos = torch.arange(P, P + T)[:, None]
    k_pos = torch.arange(P + T)[None, :]
    scores = (q * d_head ** -0.5) @ kk.transpose(-1, -2)
    scores = scores.masked_fill(k_pos > q_pos, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ vv
    return merge_heads(out) @ W_o, (k, v)
