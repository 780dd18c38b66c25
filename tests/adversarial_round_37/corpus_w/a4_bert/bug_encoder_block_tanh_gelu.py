# expect: loses encoder_block -- "with BERT's LayerNorm eps = 1e-12 and the exact GELU, x Phi(x) (F.gelu(x), not its tanh approximation)": the feed-forward uses F.gelu(..., approximate="tanh") (the original BERT code's gelu), up to about 5e-4 off per activation, enough to move the block's outputs well past float32 tolerance; the visible tests check only LayerNorm statistics and the mask
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
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)
    ff = F.gelu(x @ p["W_1"] + p["b_1"], approximate="tanh") @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
