# expect: loses pre_ln -- normalises each sequence as a whole (mean and variance over its positions AND features, as nn.LayerNorm([T, d]) would) instead of each position's vector, so a position's output depends on every other position of its sequence through the statistics; the visible tests check only the shape and the identity with both sub-layers zeroed, and pass; breaks 'x <- x + MHA(LN_1(x)), x <- x + FFN(LN_2(x))' with part 1's LayerNorm over the last axis (hidden: compared with nn.TransformerEncoderLayer(norm_first=True)); input: p = random_block_weights(8, 16), x = randn(2, 5, 8), n_heads 2 -> output differs from the key's by ~1
# %% [pre_ln]
def _sequence_norm(x, gain, bias, eps=1e-5):
    """Normalise each sequence (T, d) with its own mean and variance, then the per-feature gain and bias."""
    mean = x.mean(dim=(-2, -1), keepdim=True)
    var = ((x - mean) ** 2).mean(dim=(-2, -1), keepdim=True)
    return gain * (x - mean) / torch.sqrt(var + eps) + bias


def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h = _sequence_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = _sequence_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
