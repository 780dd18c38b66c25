# expect: loses pre_ln -- only the queries come from LN_1(x); keys and values are computed from the raw residual x; spec: "x <- x + MHA(LN_1(x))" (self-attention on the normalised x)
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    normed = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    attn = multi_head_attention(normed, x, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    x = x + attn
    ff_in = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(ff_in, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
