# expect: loses cross_attention -- the padding is folded into the cache on the first step (padded values zeroed) and later steps skip the mask, so from the second step on the padded keys take softmax weight; spec: "`memory_mask` (B, S) ... given on every step" and "the padded source positions masked out" every step
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    q = heads(x @ p["W_q"])
    if cache is None:
        k, v = heads(memory @ p["W_k"]), heads(memory @ p["W_v"])
        scores = q @ k.transpose(-2, -1)
        if memory_mask is not None:
            padded = memory_mask[:, None, :, None] == 0  # (B, 1, S, 1)
            v = v.masked_fill(padded, 0.0)  # padding contributes nothing from now on
            scores = scores.masked_fill(padded.transpose(-2, -1), float("-inf"))
        cache = (k, v)
    else:
        k, v = cache
        scores = q @ k.transpose(-2, -1)  # padded values were zeroed on the first step
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
