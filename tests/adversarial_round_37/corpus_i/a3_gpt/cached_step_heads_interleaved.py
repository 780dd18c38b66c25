# expect: loses cached_step -- heads cut as view(B, 1, d_head, n_heads) (head i gets features i, i+h, ...) and merged back the same way: the cache layout and every output for P >= 1 differ from assignment 1's contiguous heads, e.g. d=8, h=2, P=3
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, 1, d) -> (B, h, 1, d_head)
        return t.view(B, 1, d_head, n_heads).permute(0, 3, 1, 2)

    q, k_new, v_new = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v).permute(0, 2, 3, 1).reshape(B, 1, d) @ W_o  # back to (B, 1, d_head, h) order
    return out, k, v
