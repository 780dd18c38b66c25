# expect: loses cached_step -- keeps its own module-level cache and ignores the cache passed in (reset only when P == 0): a cache that was not built by the previous call (another sequence, a beam, a prompt's cache) is ignored; spec: "The keys and values of positions 0..P-1 were computed at earlier steps and kept: cache_k and cache_v"
# %% [cached_step]
_kv = {"k": [], "v": []}


def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    if cache_k.shape[2] == 0:  # a new sequence starts
        _kv["k"].clear()
        _kv["v"].clear()
    heads = lambda t: t.view(B, 1, n_heads, d_head).transpose(1, 2)
    q = heads(x @ W_q)
    _kv["k"].append(heads(x @ W_k))
    _kv["v"].append(heads(x @ W_v))
    k, v = torch.cat(_kv["k"], dim=2), torch.cat(_kv["v"], dim=2)  # list append is O(1) per step
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o
    return out, k, v
