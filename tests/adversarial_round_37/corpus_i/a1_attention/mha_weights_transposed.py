# expect: loses mha -- projections as x @ W.T (nn.Linear's convention) instead of x @ W: wrong values for any non-symmetric random W (visible tests check only shapes and W_v = 0)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    q = split_heads(x_q @ W_q.T, n_heads)
    k = split_heads(x_kv @ W_k.T, n_heads)
    v = split_heads(x_kv @ W_v.T, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o.T
