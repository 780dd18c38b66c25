# expect: loses cross_attention -- "masks" the padding by zeroing the padded keys and values in the cache instead of setting their scores to -inf: a padded key then scores 0 and still takes softmax weight (its value is 0, so the real values are under-weighted); outputs do not depend on what padding holds, but they are wrong (e.g. mask [[1, 1, 0, 0, 0]])
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        keep = 1.0 if memory_mask is None else memory_mask[:, None, :, None].to(memory.dtype)  # (B, 1, S, 1)
        cache = (heads(memory @ p["W_k"]) * keep, heads(memory @ p["W_v"]) * keep)  # padding carries nothing
    k, v = cache
    weights = torch.softmax(heads(x @ p["W_q"]) @ k.transpose(-2, -1), dim=-1)
    attended = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
