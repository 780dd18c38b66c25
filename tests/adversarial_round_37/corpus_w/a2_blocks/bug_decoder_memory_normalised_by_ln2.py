# expect: loses decoder -- "cross-attention whose queries come from the decoder (LN_2(x)) and whose keys and values come from the encoder's output memory (as it is, not normalised again)": here memory goes through LN_2 (with the decoder's ln2 gain and bias) before the keys and values are made; the visible causality test cannot see it
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    m = layer_norm(memory, p["ln2_gain"], p["ln2_bias"])  # the sub-layer's norm, for both of its inputs
    x = x + multi_head_attention(h, m, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
