# expect: loses mha -- projections written in nn.Linear's convention, F.linear(x, W) = x @ W.T: the shapes all work because every matrix is square, and the visible tests check only shapes and W_v = 0; breaks "Vectors are rows, so the projections are x @ W (not W @ x)"; input: any non-symmetric W_q, W_k, W_v, W_o, e.g. d_model = 8, n_heads = 2, randn weights, x = randn(2, 5, 8) -> output differs from the spec's
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model). Returns (B, T_q, d_model)."""
    import torch.nn.functional as F

    q = split_heads(F.linear(x_q, W_q), n_heads)
    k = split_heads(F.linear(x_kv, W_k), n_heads)
    v = split_heads(F.linear(x_kv, W_v), n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask[:, None]
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return F.linear(merge_heads(out), W_o)
