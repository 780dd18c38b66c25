# expect: loses gqa -- keeps the keys UNrotated in the cache and rotates the whole key sequence (positions 0 .. P+T-1) at every call: its outputs are self-consistent, but the returned cache is not "the keys (already rotated)", and a cache in the spec's format (e.g. built by the reference from the first 3 positions) gets rotated twice
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = split_heads(x @ W_k, n_kv_heads)  # raw keys: the cache stores what the projection gave
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    k_rotated = apply_rotary(k, start=0, base=base)  # positions 0 .. P + T - 1
    q = q.view(B, n_kv_heads, group, T, d_head)
    scores = q @ k_rotated[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
