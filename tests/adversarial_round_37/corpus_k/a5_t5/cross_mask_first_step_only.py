# expect: loses cross_attention -- applies memory_mask only on the first step (when memory is projected) and ignores it when a cache is passed, but the mask is "given on every step" and padded source positions must get weight 0 at every step: a later step attends to padding
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    padded = None
    if cache is None:  # the first step reads the source: project it and note its padding
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
        if memory_mask is not None:
            padded = memory_mask[:, None, None, :] == 0
    k, v = cache
    scores = heads(x @ p["W_q"]) @ k.transpose(-2, -1)
    if padded is not None:
        scores = scores.masked_fill(padded, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
