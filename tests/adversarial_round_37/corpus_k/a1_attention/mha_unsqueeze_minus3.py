# expect: full marks -- every allowed mask gets a head axis with mask.unsqueeze(-3): (T_q, T_k) -> (1, T_q, T_k), (B, T_q, T_k) -> (B, 1, T_q, T_k), (B, 1, T_k) -> (B, 1, 1, T_k); each broadcasts correctly against (B, h, T_q, T_k)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    heads = [split_heads(x @ W, n_heads) for x, W in ((x_q, W_q), (x_kv, W_k), (x_kv, W_v))]
    out, _ = scaled_dot_product_attention(*heads, None if mask is None else mask.unsqueeze(-3))
    return merge_heads(out) @ W_o
