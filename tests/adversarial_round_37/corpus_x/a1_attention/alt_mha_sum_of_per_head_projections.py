# expect: full marks -- multi-head attention as a Python loop over heads, each head projected with its own column block of W_q, W_k, W_v (the same numbers as head i's slice of x @ W), attended with part 1's function on 3-D (B, T, d_head) tensors (every allowed mask form, (T_q, T_k), (B, T_q, T_k) and (B, 1, T_k), already broadcasts against (B, T_q, T_k): no head axis to add), and the concatenation times W_o written as the sum over heads of head_i @ W_o[rows of head i]; a fully masked query gives a zero head, so a zero output, as part 1 promises
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model); see the part's text."""
    d_model = W_q.shape[0]
    d_head = d_model // n_heads
    out = None
    for i in range(n_heads):
        cols = slice(i * d_head, (i + 1) * d_head)
        head, _ = scaled_dot_product_attention(x_q @ W_q[:, cols], x_kv @ W_k[:, cols], x_kv @ W_v[:, cols], mask)
        term = head @ W_o[cols, :]  # (B, T_q, d_model): this head's share of merge_heads(...) @ W_o
        out = term if out is None else out + term
    return out
