# expect: loses mha — a 3-dimensional mask gets its head axis only when it is (B, T_q, T_k) with T_q > 1; a (B, 1, T_k) padding mask is passed on as it is, so against (B, h, T_q, T_k) scores its batch axis lines up with the heads: head i uses row i's padding (an error when B != h and B != 1); input: B = h = 2, padding_mask(tensor([7, 3]), 7) over x_kv of length 7 -> row 0 head 1 ignores keys 3..6 and row 1 head 0 attends them; output differs from the key's (max abs diff ~2.1); with B = 3, h = 2 it raises
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3 and mask.shape[1] > 1:
        mask = mask[:, None]  # (B, T_q, T_k) -> (B, 1, T_q, T_k); a (B, 1, T_k) mask already has a 1 there
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
