# expect: loses block -- writes the block's attention inline and gives every query head its key/value head with k.repeat(1, g, 1, 1), which TILES the heads (query head j uses key/value head j mod n_kv_heads) instead of grouping them consecutively (j // g); the two coincide when n_kv_heads is 1 or n_heads, and the visible block test uses n_kv_heads = 1; breaks part 4's 'query heads are shared out in consecutive groups of g = n_heads // n_kv_heads: query head j attends with key/value head floor(j / g)' (part 5: 'GQA with rotary positions'); input: d = 16, n_heads = 4, n_kv_heads = 2, random p, x = randn(1, 6, 16) -> output differs from the key's by ~2.6 (with n_kv_heads = 1: identical)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    B, T, d = x.shape
    d_head = d // n_heads
    P = 0 if cache is None else cache[0].shape[2]
    h = rms_norm(x, p["attn_norm"], eps)
    q = apply_rotary(split_heads(h @ p["W_q"], n_heads), start=P, base=base)
    k = apply_rotary(split_heads(h @ p["W_k"], n_kv_heads), start=P, base=base)
    v = split_heads(h @ p["W_v"], n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    g = n_heads // n_kv_heads
    keys, values = k.repeat(1, g, 1, 1), v.repeat(1, g, 1, 1)  # a key/value head for every query head
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    attended = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ values
    hidden = x + merge_heads(attended) @ p["W_o"]
    return hidden + swiglu(rms_norm(hidden, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), (k, v)
