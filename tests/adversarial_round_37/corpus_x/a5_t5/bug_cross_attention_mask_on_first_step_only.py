# expect: loses cross_attention -- "`memory_mask` ... given on every step" and "Then, every step: ... the padded source positions masked out": the mask is applied only on the first step, where memory is projected (the padding being a property of the source, it was taken to be handled once, with the cache); on every later step the query attends to the padded positions too; the visible tests mask only a first step and run their later step without a mask
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    first = cache is None
    if first:
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    scores = heads(x @ p["W_q"]) @ k.transpose(-2, -1)
    if first and memory_mask is not None:  # the source's padding, dealt with when the source is read
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
