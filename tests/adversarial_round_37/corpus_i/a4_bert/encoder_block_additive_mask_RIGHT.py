# expect: full marks -- Hugging Face's additive extended mask (1 - mask) * finfo(dtype).min added to the scores, einsum attention, F.layer_norm with eps=1e-12
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    dh = d // n_heads
    q = torch.addmm(p["b_q"], x.reshape(-1, d), p["W_q"]).view(B, T, n_heads, dh)
    k = torch.addmm(p["b_k"], x.reshape(-1, d), p["W_k"]).view(B, T, n_heads, dh)
    v = torch.addmm(p["b_v"], x.reshape(-1, d), p["W_v"]).view(B, T, n_heads, dh)
    scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(dh)
    if attention_mask is not None:
        extended = (1.0 - attention_mask[:, None, None, :].to(scores.dtype)) * torch.finfo(scores.dtype).min
        scores = scores + extended
    ctx = torch.einsum("bhqk,bkhd->bqhd", scores.softmax(dim=-1), v).reshape(B, T, d)
    h = F.layer_norm(ctx @ p["W_o"] + p["b_o"] + x, (d,), p["ln1_gain"], p["ln1_bias"], 1e-12)
    inter = F.gelu(h @ p["W_1"] + p["b_1"])
    return F.layer_norm(inter @ p["W_2"] + p["b_2"] + h, (d,), p["ln2_gain"], p["ln2_bias"], 1e-12)
