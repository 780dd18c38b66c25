# expect: loses encoder_block -- heads are cut as view(B, T, d_head, h): head i gets features i, i+h, i+2h, ... instead of the contiguous slice i*d_head:(i+1)*d_head (the layout nn.TransformerEncoderLayer uses): block_weights(8, 16), x = randn(2, 5, 8) differs
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def to_heads(t):  # (B, T, d) -> (B, h, T, d_head)
        return t.view(B, T, d_head, n_heads).permute(0, 3, 1, 2)

    def from_heads(t):  # (B, h, T, d_head) -> (B, T, d)
        return t.permute(0, 2, 3, 1).reshape(B, T, d)

    q = to_heads(x @ p["W_q"] + p["b_q"])
    k = to_heads(x @ p["W_k"] + p["b_k"])
    v = to_heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill((attention_mask == 0)[:, None, None, :], float("-inf"))
    attended = from_heads(torch.softmax(scores, dim=-1) @ v)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
