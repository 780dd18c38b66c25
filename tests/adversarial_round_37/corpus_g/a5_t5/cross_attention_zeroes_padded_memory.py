# expect: loses cross_attention -- "masks" by zeroing the padded keys and values in the cache: their scores are 0, not -inf, so they still take softmax weight (invariant to what padding holds, but wrong)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B, S = memory.shape[0], memory.shape[1]
    d_kv = p["W_q"].shape[1] // n_heads
    if cache is None:
        k = (memory @ p["W_k"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        v = (memory @ p["W_v"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        cache = (k, v)
    k, v = cache
    if memory_mask is not None:
        keep = memory_mask[:, None, :, None].to(k.dtype)  # (B, 1, S, 1): padding contributes nothing
        k, v = k * keep, v * keep
    q = (x @ p["W_q"]).view(B, 1, n_heads, d_kv).transpose(1, 2)
    weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
