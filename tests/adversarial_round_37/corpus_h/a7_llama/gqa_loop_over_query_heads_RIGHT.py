# expect: full marks -- an explicit Python loop over the query heads (head j reads key/value head j // g), einsum scores, the causal mask from position comparisons (key position <= query position P + t) applied with torch.where
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    past_k, past_v = cache if cache is not None else (None, None)
    P = 0 if past_k is None else past_k.shape[-2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if past_k is not None:
        k = torch.cat((past_k, k), dim=-2)
        v = torch.cat((past_v, v), dim=-2)
    query_pos = torch.arange(P, P + T)[:, None]
    key_pos = torch.arange(P + T)[None, :]
    visible = key_pos <= query_pos  # (T, P + T)
    heads = []
    for j in range(n_heads):
        kv = j // group
        s = torch.einsum("btd,bsd->bts", q[:, j], k[:, kv]) / math.sqrt(d_head)
        s = torch.where(visible, s, torch.full_like(s, float("-inf")))
        heads.append(torch.softmax(s, dim=-1) @ v[:, kv])
    return merge_heads(torch.stack(heads, dim=1)) @ W_o, (k, v)
