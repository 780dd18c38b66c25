# expect: loses decoder -- the cross-attention reads LN_3(x) and the feed-forward LN_2(x): the norms' numbering is mixed up between the last two sub-layers; shape and causality (all the visible tests check) are unaffected; breaks "cross-attention whose queries come from the decoder (LN_2(x))" and "p has ... ln3_gain, ln3_bias" (the FFN's); input: p = random_block_weights(8, 16, cross=True), x = randn(2, 5, 8), memory = randn(2, 7, 8), n_heads = 2 -> output differs from the spec's
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(x.shape[1]))
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
