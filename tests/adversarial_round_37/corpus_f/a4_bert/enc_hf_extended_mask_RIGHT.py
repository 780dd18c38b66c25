# expect: full marks -- Hugging Face's BERT recipe: an additive "extended attention mask" (1 - mask) * finfo.min of shape (B, 1, 1, T) added to the scores (a very negative number, which the spec allows; its exp is exactly 0), einsum for the per-head products, reshape instead of view
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q = (x @ p["W_q"] + p["b_q"]).reshape(B, T, n_heads, d_head)
    k = (x @ p["W_k"] + p["b_k"]).reshape(B, T, n_heads, d_head)
    v = (x @ p["W_v"] + p["b_v"]).reshape(B, T, n_heads, d_head)
    scores = torch.einsum("bqhe,bkhe->bhqk", q, k) / math.sqrt(d_head)
    if attention_mask is not None:
        extended = (1.0 - attention_mask[:, None, None, :].to(scores.dtype)) * torch.finfo(scores.dtype).min
        scores = scores + extended
    context = torch.einsum("bhqk,bkhe->bqhe", scores.softmax(dim=-1), v).reshape(B, T, d)
    h = F.layer_norm(x + context @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    out = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(h + out, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
