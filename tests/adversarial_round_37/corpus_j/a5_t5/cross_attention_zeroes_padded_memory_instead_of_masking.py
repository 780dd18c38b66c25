# expect: loses cross_attention -- padding handled by zeroing the padded memory rows before projecting (keys and values 0) instead of masking the scores, so each padded position still gets weight exp(0)/Z: memory_mask [[1, 1, 0, 0, 0]] gives weights 1/Z > 0 to positions 2..4 and a different out
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        source = memory
        if memory_mask is not None:
            source = memory * memory_mask[:, :, None].to(memory.dtype)  # padding contributes nothing
        cache = (heads(source @ p["W_k"]), heads(source @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])
    weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)  # T5: no 1/sqrt(d_kv)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
