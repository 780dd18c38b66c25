# expect: loses mha -- projects with F.linear, i.e. x @ W.T, as nn.Linear stores its weights; the (d_model, d_model) shapes hide the transpose; spec: "Vectors are rows, so the projections are x @ W (not W @ x)" and "Q = X_q W_q, K = X_kv W_k, V = X_kv W_v, ... MHA = [head_1; ...; head_h] W_o"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    linear = torch.nn.functional.linear
    q = split_heads(linear(x_q, W_q), n_heads)
    k = split_heads(linear(x_kv, W_k), n_heads)
    v = split_heads(linear(x_kv, W_v), n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return linear(merge_heads(out), W_o)
