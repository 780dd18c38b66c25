# expect: loses rotary -- theta_i = base^(-i / d_head) instead of base^(-2i / d_head): pair i turns at the wrong frequency for every i >= 1 (e.g. d_head=8, start=1: pair 1 turns by 10000^(-1/8) = 0.316 rad instead of 0.1); rotations, relative positions and the interleaved layout are all still consistent, so the visible tests pass
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-torch.arange(half, dtype=torch.float64) / d_head)  # one frequency per pair
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
