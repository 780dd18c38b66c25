# expect: full marks (Hugging Face's extended attention mask: (1 - attention_mask) * torch.finfo(dtype).min added to the scores, in the scores' dtype, which the spec allows; heads by einsum)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q = (x @ p["W_q"] + p["b_q"]).reshape(B, T, n_heads, d_head)
    k = (x @ p["W_k"] + p["b_k"]).reshape(B, T, n_heads, d_head)
    v = (x @ p["W_v"] + p["b_v"]).reshape(B, T, n_heads, d_head)
    scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d_head)
    if attention_mask is not None:
        extended = (1 - attention_mask[:, None, None, :]).to(scores.dtype) * torch.finfo(scores.dtype).min
        scores = scores + extended  # a padded key: its score plus the dtype's least value
    attended = torch.einsum("bhqk,bkhd->bqhd", torch.softmax(scores, dim=-1), v).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
