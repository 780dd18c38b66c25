# expect: loses encoder_block -- calls F.layer_norm without eps=1e-12 (so 1e-5): differs from BERT's block wherever the summed features have a small variance
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    split = lambda t: t.reshape(B, T, n_heads, d_head).permute(0, 2, 1, 3)
    q, k, v = (split(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(~attention_mask.bool()[:, None, None, :], float("-inf"))
    attended = torch.einsum("bhij,bhjd->bhid", scores.softmax(dim=-1), v).permute(0, 2, 1, 3).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"])
    hidden = F.gelu(x @ p["W_1"] + p["b_1"])
    return F.layer_norm(x + hidden @ p["W_2"] + p["b_2"], (d,), p["ln2_gain"], p["ln2_bias"])
