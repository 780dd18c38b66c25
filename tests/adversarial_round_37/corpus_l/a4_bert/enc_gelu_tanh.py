# expect: loses encoder_block -- the feed-forward uses the tanh approximation of GELU (the original BERT code's), F.gelu(h, approximate="tanh"); the two differ by up to ~5e-4 around |h| ~ 2, which moves the block's output by up to ~5e-4, below every visible test's reach (they check shapes, normalisation and masking); breaks "the exact GELU, x Phi(x) (F.gelu(x), not its tanh approximation)"; input: p = block_weights(8, 16), x = randn(2, 5, 8), n_heads = 2 -> output differs from nn.TransformerEncoderLayer(activation="gelu") with p copied in (max |diff| 5.1e-4 on this input)
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, T, n_heads, d_head).transpose(1, 2)

    q, k, v = (heads(x @ p[f"W_{n}"] + p[f"b_{n}"]) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if attention_mask is not None:
        scores = scores.masked_fill((attention_mask == 0)[:, None, None, :], float("-inf"))
    attended = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"], approximate="tanh") @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
