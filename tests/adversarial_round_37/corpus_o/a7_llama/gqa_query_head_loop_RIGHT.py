# expect: full marks — gqa: a Python loop over the query heads, head j reading key/value head j // group from the grown cache, each head's causal attention from scratch (explicit position comparison for the mask), the heads concatenated along the features
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = cache[0].shape[-2] if cache is not None else 0
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
    query_pos = torch.arange(P, P + T)[:, None]
    key_pos = torch.arange(P + T)[None, :]
    future = key_pos > query_pos
    outs = []
    for j in range(n_heads):
        kv = j // group
        s = q[:, j] @ k[:, kv].transpose(-2, -1) / math.sqrt(d_head)
        w = torch.softmax(s.masked_fill(future, float("-inf")), dim=-1)
        outs.append(w @ v[:, kv])  # (B, T, d_head)
    return torch.cat(outs, dim=-1) @ W_o, (k, v)
