# expect: loses mha -- self-attention recognised by identity (`x_q is x_kv`) and then made causal when no mask is given; "The optional boolean mask ... (True = may attend)": mask=None masks nothing, for self-attention as for cross-attention (the visible self-attention call passes causal_mask(5) itself); x randn(2,5,8) given as both x_q and x_kv, no mask, seed 0: the key's row 0 attends to all 5 positions, this answer's to position 0 only: max abs diff of the outputs printed by the check (> 0.1); x and x.clone(): equal
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    if mask is None and x_q is x_kv:  # self-attention: a token must not see the future
        mask = causal_mask(x_q.shape[1])
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
