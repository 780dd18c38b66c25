# expect: full marks -- allocates the grown cache (B, n_kv_heads, P + T, d_head) with x.new_empty and fills it by slice assignment (old keys/values, then the new ones): slice assignment is recorded by autograd, so gradients still flow to the cache's tensors and to x and every weight; the key/value heads are expanded for the scores with repeat_interleave (head j uses kv head j // g) while the returned cache holds each head once; the causal mask from absolute positions (key position <= query position); same outputs, caches and gradients as the key for MHA/GQA/MQA, P = 0 and P > 0, T = 1 and several, float32/float64, int base
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v_new = split_heads(x @ W_v, n_kv_heads)
    k, v = x.new_empty(B, n_kv_heads, P + T, d_head), x.new_empty(B, n_kv_heads, P + T, d_head)
    if cache is not None:
        k[:, :, :P], v[:, :, :P] = cache[0], cache[1]
    k[:, :, P:], v[:, :, P:] = k_new, v_new
    keys, values = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # (B, h, P + T, d_head)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d_head)
    future = torch.arange(P + T)[None, :] > torch.arange(P, P + T)[:, None]  # key after the query
    out = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1) @ values
    return merge_heads(out) @ W_o, (k, v)
