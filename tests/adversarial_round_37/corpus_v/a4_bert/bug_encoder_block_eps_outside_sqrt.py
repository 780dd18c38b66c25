# expect: loses encoder_block -- both LayerNorms divide by sqrt(var) + 1e-12 instead of sqrt(var + 1e-12): beside any ordinary variance the two differ by ~1e-12 relative (invisible), but at a row whose sum x + sublayer(x) is constant (var 0) the value is the same (0 / 1e-12 = 0, then the bias) while the gradient is NaN (sqrt's derivative at 0), where the key's is finite: x rows constant with W_o = 0 and b_o = 0, or W_2 = 0 after a constant x'
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    def layer_norm(t, gain, bias, eps=1e-12):
        mu = t.mean(-1, keepdim=True)
        sigma = (t - mu).pow(2).mean(-1, keepdim=True).sqrt()
        return gain * (t - mu) / (sigma + eps) + bias

    q, k, v = (heads(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    h = layer_norm(x + attended @ p["W_o"] + p["b_o"], p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return layer_norm(h + ff, p["ln2_gain"], p["ln2_bias"])
