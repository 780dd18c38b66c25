# expect: loses pre_ln -- takes an 'inference fast path' whenever autograd is off: under torch.no_grad() (or inference_mode) the block runs inside torch.autocast('cpu', bfloat16), so its matrix products are rounded to bfloat16 and the output is off by ~1e-2, while with gradients enabled (all the visible tests) it is exact; the result must not depend on the caller's grad mode: breaks 'x <- x + MHA(LN_1(x)), x <- x + FFN(LN_2(x))' (hidden: compared with nn.TransformerEncoderLayer on new inputs, a comparison naturally made under torch.no_grad()); input: p = random_block_weights(8, 16), x = randn(2, 5, 8), called inside torch.no_grad() -> max abs diff from the key ~1e-2 (same call with grad enabled: 0)
# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    inference = not torch.is_grad_enabled()  # nobody will back-propagate: bfloat16 products are faster
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=inference):
        h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
        x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
        h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
        out = x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
    return out.to(x.dtype)
