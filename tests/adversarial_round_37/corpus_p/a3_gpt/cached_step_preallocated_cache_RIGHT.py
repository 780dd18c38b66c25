# expect: full marks -- allocates the grown cache with new_empty and copies the old one and the new position into it by slice assignment (autograd tracks the copies, so gradients reach cache_k and cache_v), heads split with unflatten, scores by einsum
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    P = cache_k.shape[2]

    def heads(t):  # (B, 1, d) -> (B, h, 1, d_head)
        return t.unflatten(-1, (n_heads, d_head)).transpose(1, 2)

    q, k_new, v_new = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = k_new.new_empty(B, n_heads, P + 1, d_head)
    v = v_new.new_empty(B, n_heads, P + 1, d_head)
    k[:, :, :P], k[:, :, P:] = cache_k, k_new
    v[:, :, :P], v[:, :, P:] = cache_v, v_new
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d_head)
    out = torch.einsum("bhqk,bhkd->bhqd", torch.softmax(scores, dim=-1), v)
    return out.transpose(1, 2).reshape(B, 1, d) @ W_o, k, v
