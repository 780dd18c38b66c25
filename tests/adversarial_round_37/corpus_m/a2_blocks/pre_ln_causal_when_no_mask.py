# expect: loses pre_ln -- with mask=None it falls back to a causal mask ('the GPT-2 arrangement'); breaks 'This is an encoder block: with mask=None every position attends to every position (no causal mask)'; input: random_block_weights(8,16), x randn(1,3,8), then change x[:,2]: the key's out[:,0] changes, this one's does not
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if mask is None:
        mask = causal_mask(x.shape[1])  # GPT-2's arrangement: no peeking ahead
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
