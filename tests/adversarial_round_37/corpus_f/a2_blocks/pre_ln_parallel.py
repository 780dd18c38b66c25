# expect: loses pre_ln -- normalises x once for both sub-layers (LN_2 of the block's input, GPT-J's parallel block), so the feed-forward never sees the attention's output; spec: "x <- x + MHA(LN_1(x)), x <- x + FFN(LN_2(x))", normalise, sub-layer, residual, in that order
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    a = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    f = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    attn = multi_head_attention(a, a, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    ff = feed_forward(f, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
    return x + attn + ff  # both residual branches added to the input
