# expect: full marks -- Hugging Face's "extended attention mask": (1 - attention_mask) * torch.finfo(dtype).min added to the scores (a very negative finite number, so exp underflows to exactly 0 for the padded keys and nothing is NaN), biases and heads through einsum, LayerNorm written out with eps = 1e-12; spec: "before the softmax, the scores of the padded **keys** are set to `-inf` (or a very negative number)" and "with BERT's LayerNorm `eps = 1e-12` and the exact GELU"
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def norm(t, gain, bias):
        mean = t.mean(dim=-1, keepdim=True)
        var = (t - mean).pow(2).mean(dim=-1, keepdim=True)
        return (t - mean) * torch.rsqrt(var + 1e-12) * gain + bias

    def heads(t):  # (B, T, d) -> (B, T, h, d_head)
        return t.reshape(B, T, n_heads, d_head)

    q, k, v = (heads(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = torch.einsum("bqhe,bkhe->bhqk", q, k) / math.sqrt(d_head)
    if attention_mask is not None:
        extended = (1 - attention_mask[:, None, None, :]).to(scores.dtype) * torch.finfo(scores.dtype).min
        scores = scores + extended
    attended = torch.einsum("bhqk,bkhe->bqhe", torch.softmax(scores, dim=-1), v).reshape(B, T, d)
    h = norm(x + attended @ p["W_o"] + p["b_o"], p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return norm(h + ff, p["ln2_gain"], p["ln2_bias"])
