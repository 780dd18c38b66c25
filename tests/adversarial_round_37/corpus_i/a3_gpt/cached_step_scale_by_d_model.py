# expect: loses cached_step -- scores divided by sqrt(d) (the model width) instead of sqrt(d_head); invisible when P = 0 (one key), wrong for any P >= 1, e.g. d=8, h=2, P=3
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.view(B, 1, n_heads, d_head).transpose(1, 2)

    q, k_new, v_new = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
