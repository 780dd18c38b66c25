# expect: loses decoder -- keeps part 3's pairing of ln2 with the feed-forward and gives the new cross-attention ln3, so the cross-attention queries are normalised with ln3 and the FFN input with ln2; spec: "cross-attention whose queries come from the decoder (LN_2(x))" with "p has the keys of part 3, plus C_q, C_k, C_v, C_o (cross-attention) and ln3_gain, ln3_bias"
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    causal = causal_mask(x.shape[1])
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])  # the new norm for the new sub-layer
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])  # as in part 3: ln2 before the feed-forward
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
