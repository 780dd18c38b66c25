# expect: full marks -- style: the cache is kept time-major in memory, (B, P + T, n_kv_heads, d_head), and returned as its transposed views (right shape and values, non-contiguous); attention by einsum over a (B, n_kv_heads, group) view of the queries, the causal mask from absolute positions
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head = d // n_heads
    group = n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)       # (B, h, T, dh)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)  # (B, hkv, T, dh)
    v_new = split_heads(x @ W_v, n_kv_heads)
    # time-major storage: (B, time, hkv, dh)
    k_tm, v_tm = k_new.transpose(1, 2), v_new.transpose(1, 2)
    if cache is not None:
        k_tm = torch.cat([cache[0].transpose(1, 2), k_tm], dim=1)
        v_tm = torch.cat([cache[1].transpose(1, 2), v_tm], dim=1)
    else:
        k_tm, v_tm = k_tm.contiguous(), v_tm.contiguous()
    qg = q.reshape(B, n_kv_heads, group, T, d_head)
    scores = torch.einsum("bkgtd,bskd->bkgts", qg, k_tm) * (1.0 / math.sqrt(d_head))
    key_pos = torch.arange(P + T)
    query_pos = torch.arange(P, P + T)
    scores = scores.masked_fill(key_pos[None, :] > query_pos[:, None], float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    out = torch.einsum("bkgts,bskd->bkgtd", weights, v_tm).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k_tm.transpose(1, 2), v_tm.transpose(1, 2))
