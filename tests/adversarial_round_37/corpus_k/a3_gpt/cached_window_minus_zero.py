# expect: loses cached_step -- attends over k[:, :, -P:] meaning "the cached positions plus the new one", but -P drops the oldest key when P > 0 (and only works at P = 0 because -0 == 0): from the second step on, position 0 is never attended (e.g. P = 1: out uses only the new key)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    P = cache_k.shape[2]
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    v = torch.cat([cache_v, (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)
    k_att, v_att = k[:, :, -P:], v[:, :, -P:]  # the window: everything up to the newest position
    weights = torch.softmax(q @ k_att.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v_att).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
