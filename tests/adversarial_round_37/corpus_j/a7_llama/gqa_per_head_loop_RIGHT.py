# expect: full marks -- an explicit loop over the query heads, head j reading key/value head j // g, with the causal rule written as key position > query position; an empty cache stands for None
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    g = n_heads // n_kv_heads
    if cache is None:
        empty = x.new_zeros(B, n_kv_heads, 0, d_head)
        cache = (empty, empty)
    past_k, past_v = cache
    P = past_k.shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = torch.cat([past_k, apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)], dim=2)
    v = torch.cat([past_v, split_heads(x @ W_v, n_kv_heads)], dim=2)
    future = torch.arange(P + T)[None, :] > torch.arange(P, P + T)[:, None]  # (T, P + T)
    outs = []
    for j in range(n_heads):
        kv = j // g
        scores = q[:, j] @ k[:, kv].transpose(-1, -2) / math.sqrt(d_head)  # (B, T, P + T)
        weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        outs.append(weights @ v[:, kv])
    return merge_heads(torch.stack(outs, dim=1)) @ W_o, (k, v)
