# expect: loses pre_ln -- both sub-layers are normalised with LN_1's gain and bias (ln2_* are never read): identical to the spec only when the two norms hold the same parameters, as they do in a freshly built nn.TransformerEncoderLayer (gain 1, bias 0); spec: "x <- x + MHA(LN_1(x)), x <- x + FFN(LN_2(x))" and "`p` is a dict of tensors: `ln1_gain`, `ln1_bias`, ..., `ln2_gain`, `ln2_bias`"
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    def norm(t):  # the block's LayerNorm
        return layer_norm(t, p["ln1_gain"], p["ln1_bias"])

    h = norm(x)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    return x + feed_forward(norm(x), p["W_1"], p["b_1"], p["W_2"], p["b_2"])
