# expect: loses rotary -- each pair is turned by -m theta (a cos + b sin, -a sin + b cos); norms and the relative-position property survive, but apply_rotary(torch.tensor([[1., 0.]]), start=1) gives [[cos 1, -sin 1]] instead of [[cos 1, sin 1]]
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2:]
    half = d_head // 2
    theta = base ** (-2 * torch.arange(half, dtype=torch.float64) / d_head)
    angle = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = torch.cos(angle).to(x.dtype), torch.sin(angle).to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    ra = a * cos + b * sin
    rb = b * cos - a * sin
    if interleaved:
        return torch.stack([ra, rb], dim=-1).reshape(x.shape)
    return torch.cat([ra, rb], dim=-1)
