# expect: loses rotary -- rotates every pair by -m*theta (the sin terms' signs swapped): norms, relative scores and layouts all still check out, but apply_rotary(tensor([[1., 0.]]), start=1) gives [cos 1, -sin 1] instead of [cos 1, sin 1]
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2:]
    inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    freqs = torch.outer(torch.arange(start, start + T, dtype=torch.float64), inv_freq)
    cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., ::2], x[..., 1::2]
    else:
        a, b = x.chunk(2, dim=-1)
    ra, rb = a * cos + b * sin, b * cos - a * sin
    if interleaved:
        return torch.stack([ra, rb], dim=-1).reshape(x.shape)
    return torch.cat([ra, rb], dim=-1)
