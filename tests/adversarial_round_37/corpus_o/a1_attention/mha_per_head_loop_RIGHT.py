# expect: full marks — mha: a Python loop over heads slicing the weight matrices' columns (W_q[:, head] etc.) and the rows of W_o, summing each head's contribution; masks broadcast by indexing with None
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_head = W_q.shape[1] // n_heads
    out = None
    for i in range(n_heads):
        cols = slice(i * d_head, (i + 1) * d_head)
        head, _ = scaled_dot_product_attention(x_q @ W_q[:, cols], x_kv @ W_k[:, cols], x_kv @ W_v[:, cols], mask)
        part = head @ W_o[cols, :]  # head i's rows of W_o
        out = part if out is None else out + part
    return out
