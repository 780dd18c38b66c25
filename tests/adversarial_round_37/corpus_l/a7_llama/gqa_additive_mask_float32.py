# expect: loses gqa -- Hugging Face-style additive causal mask, (~allowed).float() * torch.finfo(x.dtype).min: the mask tensor is float32, so for float64 inputs the Python scalar finfo(float64).min overflows to -inf in float32 and the allowed positions get 0 * -inf = NaN; right in float32 (all the visible tests); breaks "float32 and float64 inputs, floating outputs in the inputs' dtype" with "causal scaled dot-product attention"; input: the visible setting in float64 (x, W_* .double()) -> out is all NaN (spec: finite, equal to the float32 result to ~1e-6)
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    bias = (~allowed).float() * torch.finfo(x.dtype).min  # 0 where allowed, very negative elsewhere
    scores = q @ k.repeat_interleave(group, dim=1).transpose(-2, -1) / math.sqrt(d_head) + bias
    out = torch.softmax(scores, dim=-1) @ v.repeat_interleave(group, dim=1)
    return merge_heads(out) @ W_o, (k, v)
