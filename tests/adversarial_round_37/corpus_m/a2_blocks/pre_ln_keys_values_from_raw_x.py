# expect: loses pre_ln -- only the queries read LN_1(x); keys and values are taken from the un-normalised residual stream x (multi_head_attention(h, x, ...)); breaks 'x <- x + MHA(LN_1(x))'; input: random_block_weights(8,16), x = 3*randn(2,5,8)+1 -> outputs differ by O(1) (the visible identity test zeroes W_o, so attention's inputs never show)
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, x, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
