# expect: loses gqa -- the scale 1/sqrt(d_head) is made as torch.tensor(d_head).sqrt(), a 0-d float32 tensor: float64 scores divided by it stay float64 but by a float32-rounded sqrt, exact only where d_head is a perfect square (4 in every visible test); "floating outputs in the inputs' dtype and at its precision" (float64); float64 x randn(2,7,16), h 2 (d_head 8), h_kv 1: key vs a float64 per-head reference 0 (<1e-15), this answer 1.75e-8 off
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
    k_rep = k.repeat_interleave(group, dim=1)  # (B, h, P + T, d_head)
    v_rep = v.repeat_interleave(group, dim=1)
    scale = torch.tensor(d_head).sqrt()  # sqrt(d_head)
    scores = q @ k_rep.transpose(-2, -1) / scale
    causal = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    scores = scores.masked_fill(~causal, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v_rep
    return merge_heads(out) @ W_o, (k, v)
