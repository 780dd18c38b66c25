# expect: full marks -- a Python loop over the heads: head i's contiguous feature slice of Q, K and V goes through part 1 as 3-D (B, T, d_head) tensors, so every allowed mask shape ((T_q, T_k), (B, T_q, T_k), (B, 1, T_k)) broadcasts as it is, with no head axis needed; heads concatenated in order, then W_o; fully masked queries give zeros through part 1
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model). Returns (B, T_q, d_model)."""
    Q, K, V = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    d_head = Q.shape[-1] // n_heads
    heads = []
    for i in range(n_heads):
        part = slice(i * d_head, (i + 1) * d_head)
        out_i, _ = scaled_dot_product_attention(Q[..., part], K[..., part], V[..., part], mask)
        heads.append(out_i)
    return torch.cat(heads, dim=-1) @ W_o
