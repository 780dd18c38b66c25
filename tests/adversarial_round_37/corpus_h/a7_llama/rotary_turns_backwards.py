# expect: loses rotary -- turns each pair by -m*theta_i (the sin terms' signs swapped: (a cos + b sin, -a sin + b cos)); every visible assert is invariant under the direction (only the printed [[cos 1, sin 1]] shows it); differs for any position >= 1, e.g. apply_rotary([[1., 0.]], start=1) = [[cos 1, -sin 1]]
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    i = torch.arange(0, d_head, 2, dtype=torch.float64)
    inv_freq = base ** (-i / d_head)
    m = torch.arange(start, start + T, dtype=torch.float64)
    angles = torch.outer(m, inv_freq)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., ::2], x[..., 1::2]
    else:
        a, b = x.chunk(2, dim=-1)
    # the rotation matrix [[cos, sin], [-sin, cos]] applied to (a, b)
    ra = a * cos + b * sin
    rb = -a * sin + b * cos
    if interleaved:
        return torch.stack([ra, rb], dim=-1).reshape(x.shape)
    return torch.cat([ra, rb], dim=-1)
