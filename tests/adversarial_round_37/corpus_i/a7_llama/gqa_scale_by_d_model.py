# expect: loses gqa -- scores divided by sqrt(d) instead of sqrt(d_head): position 0 (one key) and the cached-vs-whole consistency are blind to it, but every output at positions >= 1 is wrong (B=2, T=5, d=16, h=4, h_kv=2)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves."""
    B, T, d = x.shape
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
    g = n_heads // n_kv_heads
    k_rep, v_rep = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d)
    allowed = torch.arange(P + T)[None, :] <= torch.arange(P, P + T)[:, None]
    scores = scores.masked_fill(~allowed, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v_rep
    return merge_heads(out) @ W_o, (k, v)
