# expect: full marks -- attention computed in float64 and cast back: heads expanded with repeat_interleave for the computation only (the returned cache keeps n_kv_heads heads), an additive -inf mask from torch.full(...).triu(P + 1), scale d_head ** -0.5
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = cache[0].size(2) if cache is not None else 0
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=2)
        v = torch.cat([cache[1], v], dim=2)
    kk = k.repeat_interleave(group, dim=1).double()
    vv = v.repeat_interleave(group, dim=1).double()
    bias = torch.full((T, P + T), float("-inf"), dtype=torch.float64).triu(P + 1)  # -inf right of column P + t
    scores = q.double() @ kk.transpose(-1, -2) * d_head**-0.5 + bias
    out = (scores.softmax(dim=-1) @ vv).to(x.dtype)
    return merge_heads(out) @ W_o, (k, v)
