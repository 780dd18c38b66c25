# expect: loses decoder -- the cross-attention reads LN_2(memory) (the memory normalised with the decoder's ln2 weights) instead of memory as it is; breaks 'keys and values come from the encoder's output memory (as it is, not normalised again)'; input: random_block_weights(8,16,cross=True), x randn(2,5,8), memory 3*randn(2,7,8)+2 -> outputs differ by O(1)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    memory = layer_norm(memory, p["ln2_gain"], p["ln2_bias"])  # pre-LN: normalise what the sub-layer reads
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
