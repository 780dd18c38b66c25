# expect: loses cross_attention -- "masks" the padding by zeroing the padded memory rows before projecting them, so padded keys score 0 instead of -inf and still take softmax weight (zero values, but the real weights no longer sum to 1); the visible check only varies what the padded rows hold; spec: "the padded source positions masked out (memory_mask (B, S) ...), softmax over the source"
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def split(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        if memory_mask is not None:
            memory = memory * memory_mask[:, :, None]  # padding contributes nothing
        cache = (split(memory @ p["W_k"]), split(memory @ p["W_v"]))
    k, v = cache
    q = split(x @ p["W_q"])
    weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)  # T5: no scaling
    out = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
