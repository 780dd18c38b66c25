# expect: loses gqa -- takes the softmax in float32 and casts back, as Hugging Face's eager attention does (softmax(..., dtype=torch.float32).to(query.dtype)); harmless in float32, but float64 inputs get float32's rounding of the weights. Breaks "float32 and float64 inputs, floating outputs in the inputs' dtype and at its precision"; input: float64, B, T, d, h, h_kv = 2, 7, 16, 4, 2, weights randn/4, no cache -> key vs this answer max abs diff 1.7e-7 (key vs a float64 per-head reference: 0)
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
    kk = k.repeat_interleave(group, dim=1)  # query head j reads kv head j // group
    vv = v.repeat_interleave(group, dim=1)
    scores = q @ kk.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)  # upcast for stability, as HF does
    return merge_heads(weights @ vv) @ W_o, (k, v)
