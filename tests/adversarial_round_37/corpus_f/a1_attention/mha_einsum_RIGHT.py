# expect: full marks -- never materialises Q, K, V at full width: reshapes each (d_model, d_model) weight into (d_model, h, d_head) column blocks (head i's columns are i*d_head:(i+1)*d_head, exactly split_heads' slice of x @ W) and W_o into (h, d_head, d_model) row blocks, so the einsums equal split/merge with x @ W; 3-D masks get their head axis
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    d_model = W_q.shape[0]
    d_head = d_model // n_heads

    def per_head(W):  # (d_model, d_model) -> (d_model, h, d_head): head i's block of columns
        return W.reshape(d_model, n_heads, d_head)

    q = torch.einsum("btd,dhe->bhte", x_q, per_head(W_q))
    k = torch.einsum("btd,dhe->bhte", x_kv, per_head(W_k))
    v = torch.einsum("btd,dhe->bhte", x_kv, per_head(W_v))
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]  # (B, 1, T_q or 1, T_k): the same for every head
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return torch.einsum("bhte,hed->btd", out, W_o.reshape(n_heads, d_head, d_model))
