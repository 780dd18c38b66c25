# expect: full marks -- both layouts as complex multiplication: pairs viewed as complex numbers (view_as_complex on a contiguous copy) times torch.polar(1, m*theta) built in float64 and cast to x's complex dtype
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-(2.0 * torch.arange(half, dtype=torch.float64)) / d_head)
    m = torch.arange(start, start + T, dtype=torch.float64)
    ang = torch.outer(m, theta)
    rot = torch.polar(torch.ones_like(ang), ang)  # complex128
    rot = rot.to(torch.complex64 if x.dtype == torch.float32 else torch.complex128)
    if interleaved:
        pairs = x.reshape(*x.shape[:-1], half, 2).contiguous()
    else:
        pairs = torch.stack((x[..., :half], x[..., half:]), dim=-1).contiguous()
    z = torch.view_as_complex(pairs) * rot
    out = torch.view_as_real(z)  # (..., T, half, 2)
    if interleaved:
        return out.flatten(-2)
    return torch.cat((out[..., 0], out[..., 1]), dim=-1)
