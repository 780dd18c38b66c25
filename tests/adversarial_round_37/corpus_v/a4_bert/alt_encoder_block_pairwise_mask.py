# expect: full marks -- the padding mask applied to queries and keys alike (a (B, 1, T, T) pair mask real & real): real positions attend exactly the real keys, as the key; padded query rows attend nothing and get zero attention (finite, their outputs are not graded); real rows' values and every gradient through real outputs agree
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    def ln(t, g, b):
        mu = t.mean(-1, keepdim=True)
        var = (t - mu).pow(2).mean(-1, keepdim=True)
        return (t - mu) / torch.sqrt(var + 1e-12) * g + b

    q, k, v = (heads(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        real = attention_mask != 0
        pair = (real[:, :, None] & real[:, None, :])[:, None]  # (B, 1, T, T)
        row_alive = pair.any(-1, keepdim=True)
        weights = torch.softmax(scores.masked_fill(~pair & row_alive, float("-inf")), dim=-1)
        weights = weights.masked_fill(~row_alive | ~pair, 0.0)
    attended = (weights @ v).transpose(1, 2).reshape(B, T, d)
    h = ln(x + attended @ p["W_o"] + p["b_o"], p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return ln(h + ff, p["ln2_gain"], p["ln2_bias"])
