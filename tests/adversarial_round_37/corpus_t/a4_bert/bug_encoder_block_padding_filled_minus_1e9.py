# expect: loses encoder_block  -- padded keys' scores filled with the finite -1e9 (The Annotated Transformer's value, "far enough below -10,000"), which is still a fixed value: when the real scores lie below -1e9 the padded keys take the weight; part 4 says -inf or torch.finfo(dtype).min, "a fixed value ... is not enough, since scores may lie below it: a padded key gets weight exactly 0"; d 4, 1 head, block_weights(4, 8) with W_q = 1e5 I, W_k = -1e5 I, b_q = b_k = 0, x (1, 3, 4) two real rows nearly parallel with norm 1 (real scores about -5e9) and the padded row -3 x[0, 0], mask [[1, 1, 0]]: the answer's real positions attend only the padded key, max abs diff 3.3 there; block_weights' own weights and x randn * 3 with padding left and right: equal
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q = (x @ p["W_q"] + p["b_q"]).reshape(B, T, n_heads, d_head).transpose(1, 2)  # (B, h, T, d_head)
    k = (x @ p["W_k"] + p["b_k"]).reshape(B, T, n_heads, d_head).transpose(1, 2)
    v = (x @ p["W_v"] + p["b_v"]).reshape(B, T, n_heads, d_head).transpose(1, 2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        padded = (attention_mask == 0)[:, None, None, :]  # (B, 1, 1, T): the padded keys
        scores = scores.masked_fill(padded, -1e9)  # far below -10,000: weight 0 after the softmax
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
