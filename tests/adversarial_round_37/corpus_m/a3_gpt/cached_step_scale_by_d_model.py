# expect: loses cached_step -- the scores are divided by sqrt(d) (the model width) instead of sqrt(d_head); breaks 'attend ... (scaled dot-product ...)' as in assignment 1, 1/sqrt(d_head); input: d=8, h=2, P=3 random cache, x randn(1,1,8) -> outputs differ (the visible tests only try P=0, where one key gets weight 1 whatever the scale)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)
    k_new = (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)
    v_new = (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)  # (B, h, P + 1, d_head): time is axis 2
    v = torch.cat([cache_v, v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), dim=-1)  # (B, h, 1, P + 1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o  # (B, 1, d)
    return out, k, v
