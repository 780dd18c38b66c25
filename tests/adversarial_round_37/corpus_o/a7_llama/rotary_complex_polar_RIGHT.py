# expect: full marks — rotary: the pairs read as complex numbers (view_as_complex of a float64 copy, after a permutation for the rotate-half layout), multiplied by torch.polar(1, m theta) formed in float64, read back with view_as_real and cast to x's dtype
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2], x.shape[-1]
    half = d // 2
    theta = torch.pow(torch.tensor(float(base), dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    turn = torch.polar(torch.ones_like(angles), angles)  # e^{i m theta}
    x64 = x.to(torch.float64)
    if interleaved:
        pairs = x64.unflatten(-1, (half, 2))
    else:
        pairs = torch.stack([x64[..., :half], x64[..., half:]], dim=-1)
    rotated = torch.view_as_real(torch.view_as_complex(pairs.contiguous()) * turn)
    if interleaved:
        out = rotated.flatten(-2)
    else:
        out = torch.cat([rotated[..., 0], rotated[..., 1]], dim=-1)
    return out.to(x.dtype)
