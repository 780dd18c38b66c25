# expect: full marks -- self-attention recognised by object identity (`x_q is x_kv`, as torch's own MultiheadAttention does) and projected by one matmul on the concatenated weights; cross-attention projected separately; masks given their head axis by indexing
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_model = W_q.shape[0]
    if x_q is x_kv:
        q_in, k_in, v_in = (x_q @ torch.cat([W_q, W_k, W_v], dim=1)).split(d_model, dim=-1)
    else:
        q_in = x_q @ W_q
        k_in, v_in = (x_kv @ torch.cat([W_k, W_v], dim=1)).split(d_model, dim=-1)
    q, k, v = split_heads(q_in, n_heads), split_heads(k_in, n_heads), split_heads(v_in, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]  # (B, 1, T_q or 1, T_k): the same for every head
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
