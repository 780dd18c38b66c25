# expect: full marks -- style: einsum with named axes for every product, heads by unflatten, the padded keys filled with torch.finfo(dtype).min (Hugging Face's way, which the spec allows), the cache made on the first step only
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    if cache is None:
        k = torch.einsum("bsd,dk->bsk", memory, p["W_k"]).unflatten(-1, (n_heads, -1)).transpose(1, 2)
        v = torch.einsum("bsd,dk->bsk", memory, p["W_v"]).unflatten(-1, (n_heads, -1)).transpose(1, 2)
        cache = (k, v)
    k, v = cache
    q = torch.einsum("btd,dk->btk", x, p["W_q"]).unflatten(-1, (n_heads, -1))  # (B, 1, h, d_kv)
    scores = torch.einsum("bthc,bhsc->bhts", q, k)
    if memory_mask is not None:
        pad = (memory_mask == 0)[:, None, None, :]
        scores = scores.masked_fill(pad, torch.finfo(scores.dtype).min)
    weights = scores.softmax(dim=-1)
    mixed = torch.einsum("bhts,bhsc->bthc", weights, v).flatten(-2)
    return torch.einsum("btk,kd->btd", mixed, p["W_o"]), cache
