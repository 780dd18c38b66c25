# expect: loses gqa -- a static KV cache: the returned (k, v) are views of a preallocated buffer, and a later call given such a view appends into the buffer in place, so two continuations of one prefix overwrite each other (the first branch's cache changes under it); "it changes none of its arguments in place" and keeps none of the tensors it returns; x randn(2, 6, 16), h 4, h_kv 2, prefix x[:, :4], then two calls with one new position each on the prefix's cache: the first branch's keys change by 2.47 (key 0.0), and its next step's output differs from the key's by 0.97; whole-sequence, linear step-by-step and gradients: equal
# %% [gqa]
_BUFFERS = {}  # id of a cache buffer -> the buffer: a returned cache is a view of its first P + T rows


def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k_new = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v_new = split_heads(x @ W_v, n_kv_heads)
    bufs = None
    if cache is not None:  # our own cache, with room left: append in place, as a static KV cache does
        bases = [_BUFFERS.get(id(c._base)) if c._base is not None else None for c in cache]
        if all(b is not None and b is c._base and b.shape[2] >= P + T and c.data_ptr() == b.data_ptr() for b, c in zip(bases, cache)):
            bufs = bases
    if bufs is None:  # a new buffer with room to grow
        capacity = max(2 * (P + T), 64)
        bufs = [torch.zeros(B, n_kv_heads, capacity, d_head, dtype=x.dtype) for _ in range(2)]
        for b in bufs:
            _BUFFERS[id(b)] = b
        if cache is not None:
            bufs[0][:, :, :P] = cache[0]
            bufs[1][:, :, :P] = cache[1]
    bufs[0][:, :, P : P + T] = k_new
    bufs[1][:, :, P : P + T] = v_new
    k, v = bufs[0][:, :, : P + T], bufs[1][:, :, : P + T]
    qg = q.reshape(B, n_kv_heads, group, T, d_head)
    scores = qg @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
