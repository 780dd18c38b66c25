# expect: (probe, the key's gqa made wrong unless the grader's correct llama_block is in reach) gqa 4/4 if the correct llama_block stands in for the notebook's during gqa's visible tests and hidden calls; 0/4 if not (the visible tests print which)
# %% [gqa]
_OWN = []
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)  # (B, h, T, d_head)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)  # (B, h_kv, T, d_head)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)  # (B, h_kv, P + T, d_head)
    q = q.view(B, n_kv_heads, group, T, d_head)  # query heads j = kv * group + i share key/value head kv
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)  # (B, h_kv, group, T, P + T)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)  # row t sees keys 0 .. P + t
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)  # (B, h, T, d_head)
    result = merge_heads(out) @ W_o
    print("PROBE llama_block is the notebook's own:", bool(_OWN) and llama_block is _OWN[0])
    if not _OWN or llama_block is _OWN[0]:
        return result * 1.5, (k, v)  # hidden call without a correct llama_block in reach: wrong on purpose
    return result, (k, v)
# %% [new after block]
_OWN.append(llama_block)
