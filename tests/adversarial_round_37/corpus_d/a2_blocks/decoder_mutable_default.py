# expect: loses decoder -- the causal mask is built once and kept in a mutable default argument, so every later call reuses the first call's (T, T) mask whatever its length; spec: "causal self-attention over `x`" for x (B, T, d) of any T
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None, _mask_cache=[]):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    if not _mask_cache:
        _mask_cache.append(causal_mask(x.shape[1]))
    causal = _mask_cache[0]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
