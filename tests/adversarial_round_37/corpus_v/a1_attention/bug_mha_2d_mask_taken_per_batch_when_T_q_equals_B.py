# expect: loses mha -- the mask's layout is guessed from its first size: a 2-D mask whose first size equals the batch B is taken as (B, T_k) key flags per sequence, so a (T_q, T_k) mask with T_q == B is read as another mask: B = 3, T_q = T_k = 3, causal_mask(3) -> row b's keys masked by causal row b for every query (queries of sequence 0 see only key 0); with T_q != B, and every 3-D mask, it agrees with the key
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    B = x_q.shape[0]
    q = split_heads(x_q @ W_q, n_heads)  # (B, h, T_q, d_head)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None:
        if mask.dim() == 3:
            mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k)
        elif mask.shape[0] == B and B != 1:
            mask = mask[:, None, None, :]  # per-sequence key flags (B, T_k)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
