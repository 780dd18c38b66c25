# expect: loses cached_step -- the softmax is taken over dim=2, "the time axis" of the cache, but in the scores (B, h, 1, P + 1) axis 2 is the single query: every weight becomes exactly 1 and the output is the plain sum of the P + 1 values; right when P = 0 (one key, weight 1), the only case whose output the visible tests check; breaks "attend from its query to all P + 1 keys (scaled dot-product ...)" (softmax over the keys); input: d = 8, h = 2, a cache of P = 2 positions, x = randn(1, 1, 8) -> out differs from the spec's
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.reshape(B, 1, n_heads, d_head).transpose(1, 2)

    q, k_new, v_new = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = torch.cat([cache_k, k_new], dim=2)  # time is axis 2
    v = torch.cat([cache_v, v_new], dim=2)
    scores = q @ k.transpose(2, 3) / math.sqrt(d_head)  # (B, h, 1, P + 1)
    weights = torch.softmax(scores, dim=2)  # normalise over time
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
