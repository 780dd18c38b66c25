# expect: full marks -- a Python loop over heads that slices the weight matrices' columns (head i's Q_i = X_q W_q[:, i*d_head:(i+1)*d_head]) and concatenates the heads before W_o, with a 2-D mask broadcast and a 3-D mask used as is for each head's (B, T_q, T_k) scores: the same function as the answer key; spec: "head_i = Attention(Q_i, K_i, V_i), MHA = [head_1; ...; head_h] W_o, where Q_i is head i's slice of Q's features (part 3)"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_head = x_q.shape[-1] // n_heads
    heads = []
    for i in range(n_heads):
        cols = slice(i * d_head, (i + 1) * d_head)
        q_i = x_q @ W_q[:, cols]  # (B, T_q, d_head): head i's slice of Q's features
        k_i = x_kv @ W_k[:, cols]  # (B, T_k, d_head)
        v_i = x_kv @ W_v[:, cols]
        head, _ = scaled_dot_product_attention(q_i, k_i, v_i, mask)  # a (T_q, T_k) or 3-D mask broadcasts against (B, T_q, T_k)
        heads.append(head)
    return torch.cat(heads, dim=-1) @ W_o  # [head_1; ...; head_h] W_o
