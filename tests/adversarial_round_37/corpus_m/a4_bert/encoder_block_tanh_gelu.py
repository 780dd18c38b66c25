# expect: loses encoder_block -- the feed-forward uses the tanh approximation of GELU (as the original BERT code); breaks 'the exact GELU, x Phi(x) (F.gelu(x), not its tanh approximation)'; input: block_weights(8,16), x = 2*randn(2,5,8) -> outputs differ from the key's by ~1e-4..1e-3 (the visible tests check only the post-LN statistics and the mask)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, T, d) -> (B, h, T, d_head)
        return t.view(B, T, n_heads, d_head).transpose(1, 2)

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"] + p["b_k"])
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        padded = attention_mask[:, None, None, :] == 0  # (B, 1, 1, T): the padded keys
        scores = scores.masked_fill(padded, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)  # add, then normalise
    ff = F.gelu(x @ p["W_1"] + p["b_1"], approximate="tanh") @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
