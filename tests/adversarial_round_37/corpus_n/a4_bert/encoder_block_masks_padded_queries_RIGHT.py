# expect: full marks -- masks padded QUERIES as well as padded keys (a (B, 1, T, T) pair mask) and turns the NaN softmax rows of the padded queries into zeros with nan_to_num; the real positions are computed exactly as the key computes them, the padded positions' outputs are finite (x + b_o through both LayerNorms) though different from the key's, which the spec leaves ungraded ('The outputs at padded positions are not graded, but they must be finite numbers'); the gradients stay finite because masked_fill's backward zeroes the fully masked rows and nan_to_num leaves zero weights to multiply v; same values at the real positions and same gradients (x, every tensor of p) of any loss on them as the key, left/right/middle padding, float32 and float64
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
        real = attention_mask.bool()
        pair = real[:, None, :, None] & real[:, None, None, :]  # real queries attend to real keys only
        scores = scores.masked_fill(~pair, float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)  # a padded query sees nothing: zeros, not NaN
    attended = (weights @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
