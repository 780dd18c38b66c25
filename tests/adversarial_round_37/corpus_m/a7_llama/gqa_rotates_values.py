# expect: loses gqa -- applies the rotary embedding to the values as well as to the queries and keys; position 0 is not rotated and the cache is rotated consistently, so every visible test passes; breaks '1. rotate the queries and the new keys ...; values are not rotated'; input: B,T,d,h,h_kv = 2,5,16,4,2, W's randn/4, x randn -> out[:, 1:] and the returned v differ from the key's
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)  # (B, h, T, d_head)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)  # (B, h_kv, T, d_head)
    v = apply_rotary(split_heads(x @ W_v, n_kv_heads), start=P, base=base)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)  # (B, h_kv, P + T, d_head)
    q = q.view(B, n_kv_heads, group, T, d_head)  # query heads j = kv * group + i share key/value head kv
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)  # (B, h_kv, group, T, P + T)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)  # row t sees keys 0 .. P + t
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)  # (B, h, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
