# expect: loses rotary -- the positions are made with torch.linspace(start, start + T, T), whose end point is included: the T values run from start to start + T in steps of T / (T - 1) instead of 1, so only the first row (and any T = 1 call) is at the right position; the visible tests check row 0 at start 0, lengths, T = 1 calls at other starts, and the two layouts against each other; breaks "The rows of x along axis -2 are the positions start, start + 1, ..., start + T - 1"; input: apply_rotary(torch.tensor([[1.0, 0.0]] * 4)) -> rows turned by 0, 1.33, 2.67, 4 radians (spec: 0, 1, 2, 3)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-2.0 * torch.arange(half, dtype=torch.float64) / d_head)
    positions = torch.linspace(start, start + T, T, dtype=torch.float64)
    angles = positions[:, None] * theta[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
