# expect: loses cross_attention — masks padding by zeroing the cached keys and values of the padded source positions instead of setting their scores to -inf, so a padded position keeps score 0 and takes softmax weight (exp(0) in the denominator) while contributing a zero value: the real positions' weights no longer sum to 1; the visible test only checks that the padded contents do not matter; input: cross_attention_weights(8, 6, 2), x = randn(2, 1, 8), memory = randn(2, 5, 8), memory_mask = [[1,1,1,1,1],[1,1,0,0,0]] -> row 1 differs from the key's (max abs diff ~1.8; row 0, without padding, equal)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    if memory_mask is not None:  # padded source positions contribute nothing
        keep = memory_mask[:, None, :, None].to(k.dtype)
        k, v = k * keep, v * keep
    q = heads(x @ p["W_q"])
    weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
