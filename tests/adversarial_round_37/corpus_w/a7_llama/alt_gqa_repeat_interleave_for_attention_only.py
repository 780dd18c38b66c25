# expect: full marks -- Hugging Face's way: the cache keeps each key/value head once, and only for the attention are the kv heads repeated with repeat_interleave(g, dim=1), so query head j meets kv head j // g; the causal mask compares absolute positions (key j <= P + t) and fills -inf before the softmax; rotary at positions P .. P + T - 1, values unrotated
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves."""
    T = x.shape[1]
    d_head = x.shape[-1] // n_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=-2), torch.cat([cache[1], v], dim=-2)
    g = n_heads // n_kv_heads
    k_all, v_all = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)  # (B, h, P + T, d_head)
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(d_head)
    query_pos = torch.arange(P, P + T)[:, None]
    key_pos = torch.arange(P + T)[None, :]
    scores = scores.masked_fill(key_pos > query_pos, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v_all
    return merge_heads(out) @ W_o, (k, v)
