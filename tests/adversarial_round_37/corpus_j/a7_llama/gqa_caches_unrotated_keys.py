# expect: loses gqa -- keeps the keys unrotated in the cache and rotates all P + T of them at every call (consistent with itself, so the visible tests pass), but the spec's cache holds rotated keys: the returned k differs from the reference's for any T >= 2, and a reference cache passed in is rotated twice
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    k = split_heads(x @ W_k, n_kv_heads)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=2)
        v = torch.cat([cache[1], v], dim=2)
    P = k.shape[2] - T
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_rot = apply_rotary(k, start=0, base=base)  # every key at its own position 0 .. P + T - 1
    k_rep = k_rot.repeat_interleave(group, dim=1)
    v_rep = v.repeat_interleave(group, dim=1)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d_head)
    causal = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)
    return merge_heads(weights @ v_rep) @ W_o, (k, v)
