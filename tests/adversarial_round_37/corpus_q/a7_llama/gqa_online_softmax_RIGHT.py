# expect: full marks -- style: flash-attention's online softmax, keys in blocks of 256 with a running maximum and running sum per query (the -inf of a block where a query sees nothing handled), grouped heads by expand, no (T, P + T) score matrix at once
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base) / math.sqrt(d_head)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    L = P + T
    qg = q.reshape(B, n_kv_heads, group, T, d_head)
    query_pos = torch.arange(P, L)[:, None]
    running_max = None
    block = 256
    for s in range(0, L, block):
        kb = k[:, :, None, s : s + block]                         # (B, hkv, 1, b, dh)
        vb = v[:, :, None, s : s + block]
        sc = qg @ kb.transpose(-2, -1)                            # (B, hkv, g, T, b)
        seen = torch.arange(s, min(s + block, L))[None, :] <= query_pos
        sc = sc.masked_fill(~seen, float("-inf"))
        block_max = sc.amax(dim=-1, keepdim=True)
        if running_max is None:
            new_max = block_max
        else:
            new_max = torch.maximum(running_max, block_max)
        safe_max = torch.where(torch.isfinite(new_max), new_max, torch.zeros_like(new_max))
        e = torch.exp(sc - safe_max)
        if running_max is None:
            total = e.sum(-1, keepdim=True)
            acc = e @ vb
        else:
            carry = torch.exp(running_max - safe_max)
            total = total * carry + e.sum(-1, keepdim=True)
            acc = acc * carry + e @ vb
        running_max = new_max
    out = (acc / total).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
