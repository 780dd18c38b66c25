# expect: loses cached_step -- softmax taken over dim=-2 (the single query) instead of the keys, so every weight is 1 and out sums the values: with P=0 it is correct, with a cache of P=2 positions out = (sum of the 3 values) W_o
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    v = torch.cat([cache_v, (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d_head)  # (B, h, 1, P + 1)
    weights = torch.softmax(scores, dim=-2)
    out = torch.einsum("bhqk,bhkd->bqhd", weights, v).reshape(B, 1, d)
    return out @ W_o, k, v
