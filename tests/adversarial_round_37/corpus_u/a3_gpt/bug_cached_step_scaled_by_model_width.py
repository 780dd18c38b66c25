# expect: loses cached_step (scores divided by sqrt(d), the model's width, instead of sqrt(d_head): P 3, d 8, h 2, randn weights: the outputs differ by 0.12 (0.0 at P = 0); with P = 0 (one key: weight 1 whatever the scale, the visible tests) or n_heads = 1 they agree)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k_new = (x @ W_k).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).reshape(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), dim=-1)  # (B, h, 1, P + 1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
