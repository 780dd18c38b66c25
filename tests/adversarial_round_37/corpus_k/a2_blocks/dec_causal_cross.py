# expect: loses decoder -- cross-attention is also made causal (query t sees memory positions 0..t only, a tril(T, S) mask), but the decoder may read the whole encoder output: differs whenever S > 1 (e.g. T=5, S=7 random)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T, S = x.shape[1], memory.shape[1]
    cross = torch.ones(T, S, dtype=torch.bool).tril()  # position t must not see anything after t
    if memory_mask is not None:
        cross = cross & memory_mask
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, cross)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
