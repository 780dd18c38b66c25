# expect: loses decoder -- the causal mask is cut from a 256 x 256 mask made once, so T > 256 fails; spec (part 4): "Three sub-layers, each pre-LN with its own norm: causal self-attention over x" (no length limit)
# %% [decoder]
_MAX_T = 256
_CAUSAL = causal_mask(_MAX_T)


def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    self_mask = _CAUSAL[:T, :T]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, self_mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
