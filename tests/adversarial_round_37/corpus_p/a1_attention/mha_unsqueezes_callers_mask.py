# expect: loses mha -- gives a 3-dimensional mask its head axis with the in-place mask.unsqueeze_(1), which changes the caller's tensor: after the call the caller's (B, 1, T_k) padding mask is (B, 1, 1, T_k) (and a (B, T_q, T_k) mask is 4-D); the output is right. Breaks "it changes none of its arguments in place" (metadata is part of a tensor: the caller's next causal_mask(T) & mask, or a second model reading the same mask, sees another shape); input: m = padding_mask(tensor([7, 3]), 7), x, memory = randn(2, 5, 8), randn(2, 7, 8), n_heads 2 -> after the call, key: m.shape (2, 1, 7); this answer: m.shape (2, 1, 1, 7)
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
    if mask is not None and mask.dim() == 3:
        mask.unsqueeze_(1)  # (B, 1, T_q or 1, T_k): no copy of the mask needed
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
