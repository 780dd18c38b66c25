# expect: loses pre_ln — the GPT-J 'parallel' arrangement: both sub-layers read the block's input (x + MHA(LN_1(x)) + FFN(LN_2(x))), while the spec's second update reads the x already updated by the attention; equal only when one sub-layer outputs zero (the visible identity test); input: random_block_weights(8, 16), x = randn(2, 5, 8), n_heads 2 -> max abs diff ~1.9 from the key
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h1 = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    h2 = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    attn = multi_head_attention(h1, h1, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    ffn = feed_forward(h2, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
    return x + attn + ffn  # both sub-layers side by side
