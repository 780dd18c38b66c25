# expect: full marks -- writes the three pre-LN sub-layers as a table of (norm name, function) pairs and applies x <- x + sublayer(LN_i(x)) in a loop; the causal mask is the negation of the strict upper triangle (triu(1)); cross-attention reads memory as it is with memory_mask; same values and gradients (x, memory, every tensor of p) as the key, with and without memory_mask
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    sees = ~torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)  # no key after the query
    sublayers = [
        ("ln1", lambda h: multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, sees)),
        ("ln2", lambda h: multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)),
        ("ln3", lambda h: feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])),
    ]
    for norm, sublayer in sublayers:
        x = x + sublayer(layer_norm(x, p[f"{norm}_gain"], p[f"{norm}_bias"]))
    return x
