# expect: loses gqa -- the hidden-test list: "float32 and float64 inputs, floating outputs in the inputs' dtype and at its precision": the heads' outputs are written group by group into torch.zeros(B, n_heads, T, d_head), made without dtype= (float32), so a float64 call rounds every head's output to float32 and then fails at `@ W_o` (float32 @ float64 raises); float32 calls (all the visible tests) are exact and differentiable through the slice assignments
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves."""
    B, T, d = x.shape
    d_head, g = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    out = torch.zeros(B, n_heads, T, d_head)
    for j in range(n_kv_heads):  # one key/value head and its group of query heads at a time
        scores = q[:, j * g : (j + 1) * g] @ k[:, j : j + 1].transpose(-2, -1) / math.sqrt(d_head)
        weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
        out[:, j * g : (j + 1) * g] = weights @ v[:, j : j + 1]
    return merge_heads(out) @ W_o, (k, v)
