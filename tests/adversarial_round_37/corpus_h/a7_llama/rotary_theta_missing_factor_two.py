# expect: loses rotary -- theta_i = base^(-i/d_head), the exponent's factor 2 dropped: pairs i >= 1 turn at the wrong frequency (passes every visible check, which are all self-consistency or d_head = 2); differs from the key for d_head >= 4 at any position >= 1, e.g. x = randn(1, 4, 8), start=0
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-torch.arange(half, dtype=torch.float64) / d_head)  # theta_i = base^(-i/d)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta  # (T, half)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    new_a, new_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack((new_a, new_b), dim=-1).flatten(-2)
    return torch.cat((new_a, new_b), dim=-1)
