# expect: loses pre_ln -- both sub-layers normalise with ln1_gain/ln1_bias (ln2_* never read): random_block_weights(8, 16), x = randn(2, 5, 8) differs from the reference wherever ln2 != ln1
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""

    def norm(t):
        return layer_norm(t, p["ln1_gain"], p["ln1_bias"])

    h = norm(x)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = norm(x)
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
