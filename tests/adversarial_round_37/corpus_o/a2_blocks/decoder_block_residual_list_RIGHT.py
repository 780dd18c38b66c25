# expect: full marks — decoder: the three sub-layers as a list of closures applied in a loop with the residual added by torch.add(x, f(LN_i(x))); the causal mask built as the complement of triu(diagonal=1)
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    causal = ~torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)
    sublayers = [
        ("ln1", lambda h: multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal)),
        ("ln2", lambda h: multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)),
        ("ln3", lambda h: feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])),
    ]
    for norm, f in sublayers:
        x = torch.add(x, f(layer_norm(x, p[norm + "_gain"], p[norm + "_bias"])))
    return x
