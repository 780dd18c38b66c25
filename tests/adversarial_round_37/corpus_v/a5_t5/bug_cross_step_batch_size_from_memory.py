# expect: loses cross_attention -- the batch size is read from memory (memory.shape[0]) on every step, though on later steps memory must not be read (the tests may pass another tensor there): a later step with the cache of a batch of 2 and memory of batch 1 (or 3) -> a reshape error (or wrong shape); with a later memory of the same batch, of any length, it agrees with the key
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = memory.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.reshape(B, -1, n_heads, d_kv).transpose(1, 2)

    if cache is None:
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])
    scores = q @ k.transpose(-2, -1)
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
