# expect: loses encoder_block -- rebuilds the mask from the row lengths (attention_mask.sum(-1)), assuming padding on the right: a left-padded row attention_mask = [[0, 0, 1, 1, 1]] masks the wrong keys (the real tokens 3, 4 are hidden, the padded 0, 1 attended)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).permute(0, 2, 1, 3)

    q, k, v = (heads(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = q @ k.transpose(-1, -2) / math.sqrt(d_head)
    if attention_mask is not None:
        lengths = attention_mask.sum(dim=-1)  # real tokens per row
        real_key = torch.arange(T)[None, :] < lengths[:, None]  # (B, T)
        scores = scores.masked_fill(~real_key[:, None, None, :], float("-inf"))
    ctx = (torch.softmax(scores, dim=-1) @ v).permute(0, 2, 1, 3).reshape(B, T, d)
    h = F.layer_norm(x + ctx @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    return F.layer_norm(h + F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"], (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
