# expect: loses encoder_block — both LayerNorms with the default eps 1e-5 instead of BERT's 1e-12 that the spec gives; invisible at unit scale, wrong when the residual sums are small (a block fed small activations with small weights); input: block_weights(8, 16) with the projection weights and biases (not the LayerNorm gains and biases) scaled by 1e-3 and x = 1e-3 * randn(2, 5, 8) -> outputs differ from the key's by ~0.6
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    def norm(t, gain, bias, eps=1e-5):
        mu = t.mean(-1, keepdim=True)
        var = (t - mu).pow(2).mean(-1, keepdim=True)
        return gain * (t - mu) / torch.sqrt(var + eps) + bias

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"] + p["b_k"])
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = norm(x + attended @ p["W_o"] + p["b_o"], p["ln1_gain"], p["ln1_bias"])
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return norm(x + ff, p["ln2_gain"], p["ln2_bias"])
