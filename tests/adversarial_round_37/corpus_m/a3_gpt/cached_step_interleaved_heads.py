# expect: loses cached_step -- splits the width into heads with view(B, 1, d_head, n_heads) (head i gets features i, i + h, i + 2h, ...) and merges back the same way; at P = 0 the single key gets weight 1 and the inverse merge undoes the split, so the visible tests pass, but with a cache the heads attend over the wrong feature groups and the returned cache is not in head-slice layout; breaks 'split into n_heads heads of d_head = d // n_heads as in assignment 1' (head i owns features i*d_head:(i+1)*d_head); input: d=8, h=2, P=3 random cache, x randn(1,1,8) -> out differs from the key's
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, 1, d) -> (B, h, 1, d_head)
        return t.view(B, 1, d_head, n_heads).permute(0, 3, 1, 2)

    q = heads(x @ W_q)
    k = torch.cat([cache_k, heads(x @ W_k)], dim=2)  # (B, h, P + 1, d_head): time is axis 2
    v = torch.cat([cache_v, heads(x @ W_v)], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)
    out = (weights @ v).permute(0, 2, 3, 1).reshape(B, 1, d) @ W_o  # heads back to their features
    return out, k, v
