# expect: loses cached_step -- concatenates cache_k.detach() and cache_v.detach() with the new key and value ('the cache holds past computation: constants now'), so the output and the grown cache have the right values and the visible tests pass, but no gradient reaches cache_k or cache_v (training through a cached prefix, or a gradient check, sees None); breaks the hidden-tests line 'gradients flow back to x, cache_k, cache_v, W_q, W_k, W_v and W_o'; input: d = 8, h = 2, P = 3 random cache requiring grad, backward of out and the returned cache -> cache_k.grad is None (key: nonzero)
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)
    k_new = (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)
    v_new = (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k.detach(), k_new], dim=2)  # the cached past is fixed: no gradient into it
    v = torch.cat([cache_v.detach(), v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
