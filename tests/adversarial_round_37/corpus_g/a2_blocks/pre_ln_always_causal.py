# expect: loses pre_ln -- "the GPT-2 arrangement" read as a causal block: with mask=None it applies causal_mask(T), so an unmasked encoder block sees only the past
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if mask is None:
        mask = causal_mask(x.shape[1])  # GPT-2: a token attends to itself and the past
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
