# expect: loses gqa -- forbidden shortcut in disguise: torch._C._nn.scaled_dot_product_attention (the builtin that F.scaled_dot_product_attention is bound to) with enable_gqa=True and a boolean causal mask; numerically equal to the key, so it is wrong by the rules only (a check that patches the attribute F.scaled_dot_product_attention misses it)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    attend = torch._C._nn.scaled_dot_product_attention  # the fused kernel, for speed
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    out = attend(q, k, v, attn_mask=allowed, enable_gqa=True)
    return merge_heads(out) @ W_o, (k, v)
