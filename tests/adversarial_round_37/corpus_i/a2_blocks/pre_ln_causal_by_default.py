# expect: loses pre_ln -- with mask=None it applies a causal mask ("a transformer block is causal"); the encoder block must let every position see every position: pre_ln_block(randn(2, 5, 8), random_block_weights(8, 16), 2) differs at positions 0..3
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if mask is None:
        mask = causal_mask(x.shape[1])
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
