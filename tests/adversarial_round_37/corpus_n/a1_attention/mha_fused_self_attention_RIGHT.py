# expect: full marks -- for self-attention (x_q is x_kv) projects q, k and v with ONE product against torch.cat([W_q, W_k, W_v], 1) and splits the result (for cross-attention k and v share one product), then hands non-contiguous slices to split_heads; a 3-D mask gets its head axis by indexing mask[:, None]; same values (up to float rounding), dtypes and gradients for every weight as the key, self- and cross-attention, all mask shapes
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d = W_q.shape[0]
    if x_q is x_kv:  # self-attention: one product for all three projections
        q, k, v = (x_q @ torch.cat([W_q, W_k, W_v], dim=1)).split(d, dim=-1)
    else:
        q = x_q @ W_q
        k, v = (x_kv @ torch.cat([W_k, W_v], dim=1)).split(d, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]  # a head axis
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
