# expect: loses decoder  -- the causal mask is sliced from one built for 128 positions; for T > 128 the (128, 128) mask does not broadcast against (B, h, T, T) scores and the block crashes; spec: "Three sub-layers, each pre-LN with its own norm: causal self-attention over x" (x is (B, T, d), no limit on T)
# %% [decoder]
_MASK = causal_mask(128)  # the decoder's longest sequence


def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, _MASK[:T, :T])
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
