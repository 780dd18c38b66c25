# expect: loses encoder_block -- uses F.layer_norm's default eps = 1e-5 instead of BERT's 1e-12: wrong for hidden states of small spread; spec: "with BERT's LayerNorm eps = 1e-12"
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    split = lambda t: t.reshape(B, T, n_heads, d_head).permute(0, 2, 1, 3)
    q, k, v = (split(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = q @ k.transpose(-1, -2) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores + (1.0 - attention_mask[:, None, None, :].to(scores.dtype)) * -1e9
    ctx = (scores.softmax(-1) @ v).permute(0, 2, 1, 3).reshape(B, T, d)
    h = F.layer_norm(x + ctx @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(h + ff, (d,), p["ln2_gain"], p["ln2_bias"])
