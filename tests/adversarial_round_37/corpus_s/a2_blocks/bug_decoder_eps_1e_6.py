# expect: loses decoder -- the three norms called with eps=1e-6 (T5's and Llama's value) where the block uses layer_norm's default 1e-5, as nn.TransformerDecoderLayer (layer_norm_eps=1e-5) that the hidden tests compare with; each norm off by a factor sqrt((var + 1e-5) / (var + 1e-6)); random_block_weights(8, 16, cross=True), x randn(2, 5, 8) * 0.01, memory randn(2, 7, 8): max abs diff vs key 0.122; x randn(2, 5, 8): 7.5e-05 (near float32 tolerances)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    eps = 1e-6
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"], eps)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"], eps)
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"], eps)
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
