# expect: loses mha -- self-attention recognised by `x_q.data_ptr() == x_kv.data_ptr()` (meant to catch one tensor passed as two view objects) and then projected from x_q alone through one fused matmul; a cross-attention whose x_kv is another view starting at the same address (a prefix of the queries' own sequence, x_kv = x_q[:, :3]) takes its keys and values from all of x_q; the spec: "K = X_kv W_k, V = X_kv W_v"; B 2, T_q 5, d 8, h 2, W randn / 3, no mask: max abs diff vs key 0.539; x_q = both[:, :2], x_kv = both[:, :6] of one tensor: 0.795; x_kv = x_q, or a separate tensor: equal (1.2e-7 and 0.0)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    d_model = x_q.shape[-1]
    if x_q.data_ptr() == x_kv.data_ptr():  # self-attention: one fused projection for q, k and v
        qkv = x_q @ torch.cat([W_q, W_k, W_v], dim=1)  # (B, T, 3 d_model)
        q_in, k_in, v_in = qkv.split(d_model, dim=-1)
    else:
        q_in, k_in, v_in = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    q, k, v = (split_heads(t, n_heads) for t in (q_in, k_in, v_in))
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
