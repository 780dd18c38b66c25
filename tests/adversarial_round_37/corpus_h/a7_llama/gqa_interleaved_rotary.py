# expect: loses gqa -- rotates queries and keys in the interleaved layout (Meta's original weights) instead of the rotate-half layout the spec asks for; self-consistent, so the visible tests pass; differs for any T >= 2 (outputs and the returned k), e.g. B=2, T=5, d=16, n_heads=4, n_kv_heads=2
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), P, base, True)  # RoPE as in the paper: pairs (2i, 2i + 1)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), P, base, True)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    q = q.view(B, n_kv_heads, group, T, d_head)
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
