# expect: loses mha — decides 'self-attention' by comparing shapes (x_kv.shape == x_q.shape) and then takes keys and values from x_q, so cross-attention to a memory as long as the queries attends to the queries instead; breaks 'K = X_kv W_k, V = X_kv W_v'; input: x_q = randn(2, 5, 8), x_kv = randn(2, 5, 8) (a different tensor of the same shape), no mask -> output differs from the key's (max abs diff ~2.0)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    if x_kv.shape == x_q.shape:  # self-attention: one fused projection of the same input
        fused = x_q @ torch.cat([W_q, W_k, W_v], dim=1)
        q, k, v = (split_heads(t, n_heads) for t in fused.chunk(3, dim=-1))
    else:
        q = split_heads(x_q @ W_q, n_heads)
        k = split_heads(x_kv @ W_k, n_heads)
        v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
