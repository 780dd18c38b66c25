# expect: loses pre_ln -- with mask=None it applies a causal mask ("blocks are causal"), but the spec says an encoder block with mask=None lets every position attend to every position: any input with T >= 2 and nonzero W_o differs
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if mask is None:
        mask = causal_mask(x.shape[1])  # the GPT-2 arrangement: a position sees itself and the past
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
