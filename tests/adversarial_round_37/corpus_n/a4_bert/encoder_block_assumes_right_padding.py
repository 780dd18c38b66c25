# expect: loses encoder_block -- turns attention_mask into lengths (mask.sum(1)) and masks the keys at positions >= length, i.e. assumes the padding is at the end of each row; right for right-padded batches (all the visible tests), wrong for left padding, where it masks real tokens and lets every position attend to the padding; breaks 'the zeros may be anywhere in a row (at its end, as part 5 pads, or at its start, as a tokenizer that pads on the left makes them). No position may attend to a padded one'; input: block_weights(8, 16), x = randn(1, 5, 8), attention_mask = [[0, 0, 1, 1, 1]] -> the real positions 2..4 differ from the key's by ~1
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, T, d) -> (B, h, T, d_head)
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"] + p["b_k"])
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        lengths = attention_mask.sum(dim=1)  # the real tokens of each row
        padded = torch.arange(T)[None, :] >= lengths[:, None]  # (B, T): the positions after them
        scores = scores.masked_fill(padded[:, None, None, :], float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
