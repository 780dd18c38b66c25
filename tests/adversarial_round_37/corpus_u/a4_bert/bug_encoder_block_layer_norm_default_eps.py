# expect: loses encoder_block (F.layer_norm's default eps 1e-5 in both norms, not BERT's 1e-12: x and the biases b_q, b_k, b_v, b_o, ln1_bias times 1e-3 (LayerNorm_1's input of variance ~1e-6): outputs differ by 0.75; at unit scale (the visible tests) by 9e-6)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"] + p["b_k"])
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"])
