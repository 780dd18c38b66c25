# expect: loses gqa -- n_kv_heads == n_heads takes a "plain multi-head attention" branch copied from assignment 1 that forgets the rotary embedding (queries and keys unrotated); the visible tests use n_kv_heads = 2 < 4 (and 1 in part 5); differs for n_kv_heads == n_heads and T >= 2, e.g. B=2, T=5, d=16, n_heads=n_kv_heads=4 (outputs and the returned k)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    if n_kv_heads == n_heads:  # no sharing: ordinary multi-head attention (assignment 1)
        q = split_heads(x @ W_q, n_heads)
        k = split_heads(x @ W_k, n_heads)
    else:
        q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
        k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    k_rep, v_rep = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ v_rep) @ W_o, (k, v)
