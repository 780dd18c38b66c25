# expect: loses cached_step -- stores the keys already divided by sqrt(d_head) in the returned cache: the outputs are right but the cache holds x W_k / sqrt(d_head), not x W_k (any other consumer of the cache, or a cache built elsewhere, is off by the scale); spec: "compute its query, key and value (x @ W_q, x @ W_k, x @ W_v, ...), append its key and value to the cache"
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    split = lambda t: t.view(B, 1, n_heads, d_head).transpose(1, 2)
    q = split(x @ W_q)
    # fold the 1/sqrt(d_head) into the cached keys once, instead of scaling scores at every step
    k = torch.cat([cache_k, split(x @ W_k) / math.sqrt(d_head)], dim=2)
    v = torch.cat([cache_v, split(x @ W_v)], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
