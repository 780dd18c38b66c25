# expect: loses pre_ln -- GPT-J style parallel block: the feed-forward reads LN_2 of the block's INPUT x, not of x after the attention's residual (spec: x <- x + MHA(LN_1(x)), then x <- x + FFN(LN_2(x))); differs whenever the attention output is nonzero
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h1 = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    h2 = layer_norm(x, p["ln2_gain"], p["ln2_bias"])  # both sub-layers read the block's input
    attended = multi_head_attention(h1, h1, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    return x + attended + feed_forward(h2, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
