# expect: loses pre_ln -- stores a fused [W_q | W_k | W_v] in the caller's dict p (key "_W_qkv") on the first call and reuses it on every later call with that dict: a later call after p["W_q"] is replaced, or whose weights now require grad, computes with the stale weights; "it changes none of its arguments in place" and "gradients flow back to ... every tensor of p"; random_block_weights(8, 16), x randn(2, 5, 8), 2 heads: first call equal; after p["W_q"] = a new randn(8, 8)/sqrt 8: max abs diff 1.58; a call under no_grad then a call with W_q requiring grad: key W_q.grad norm 10.3, this answer W_q.grad None
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    d = x.shape[-1]
    if "_W_qkv" not in p:  # the three projections fused once, kept with the weights they come from
        p["_W_qkv"] = torch.cat([p["W_q"], p["W_k"], p["W_v"]], dim=1)  # (d, 3 d)
    W_q, W_k, W_v = p["_W_qkv"].split(d, dim=1)
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, W_q, W_k, W_v, p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
