# expect: loses rotary -- "Keep the function names and arguments" (the signature apply_rotary(x, start=0, base=10000.0, interleaved=False)): base is declared before start; every call that names start (the visible tests' start=m) or leaves both at their defaults is right, and so is the visible check that compares apply_rotary(x, 4, interleaved=True) with apply_rotary(x[..., half_order], 4), which reads 4 as the base on both sides; a positional call apply_rotary(q, P), as a cache step writes it, rotates positions 0 .. T - 1 with base P instead of positions P .. P + T - 1
# %% [rotary]
def apply_rotary(x, base=10000.0, start=0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = float(base) ** (-2.0 * torch.arange(half, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    a, b = (x[..., 0::2], x[..., 1::2]) if interleaved else (x[..., :half], x[..., half:])
    ra, rb = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([ra, rb], dim=-1).flatten(-2)
    return torch.cat([ra, rb], dim=-1)
