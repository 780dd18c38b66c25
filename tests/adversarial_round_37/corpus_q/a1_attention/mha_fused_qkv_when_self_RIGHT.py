# expect: full marks -- style: when x_q is x_kv (self-attention) one fused projection x @ [W_q | W_k | W_v] split with chunk (views into the fused product: non-contiguous), else three products; masks broadcast by indexing with None
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    if x_q is x_kv:
        q, k, v = (x_q @ torch.cat([W_q, W_k, W_v], dim=1)).chunk(3, dim=-1)
    else:
        q, k, v = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]
    out, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    return merge_heads(out) @ W_o
