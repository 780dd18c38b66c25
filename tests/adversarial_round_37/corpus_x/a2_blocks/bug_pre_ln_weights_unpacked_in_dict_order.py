# expect: loses pre_ln -- "`p` is a dict of tensors: `ln1_gain`, `ln1_bias`, `W_q`, ... (see `random_block_weights`)": a dict is read by its keys, but this block unpacks `p.values()` in the order random_block_weights happens to insert them (W_q, W_k, W_v, W_o, ln1_gain, ln1_bias, ln2_gain, ln2_bias, W_1, b_1, W_2, b_2); the visible tests' `dict(p, W_o=...)` keeps that order, and the same weights given in any other order (sorted names, a state_dict's, ln1 first as the text lists them) are used for the wrong sub-layers or fail to unpack
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    W_q, W_k, W_v, W_o, g1, b1, g2, b2, W_1, b_1, W_2, b_2 = p.values()
    h = layer_norm(x, g1, b1)
    x = x + multi_head_attention(h, h, W_q, W_k, W_v, W_o, n_heads, mask)
    return x + feed_forward(layer_norm(x, g2, b2), W_1, b_1, W_2, b_2)
