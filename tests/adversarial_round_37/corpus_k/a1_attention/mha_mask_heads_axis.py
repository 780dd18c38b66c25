# expect: loses mha -- a (B, 1, T_k) padding mask is passed on without a head axis, so it broadcasts its batch axis against the heads: right only when B == n_heads or B == 1 (visible test has B = h = 2); with B=3, h=2 it fails, with B=2, h=4 it raises
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3 and mask.shape[1] != 1:
        mask = mask.unsqueeze(1)  # (B, T_q, T_k) -> (B, 1, T_q, T_k); (B, 1, T_k) already has its singleton
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
