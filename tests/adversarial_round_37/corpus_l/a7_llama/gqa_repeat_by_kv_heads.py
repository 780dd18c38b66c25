# expect: loses gqa -- each key/value head is repeated n_kv_heads times for the attention, where it must be repeated g = n_heads // n_kv_heads times: the two numbers are equal in the visible test (4 heads, 2 kv heads), and with 1 kv head the single head broadcasts over the query heads anyway; breaks "query heads are shared out in consecutive groups of g = n_heads // n_kv_heads: query head j attends with key/value head floor(j / g)"; input: n_heads = 8, n_kv_heads = 2, d = 16, x = randn(1, 3, 16) -> RuntimeError (4 repeated heads against 8 query heads) (spec: an output (1, 3, 16))
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k = torch.cat([cache[0], k], dim=2)
        v = torch.cat([cache[1], v], dim=2)
    k_rep = k.repeat_interleave(n_kv_heads, dim=1)  # one copy per query head sharing it
    v_rep = v.repeat_interleave(n_kv_heads, dim=1)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ v_rep) @ W_o, (k, v)
