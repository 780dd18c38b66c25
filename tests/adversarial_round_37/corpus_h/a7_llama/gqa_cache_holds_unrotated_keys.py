# expect: loses gqa -- the cache keeps the keys before rotation and the whole key sequence 0 .. P+T-1 is rotated at every call; the outputs equal the key's and the visible checks only compare the function with itself, but the returned cache k is unrotated (differs at every position >= 1, e.g. T=5 without cache), and a cache of already-rotated keys, as the spec defines it, is rotated a second time (out differs for any P >= 1)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    k = split_heads(x @ W_k, n_kv_heads)  # raw keys: rotated when used
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    P = k.shape[2] - T
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_rot = apply_rotary(k, start=0, base=base)  # every position 0 .. P + T - 1
    q = q.view(B, n_kv_heads, group, T, d_head)
    scores = q @ k_rot[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
