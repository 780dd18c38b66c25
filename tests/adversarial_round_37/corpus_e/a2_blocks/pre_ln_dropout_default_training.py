# expect: loses pre_ln -- adds GPT-2's residual dropout with F.dropout(..., 0.1), whose `training` defaults to True: every call zeroes a random 10% of each sub-layer's output and scales the rest by 1/0.9 (drawn from the global RNG), so the block is random and differs from the formula; the visible identity test passes because dropout of zeros is zeros; spec: "x <- x + MHA(LN_1(x)), x <- x + FFN(LN_2(x))"
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + torch.nn.functional.dropout(multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask), 0.1)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + torch.nn.functional.dropout(feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"]), 0.1)
