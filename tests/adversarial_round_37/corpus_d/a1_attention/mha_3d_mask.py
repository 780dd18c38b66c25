# expect: loses mha -- only a (B, 1, T_k) padding mask gets the head axis; a (B, T_q, T_k) mask is broadcast as if its batch axis were the heads; spec: "The optional boolean `mask` is `(T_q, T_k)`, `(B, T_q, T_k)` or `(B, 1, T_k)` ... a 3-dimensional mask needs an axis for the heads"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3 and mask.shape[1] == 1:
        mask = mask.unsqueeze(1)  # padding mask (B, 1, T_k) -> (B, 1, 1, T_k)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
