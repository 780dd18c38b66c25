# expect: loses encoder_block -- attention in blocks of 16 sequences, each block masked with attention_mask[:n] (the first rows) instead of its own rows: right for B <= 16, wrong past the first block; "No position may attend to a padded one"; block_weights(8, 16), x randn(20, 6, 8), each row padded on the right after a random length 1..6, 2 heads: max abs diff at real positions 1.39; B = 16: 0.0
# %% [encoder_block]
_ROWS_PER_BLOCK = 16  # sequences per block: bounds the (rows, h, T, T) scores held at once


def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads
    attended = []
    for i in range(0, B, _ROWS_PER_BLOCK):
        xb = x[i : i + _ROWS_PER_BLOCK]
        n = xb.shape[0]

        def heads(t):  # (n, T, d) -> (n, h, T, d_head)
            return t.reshape(n, T, n_heads, d_head).transpose(1, 2)

        q, k, v = (heads(xb @ p[f"W_{c}"] + p[f"b_{c}"]) for c in "qkv")
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
        if attention_mask is not None:
            padded = attention_mask[:n, None, None, :] == 0  # this block's rows of the mask
            scores = scores.masked_fill(padded, float("-inf"))
        attended.append((torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(n, T, d))
    attended = torch.cat(attended, dim=0)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
