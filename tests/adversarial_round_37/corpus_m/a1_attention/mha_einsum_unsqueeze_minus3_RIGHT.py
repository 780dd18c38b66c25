# expect: full marks -- einsum projections and mask.unsqueeze(-3) for every mask (2-D (T_q,T_k) -> (1,T_q,T_k), 3-D (B,T_q,T_k) or (B,1,T_k) -> a heads axis before the last two), which broadcasts exactly as the key's dim()==3 rule
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(torch.einsum("btd,de->bte", x_q, W_q), n_heads)
    k = split_heads(torch.einsum("btd,de->bte", x_kv, W_k), n_heads)
    v = split_heads(torch.einsum("btd,de->bte", x_kv, W_v), n_heads)
    if mask is not None:
        mask = mask.unsqueeze(-3)  # a heads axis just before (T_q, T_k): the same mask for every head
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return torch.einsum("bte,ed->btd", merge_heads(out), W_o)
