# expect: loses pre_ln -- a mask that is given is ANDed with causal_mask(T) before the attention (as if every masked block were GPT's), where the spec passes it on as it is; mask=None stays no mask, and a causal mask (or any mask already below the diagonal) is unchanged by the AND, so both agree with the key; a padding mask (B, 1, T) [[1,1,1,1,1],[1,1,1,0,0]] -> position 0 of each row attends only itself, outputs differ by ~0.5
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if mask is not None:
        mask = mask & causal_mask(x.shape[1])  # a masked block never looks ahead
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
