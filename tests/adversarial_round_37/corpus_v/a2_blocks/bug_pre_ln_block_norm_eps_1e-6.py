# expect: loses pre_ln -- the block's norms use eps = 1e-6 (T5/Llama's) instead of layer_norm's default 1e-5 (the part says to use your layer_norm, whose eps is nn.LayerNorm's): at unit variance the outputs differ by 6e-6 relative (under float32's tolerance; the part is graded in float32 only); x scaled by 1e-3 (variance ~1e-6) -> the outputs differ by 0.62 relative to their largest entry
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    eps = 1e-6  # a small epsilon, as modern pre-LN models use
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"], eps)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"], eps)
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
