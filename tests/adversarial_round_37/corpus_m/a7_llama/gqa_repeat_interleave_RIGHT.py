# expect: full marks -- repeats each key/value head g times with repeat_interleave (query head j reads kv head j // g) only for the attention, keeps the cache un-repeated, and masks with key position > query position (P + t): values, cache and gradients (cache tensors included) equal the key's
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=-2), torch.cat([cache[1], v], dim=-2)
    k_all, v_all = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # head j reads kv head j // group
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, P + T)
    query_pos = torch.arange(P, P + T)[:, None]
    key_pos = torch.arange(P + T)[None, :]
    scores = scores.masked_fill(key_pos > query_pos, float("-inf"))  # no key after the query
    out = merge_heads(torch.softmax(scores, dim=-1) @ v_all) @ W_o
    return out, (k, v)
