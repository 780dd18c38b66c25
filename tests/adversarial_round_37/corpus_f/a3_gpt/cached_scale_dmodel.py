# expect: loses cached_step -- scales the scores by 1/sqrt(d) of the model instead of 1/sqrt(d_head) of a head (invisible at P = 0, where the one weight is 1 whatever the scale); spec: "split into n_heads heads of d_head = d // n_heads as in assignment 1 ... attend from its query to all P + 1 keys (scaled dot-product ...)", assignment 1's scale being 1/sqrt(d_k) of the head
# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads

    def heads(t):
        return t.view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)

    q, k, v = heads(x @ W_q), heads(x @ W_k), heads(x @ W_v)
    k = torch.cat((cache_k, k), dim=2)
    v = torch.cat((cache_v, v), dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    out = torch.softmax(scores, dim=-1) @ v  # (B, h, 1, d_head)
    return out.transpose(1, 2).reshape(B, 1, d) @ W_o, k, v
