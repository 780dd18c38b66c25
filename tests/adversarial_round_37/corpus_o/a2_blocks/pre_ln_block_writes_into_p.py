# expect: loses pre_ln — stores the per-head split of the attention weights into the caller's dict p (p["_heads"] = n_heads, p["W_qkv"] = fused weights) and reuses them on later calls while n_heads matches, so it changes an argument in place (the dict gets new keys) and a later call with new tensors under the same dict keeps the stale fused weight; breaks 'it changes none of its arguments'; input: p = random_block_weights(8, 16); pre_ln_block(x, p, 2) adds keys to p; then p["W_q"] = new tensor, second call still uses the old W_q (max diff ~1.6)
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    if p.get("_heads") != n_heads:  # prepare the fused projection once per weight dict
        p["W_qkv"] = torch.cat([p["W_q"], p["W_k"], p["W_v"]], dim=1)
        p["_heads"] = n_heads
    d = x.shape[-1]
    W_q, W_k, W_v = p["W_qkv"][:, :d], p["W_qkv"][:, d:2 * d], p["W_qkv"][:, 2 * d:]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, W_q, W_k, W_v, p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
