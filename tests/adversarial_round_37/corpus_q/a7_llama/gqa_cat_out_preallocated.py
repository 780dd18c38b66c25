# expect: loses gqa -- the grown cache is written into a preallocated buffer with torch.cat(..., out=buf): right values while nothing requires grad (every visible test), but "gradients flow back to x, W_q, W_k, W_v, W_o and every tensor of cache" fails: with x randn(2,5,16) requiring grad (h 4, h_kv 2) the key returns out and its gradient; this answer raises RuntimeError "functions with out=... arguments don't support automatic differentiation"; under no_grad equal to the key
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v_new = split_heads(x @ W_v, n_kv_heads)
    # one buffer per step for the grown cache, filled without temporaries
    k = x.new_empty(B, n_kv_heads, P + T, d_head)
    v = x.new_empty(B, n_kv_heads, P + T, d_head)
    if cache is None:
        torch.cat([k_new], dim=2, out=k)
        torch.cat([v_new], dim=2, out=v)
    else:
        torch.cat([cache[0], k_new], dim=2, out=k)
        torch.cat([cache[1], v_new], dim=2, out=v)
    qg = q.reshape(B, n_kv_heads, group, T, d_head)
    scores = qg @ k.unsqueeze(2).transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v.unsqueeze(2)).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
