# expect: loses gqa -- rotates the values as well as the queries and keys ("values are not rotated"): position 0 is unrotated and a cache is self-consistent, so the visible tests pass, but every output row that attends to a position > 0 is wrong, and so is the cached v
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = apply_rotary(split_heads(x @ W_v, n_kv_heads), start=P, base=base)  # every projection gets its position
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    q = q.view(B, n_kv_heads, group, T, d_head)
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
