# expect: loses cached_step — keeps the last grown cache in a module-level variable and, when the cache passed in has the same length as the remembered one, continues from the remembered cache instead of the argument, so two sequences decoded in turn (or a cache reordered for beam search) mix up: state kept between calls; input: two independent caches of length 3 (seq A, then seq B), step B is computed with A's keys -> max abs diff ~0.9 from the key
# %% [cached_step]
_LAST = {}


def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    last = _LAST.get("kv")
    if last is not None and last[0].shape == cache_k.shape:
        cache_k, cache_v = last  # continue the cache we grew on the previous step
    q = (x @ W_q).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k_new = (x @ W_k).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    _LAST["kv"] = (k, v)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
