# expect: loses cached_step -- written for one sequence: it drops the batch axis (x[0], cache_k[0]) and puts it back as 1, so B > 1 fails; spec: "Given the newest position's input x (B, 1, d) ... Return the output (B, 1, d) and the grown cache ... of shape (B, h, P + 1, d_head)"
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    d = x.shape[-1]
    d_head = d // n_heads
    xt = x[0, 0]  # (d,): generation runs one sequence at a time
    q = (xt @ W_q).view(n_heads, 1, d_head)
    k = torch.cat([cache_k[0], (xt @ W_k).view(n_heads, 1, d_head)], dim=1)  # (h, P + 1, d_head)
    v = torch.cat([cache_v[0], (xt @ W_v).view(n_heads, 1, d_head)], dim=1)
    weights = torch.softmax(torch.einsum("hqd,hkd->hqk", q, k) / math.sqrt(d_head), dim=-1)
    out = torch.einsum("hqk,hkd->qhd", weights, v).reshape(1, 1, d) @ W_o
    return out, k.unsqueeze(0), v.unsqueeze(0)
