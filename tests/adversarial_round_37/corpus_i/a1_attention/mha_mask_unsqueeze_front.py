# expect: loses mha -- a 3-D mask gets its head axis in front (mask.unsqueeze(0)): with B == n_heads the batch's masks are applied to the heads instead (B=2, h=2, padding_mask(tensor([7, 3]), 7) gives wrong values); with B != h it raises
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(0)  # one more axis so that it broadcasts against (B, h, T_q, T_k)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
