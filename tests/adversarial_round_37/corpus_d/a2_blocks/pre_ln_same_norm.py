# expect: loses pre_ln -- normalises before the feed-forward with LN_1's gain and bias instead of LN_2's; spec: "$x \leftarrow x + \mathrm{MHA}(\mathrm{LN}_1(x)), \qquad x \leftarrow x + \mathrm{FFN}(\mathrm{LN}_2(x))$"
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    def norm(t):
        return layer_norm(t, p["ln1_gain"], p["ln1_bias"])

    h = norm(x)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    return x + feed_forward(norm(x), p["W_1"], p["b_1"], p["W_2"], p["b_2"])
