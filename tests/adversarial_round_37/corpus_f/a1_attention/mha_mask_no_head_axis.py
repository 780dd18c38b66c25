# expect: loses mha -- passes a 3-D mask straight to the (B, h, T_q, T_k) scores; when B == n_heads (as in the visible tests) it broadcasts silently with the batch axis read as the head axis, so row b's mask is applied to head b of every sequence; spec: "a 3-dimensional mask needs an axis for the heads before it broadcasts against (B, h, T_q, T_k) scores"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    out, _ = scaled_dot_product_attention(q, k, v, mask)  # the mask broadcasts over the heads
    return merge_heads(out) @ W_o
