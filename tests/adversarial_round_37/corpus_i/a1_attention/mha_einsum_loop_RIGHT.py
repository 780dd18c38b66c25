# expect: full marks -- multi-head attention with a Python loop over heads and einsum, broadcasting every allowed mask layout by hand
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    d_model = W_q.shape[0]
    d_head = d_model // n_heads
    Q, K, V = x_q @ W_q, x_kv @ W_k, x_kv @ W_v
    outs = []
    for i in range(n_heads):
        sl = slice(i * d_head, (i + 1) * d_head)
        m = None
        if mask is not None:
            m = mask if mask.dim() == 2 else mask  # (T_q, T_k) or (B, T_q|1, T_k): both broadcast against (B, T_q, T_k)
        o, _ = scaled_dot_product_attention(Q[..., sl], K[..., sl], V[..., sl], m)
        outs.append(o)
    return torch.einsum("btf,fo->bto", torch.cat(outs, dim=-1), W_o)
