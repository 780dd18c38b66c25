# expect: full marks -- one head at a time in a Python loop: head i's columns of W_q, W_k, W_v sliced, attention with part 1, the heads' outputs concatenated and multiplied by W_o (never calls split_heads/merge_heads)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_head = W_q.shape[1] // n_heads
    outs = []
    for i in range(n_heads):
        cols = slice(i * d_head, (i + 1) * d_head)
        q, k, v = x_q @ W_q[:, cols], x_kv @ W_k[:, cols], x_kv @ W_v[:, cols]  # (B, T, d_head)
        out, _ = scaled_dot_product_attention(q, k, v, mask)  # the mask's shapes all broadcast against (B, T_q, T_k)
        outs.append(out)
    return torch.cat(outs, dim=-1) @ W_o
