# expect: loses rotary -- "the row at position m turns pair i by the angle m theta_i, with theta_i = base^(-2i/d_head)": the exponent here is i/d_head (the pair index without its factor 2), so every pair but the first turns at the wrong frequency; the visible tests use d_head = 2 for the one value they check (pair 0, where both give theta = 1) and otherwise only properties every frequency has (norms, relative positions, the two layouts agreeing)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    i = torch.arange(d_head // 2, dtype=torch.float64)
    theta = base ** (-i / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
