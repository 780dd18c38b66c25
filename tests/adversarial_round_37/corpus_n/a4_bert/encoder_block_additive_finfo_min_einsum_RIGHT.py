# expect: full marks -- Hugging Face's way: an additive bias (1 - mask) * torch.finfo(dtype).min added to the scores (the spec allows finfo.min; every padded key's weight underflows to exactly 0), heads kept as (B, T, h, d_head) and contracted with einsum instead of transposing; same values (to rounding) and gradients for x and every tensor of p as the key, with and without a mask, padding at the end, at the start or in the middle, float32 and float64
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q = (x @ p["W_q"] + p["b_q"]).reshape(B, T, n_heads, d_head)
    k = (x @ p["W_k"] + p["b_k"]).reshape(B, T, n_heads, d_head)
    v = (x @ p["W_v"] + p["b_v"]).reshape(B, T, n_heads, d_head)
    scores = torch.einsum("bqhe,bkhe->bhqk", q, k) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        padding = 1 - attention_mask[:, None, None, :].to(scores.dtype)  # 1 at the padded keys
        scores = scores + padding * torch.finfo(scores.dtype).min  # as Hugging Face's BERT
    weights = torch.softmax(scores, dim=-1)
    attended = torch.einsum("bhqk,bkhe->bqhe", weights, v).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
