# expect: loses rotary  -- the positions are made with torch.arange(start, start + T, dtype=x.dtype) (to match x) and only then cast to float64 for the angles, so for float32 x every position past 2**24 is rounded to a float32 (16,777,217 becomes 16,777,216, and consecutive rows share positions); part 1 says start may be any non-negative integer and the angles m theta are formed in float64; x randn(3, 8) float32, start 2**24 + 1: pair 0 of row 0 is turned by 1 radian less than the key's (torch.manual_seed(0): max abs diff 1.17); float64 x, or start + T <= 2**24: equal
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    positions = torch.arange(start, start + T, dtype=x.dtype, device=x.device)  # (T,)
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = base ** (-2 * pair / d_head)  # (d_head / 2,), float64
    angles = positions.to(torch.float64)[:, None] * theta[None, :]  # the angles in float64
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
