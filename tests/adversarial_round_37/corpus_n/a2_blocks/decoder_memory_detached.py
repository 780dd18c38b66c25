# expect: loses decoder -- reads the encoder's output through memory.detach() ('the decoder only reads the encoder's output'), so every value is exact and the visible tests pass, but no gradient reaches memory: in an encoder-decoder trained end to end the encoder would never learn; breaks the hidden-tests line 'gradients flow back to x, memory and every tensor of p'; input: random_block_weights(8, 16, cross=True), x = randn(2, 5, 8), memory = randn(2, 7, 8) requiring grad, backward of the output -> memory.grad is None (key: a nonzero (2, 7, 8) tensor)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    memory = memory.detach()  # the encoder's output is an input of the decoder, not something it trains
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
