# expect: loses cross_attention -- handles memory_mask once, when the cache is built, by zeroing the padded positions' keys and values: the padding then contributes nothing to the output (the visible test that changes only the padded memory passes), but a zero key still scores 0, not -inf, so the padded positions take weight exp(0) / Z from the softmax and the real positions' weights no longer sum to 1; spec: "the padded source positions masked out (`memory_mask` (B, S), `torch.long`, 1 = real token, 0 = padding, given on every step, or `None` ...), softmax over the source"
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: the source is projected once, its padding removed once
        real = 1.0 if memory_mask is None else memory_mask[:, None, :, None].to(memory.dtype)  # (B, 1, S, 1)
        cache = (heads(memory @ p["W_k"]) * real, heads(memory @ p["W_v"]) * real)
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): T5 does not scale
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
