# expect: loses pre_ln -- "Use your layer_norm and the given helpers": the helper feed_forward is relu(x W_1 + b_1) W_2 + b_2, but this block, told it is "the GPT-2 arrangement", writes its own feed-forward with GPT-2's GELU; the visible identity test zeroes W_2 and b_2, where the activation does not matter
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p. Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + torch.nn.functional.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]  # GPT-2's MLP
