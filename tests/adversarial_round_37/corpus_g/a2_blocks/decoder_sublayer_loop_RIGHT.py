# expect: full marks -- the three pre-LN sub-layers written as a loop over (norm name, sub-layer closure) pairs
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    causal = causal_mask(x.size(-2))
    sublayers = [
        ("ln1", lambda h: multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal)),
        ("ln2", lambda h: multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)),
        ("ln3", lambda h: feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])),
    ]
    for norm, sublayer in sublayers:
        x = x + sublayer(layer_norm(x, p[f"{norm}_gain"], p[f"{norm}_bias"]))
    return x
