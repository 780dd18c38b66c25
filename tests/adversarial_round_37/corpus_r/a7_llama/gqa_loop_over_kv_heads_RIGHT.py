# expect: full marks -- style: a Python loop over the key/value heads, each attended by its group of consecutive query heads (a slice of q), the causal mask from absolute positions (key position <= P + t), outputs concatenated in head order
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    T, d = x.shape[1], x.shape[2]
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=-2), torch.cat([cache[1], v], dim=-2)
    query_position = torch.arange(P, P + T)[:, None]
    key_position = torch.arange(P + T)[None, :]
    future = key_position > query_position  # (T, P + T)
    heads = []
    for j in range(n_kv_heads):
        q_group = q[:, j * group : (j + 1) * group]  # (B, g, T, d_head): query heads j*g .. (j+1)*g - 1
        scores = q_group @ k[:, j : j + 1].transpose(-2, -1) / math.sqrt(d_head)  # (B, g, T, P + T)
        weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        heads.append(weights @ v[:, j : j + 1])
    return merge_heads(torch.cat(heads, dim=1)) @ W_o, (k, v)
