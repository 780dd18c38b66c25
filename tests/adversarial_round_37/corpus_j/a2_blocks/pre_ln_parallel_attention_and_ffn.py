# expect: loses pre_ln -- LN_2 reads the block's input instead of the sum after attention (a parallel GPT-J style block, x + MHA(LN1 x) + FFN(LN2 x)): random_block_weights(8, 16), x = randn(2, 5, 8) differs from the sequential block by about 0.1-1
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h1 = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    h2 = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    attention = multi_head_attention(h1, h1, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    ffn = feed_forward(h2, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
    return x + attention + ffn  # both residual branches added to the input
