# expect: full marks -- the causal mask is given to the self-attention as a (B, T, T) batch of masks (expand, no copy), which the helper unsqueezes over the heads exactly like a (T, T) one; cross-attention from LN_2(x) to memory as it is with memory_mask passed on; LN_3 before the FFN
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    B, T, _ = x.shape
    self_mask = causal_mask(T).expand(B, T, T)
    ln = lambda t, i: layer_norm(t, p[f"ln{i}_gain"], p[f"ln{i}_bias"])
    h = ln(x, 1)
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, self_mask)
    x = x + multi_head_attention(ln(x, 2), memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    return x + feed_forward(ln(x, 3), p["W_1"], p["b_1"], p["W_2"], p["b_2"])
