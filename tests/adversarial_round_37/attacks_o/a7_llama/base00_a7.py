# expect: full marks -- the answer key unchanged (baseline)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)  # (d_head / 2,)
    theta = 1.0 / base ** (2 * pair / d_head)
    positions = torch.arange(start, start + T, dtype=torch.float64)  # (T,)
    angles = positions[:, None] * theta[None, :]  # (T, d_head / 2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., T, d_head / 2) each
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)  # pairs back side by side
    return torch.cat([turned_a, turned_b], dim=-1)

# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return gain * x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)

# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down

# %% [gqa]
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
    return merge_heads(out) @ W_o, (k, v)

# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache

