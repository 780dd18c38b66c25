# expect: loses cached_step  -- keeps only the last 128 positions of the cache (a fixed context window), so for P + 1 > 128 the returned cache is (B, h, 128, d_head) and the oldest keys are not attended; spec: "Return the output (B, 1, d) and the grown cache, (out, k, v) with k and v of shape (B, h, P + 1, d_head)"
# %% [cached_step]
BLOCK_SIZE = 128  # the model's context length


def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)[:, :, -BLOCK_SIZE:]
    v = torch.cat([cache_v, (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)], dim=2)[:, :, -BLOCK_SIZE:]
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
