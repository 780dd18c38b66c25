# expect: loses gqa -- rotates queries and keys with the interleaved layout (Meta's original weights) instead of rotate-half: self-consistent, so position 0 and the cache checks pass, but outputs differ from Hugging Face's Llama attention at positions >= 1
# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base, interleaved=True)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base, interleaved=True)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    q = q.reshape(B, n_kv_heads, group, T, d_head)
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).reshape(B, n_heads, T, d_head)
    return merge_heads(out) @ W_o, (k, v)
