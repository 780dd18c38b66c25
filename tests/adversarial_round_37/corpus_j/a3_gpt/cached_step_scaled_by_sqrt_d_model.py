# expect: loses cached_step -- scores divided by sqrt(d) instead of sqrt(d_head) (invisible with one cached position, where the weight is 1 whatever the scale): d=8, h=2, P=3 random cache gives a different out
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)

    q, k_new, v_new = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = torch.cat((cache_k, k_new), dim=2)
    v = torch.cat((cache_v, v_new), dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)  # scaled by the model's width
    out = torch.softmax(scores, dim=-1) @ v
    return out.transpose(1, 2).reshape(B, 1, d) @ W_o, k, v
