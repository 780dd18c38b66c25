# expect: loses gqa -- applies the rotary embedding to the values as well as the queries and keys (the spec: values are not rotated); position 0 is unchanged so the visible tests pass: x = randn(2, 5, 16), h=4, h_kv=2 gives a different out from position 1 on and a different cached v
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    P = cache[0].shape[2] if cache is not None else 0
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = apply_rotary(split_heads(x @ W_v, n_kv_heads), start=P, base=base)
    if cache is not None:
        k = torch.cat((cache[0], k), dim=2)
        v = torch.cat((cache[1], v), dim=2)
    g = n_heads // n_kv_heads
    keys = k[:, :, None].expand(B, n_kv_heads, g, P + T, d_head).reshape(B, n_heads, P + T, d_head)
    values = v[:, :, None].expand(B, n_kv_heads, g, P + T, d_head).reshape(B, n_heads, P + T, d_head)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.arange(P + T)[None, :] <= torch.arange(P, P + T)[:, None]
    attn = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(attn @ values) @ W_o, (k, v)
