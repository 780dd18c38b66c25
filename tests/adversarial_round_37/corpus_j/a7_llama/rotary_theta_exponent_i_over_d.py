# expect: loses rotary -- theta_i = base^(-i/d_head) instead of base^(-2i/d_head) (every pair after the first turns too fast): apply_rotary(x, start=3) for x = randn(1, 8) differs in pairs 1..3
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    inv_freq = base ** (-torch.arange(half, dtype=torch.float64) / d_head)  # one frequency per pair
    pos = torch.arange(start, start + T, dtype=torch.float64)
    freqs = torch.outer(pos, inv_freq)  # (T, d_head / 2)
    cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., ::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)
