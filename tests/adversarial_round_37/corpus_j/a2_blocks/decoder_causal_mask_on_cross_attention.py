# expect: loses decoder -- a (T, S) lower-triangular mask is also applied to the cross-attention, so target position t only reads memory positions 0..t: x = randn(2, 5, 8), memory = randn(2, 7, 8), memory_mask None gives a different output at every position t < 6
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T, S = x.shape[1], memory.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    # a decoder never looks ahead: position t reads the source up to position t
    cross_mask = torch.ones(T, S, dtype=torch.bool).tril()
    if memory_mask is not None:
        cross_mask = cross_mask & memory_mask  # (B, T, S)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, cross_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
