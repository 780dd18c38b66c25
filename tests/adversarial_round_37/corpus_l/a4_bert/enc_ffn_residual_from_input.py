# expect: loses encoder_block -- variable slip: the second residual adds the feed-forward of x' to the block's INPUT x, out = LN_2(x + FFN(x')), instead of to x'; the output is still a LayerNorm (normalised rows), padding still changes nothing at real tokens and the mask still matters, all the visible tests check; breaks "out = LayerNorm_2(x' + GELU(x' W_1 + b_1) W_2 + b_2)"; input: p = block_weights(8, 16), x = randn(2, 5, 8), n_heads = 2 -> output differs from nn.TransformerEncoderLayer(norm_first=False) with p copied in
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    q = (x @ p["W_q"] + p["b_q"]).reshape(B, T, n_heads, d_head).transpose(1, 2)
    k = (x @ p["W_k"] + p["b_k"]).reshape(B, T, n_heads, d_head).transpose(1, 2)
    v = (x @ p["W_v"] + p["b_v"]).reshape(B, T, n_heads, d_head).transpose(1, 2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    attn = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d) @ p["W_o"] + p["b_o"]
    h = F.layer_norm(x + attn, (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(h @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
