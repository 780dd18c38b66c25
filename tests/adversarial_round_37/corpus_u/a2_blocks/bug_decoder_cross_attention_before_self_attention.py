# expect: loses decoder (the sub-layers in the order cross-attention, self-attention, feed-forward (each with the norm named after its place, LN_1 first), not the spec's self-attention, cross-attention, feed-forward: random weights, x (2, 5, 8), memory (2, 7, 8): outputs differ by 1.40; causality and shapes (all the visible tests read) are unchanged, and with C_o = W_o = 0 they agree exactly)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)  # read the source first
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
