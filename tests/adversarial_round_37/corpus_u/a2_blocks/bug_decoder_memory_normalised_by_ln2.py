# expect: loses decoder (the encoder's memory passes through LN_2 before the cross-attention's keys and values, as the queries do; the spec says as it is: random weights (ln2 gain 1 + 0.1 randn), x (2, 5, 8), memory (2, 7, 8) * 3 + 1: outputs differ by 5.3; agrees only where memory is already normalised with ln2's gain 1 and bias 0)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    m = layer_norm(memory, p["ln2_gain"], p["ln2_bias"])  # the sub-layer's input, normalised
    x = x + multi_head_attention(h, m, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
