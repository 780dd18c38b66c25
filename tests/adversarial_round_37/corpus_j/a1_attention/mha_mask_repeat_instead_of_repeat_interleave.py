# expect: loses mha -- a 3-D mask is copied per head with repeat (batch-major order lost) then viewed as (B, h, ...), so head 1 of row 0 uses row 1's mask: B=2, h=2, padding_mask([7, 3], 7) gives row 0 a different output than the per-row reference
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    B = x_q.shape[0]
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        # one copy of the mask for each head, as nn.MultiheadAttention's (B * h, T_q, T_k) masks
        per_head = mask.repeat(n_heads, 1, 1)  # (h * B, T_q or 1, T_k)
        mask = per_head.view(B, n_heads, mask.shape[1], mask.shape[2])
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
