# expect: loses gqa -- a separate path for n_kv_heads == n_heads (plain MHA) that applies the causal mask only when cache is None, assuming one new position when there is a cache: wrong for P > 0 and T > 1 with h_kv = h only (every visible test uses h_kv < h); "the new position at P + t attends to positions 0 .. P + t"; x randn(2, 7, 16), h = h_kv = 4, cache of x[:, :3], then x[:, 3:] (T = 4): max abs diff 0.82; T = 1 with the cache, no cache, or h_kv = 2: 0.0
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
    if group == 1:  # plain multi-head attention: no grouping needed
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, P + T)
        if cache is None:  # a prompt: causal; with a cache, the newest position sees every key
            scores = scores.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return merge_heads(out) @ W_o, (k, v)
    qg = q.reshape(B, n_kv_heads, group, T, d_head)
    scores = qg @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)  # (B, h_kv, g, T, P + T)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
