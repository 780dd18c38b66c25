# expect: loses encoder_block -- the feed-forward uses the tanh approximation of GELU (the original BERT code's), not the exact x Phi(x) the spec asks for: block_weights(8, 16) with x = 3 * randn(2, 5, 8) differs from the exact-GELU block by up to about 5e-4 (small: caught only by a tolerance below that)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def split(t):
        return t.reshape(B, T, n_heads, d_head).permute(0, 2, 1, 3)

    q = split(x @ p["W_q"] + p["b_q"])
    k = split(x @ p["W_k"] + p["b_k"])
    v = split(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-1, -2) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, torch.finfo(scores.dtype).min)
    context = (scores.softmax(-1) @ v).permute(0, 2, 1, 3).reshape(B, T, d)
    h = F.layer_norm(x + context @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], 1e-12)
    inner = F.gelu(h @ p["W_1"] + p["b_1"], approximate="tanh")  # BERT's gelu
    return F.layer_norm(h + inner @ p["W_2"] + p["b_2"], (d,), p["ln2_gain"], p["ln2_bias"], 1e-12)
