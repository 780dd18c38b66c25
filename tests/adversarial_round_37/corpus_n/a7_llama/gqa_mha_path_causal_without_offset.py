# expect: loses gqa -- special-cases n_kv_heads == n_heads ('plain multi-head attention: no groups') with its own code, whose causal mask is triu(ones(T, P + T), diagonal=1), right only without a cache: with P > 0 the query at position P + t is kept from the cached keys t + 1 .. P + t (a single decoding step sees only key 0); the grouped path is right, and the visible tests use n_kv_heads = 2 of 4 and 1 of 4, so they pass; breaks 'n_kv_heads = n_heads is multi-head attention' together with 'the new position at P + t attends to positions 0 .. P + t'; input: B = 1, d = 16, n_heads = n_kv_heads = 4, x = randn(1, 5, 16) in two calls (3 positions, then 2 with the cache) -> the second call's output differs from the key's by ~3 (the first call: identical)
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
    if n_kv_heads == n_heads:  # plain multi-head attention: no groups to share out
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, P + T)
        future = torch.ones(T, P + T, dtype=torch.bool).triu(diagonal=1)
        out = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1) @ v
        return merge_heads(out) @ W_o, (k, v)
    q = q.reshape(B, n_kv_heads, group, T, d_head)  # query heads j = kv * group + i share key/value head kv
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)  # (B, h_kv, group, T, P + T)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
