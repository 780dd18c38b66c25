# expect: loses rotary -- turns each pair by -m*theta_i ((a cos + b sin, -a sin + b cos)) instead of the spec's (a cos - b sin, a sin + b cos): lengths are kept and scores still depend only on m - n, but every rotated row differs (e.g. apply_rotary(tensor([[1., 0.]]), start=1) gives [cos 1, -sin 1], not [cos 1, sin 1])
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = 1.0 / base ** (torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    turned_a = a * cos + b * sin  # the rotation matrix [[cos, sin], [-sin, cos]]
    turned_b = b * cos - a * sin
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
