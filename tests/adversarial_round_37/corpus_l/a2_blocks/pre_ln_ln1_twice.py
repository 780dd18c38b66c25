# expect: loses pre_ln -- copy-paste slip: the second norm also uses ln1_gain / ln1_bias; invisible while both norms hold the same values (freshly initialised LayerNorms are all ones and zeros) and in the visible tests, which check only the shape and the identity with zeroed sub-layers; breaks "x <- x + FFN(LN_2(x))"; input: p = random_block_weights(8, 16), x = randn(2, 5, 8), n_heads = 2 -> output differs from nn.TransformerEncoderLayer(norm_first=True) with p copied in
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
