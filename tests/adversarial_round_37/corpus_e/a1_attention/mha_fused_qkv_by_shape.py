# expect: loses mha -- takes "x_kv has x_q's shape" to mean self-attention and then projects keys and values from x_q with one fused matrix, so cross-attention to a memory of the same length (T_k == T_q) attends to the decoder's own states; spec: "$X_{kv}$ `(B, T_k, d_model)` (where keys and values come from; the same tensor as $X_q$ for self-attention, another sequence for cross-attention)" and "K = X_kv W_k, V = X_kv W_v"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_model = x_q.shape[-1]
    if x_kv.shape == x_q.shape:  # self-attention: one fused (d, 3d) projection, one matmul
        q, k, v = (x_q @ torch.cat([W_q, W_k, W_v], dim=1)).split(d_model, dim=-1)
    else:  # cross-attention
        q, k, v = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k): broadcast over heads
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o  # (B, T_q, d_model)
