# expect: loses cached_step  -- grows and returns the cache correctly but attends only over the new key/value (the cache is ignored in the attention); spec: "attend from its query to all P + 1 keys (scaled dot-product, no mask needed ...)"
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads

    def split(t):
        return t.view(B, -1, n_heads, d_head).transpose(1, 2)

    q, k_new, v_new = split(x @ W_q), split(x @ W_k), split(x @ W_v)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    scores = q @ k_new.transpose(-2, -1) / math.sqrt(d_head)  # the new position's score
    out = torch.softmax(scores, dim=-1) @ v_new
    return out.transpose(1, 2).reshape(B, 1, d) @ W_o, k, v
