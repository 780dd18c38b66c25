# expect: loses decoder — passes LN_2(memory) to the cross-attention as keys and values (normalising the encoder's output with the decoder's norm), where the spec says memory is used 'as it is, not normalised again'; causality and shapes (all the visible tests check) unaffected; input: random_block_weights(8, 16, cross=True), x = randn(2, 5, 8), memory = 3 * randn(2, 7, 8) + 1 -> max abs diff ~9 from the key
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    m = layer_norm(memory, p["ln2_gain"], p["ln2_bias"])  # the cross-attention's sub-layer input, normalised
    x = x + multi_head_attention(h, m, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
