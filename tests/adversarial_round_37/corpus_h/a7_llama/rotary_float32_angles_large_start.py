# expect: loses rotary (subtle) -- Hugging Face's recipe: inv_freq and positions in float32, so the angles m*theta_i are rounded to float32: outputs off by ~6e-5 at start=1000 and ~4e-3 at start=1e5 (float32 x), and float64 x gets only float32-accurate angles (~1e-7 off already at m ~ 10); the key forms the angles in float64. e.g. x = randn(2, 4, 64), start=1000 or 100000
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d_head, 2, dtype=torch.int64).float() / d_head))  # as LlamaRotaryEmbedding
    position_ids = torch.arange(start, start + T).float()
    freqs = torch.outer(position_ids, inv_freq)  # (T, d_head / 2), float32
    emb = torch.cat((freqs, freqs), dim=-1)  # (T, d_head)
    cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)

    def rotate_half(t):
        t1, t2 = t[..., : d_head // 2], t[..., d_head // 2 :]
        return torch.cat((-t2, t1), dim=-1)

    if not interleaved:
        return x * cos + rotate_half(x) * sin
    order = torch.cat([torch.arange(0, d_head, 2), torch.arange(1, d_head, 2)])  # interleaved -> halves
    y = x[..., order]
    y = y * cos + rotate_half(y) * sin
    return y[..., torch.argsort(order)]
