# expect: full marks -- style: pairs as complex numbers built with torch.complex (no view_as_complex, so any strides), multiplied by torch.polar(1, m theta) with float64 angles cast to x's complex dtype, back with torch.view_as_real / real and imag
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    i = torch.arange(d_head // 2, dtype=torch.float64)
    theta = 1.0 / base ** (2 * i / d_head)
    m = torch.arange(start, start + T, dtype=torch.float64)
    turn = torch.polar(torch.ones(T, d_head // 2, dtype=torch.float64), m[:, None] * theta[None, :])
    cdtype = torch.complex64 if x.dtype == torch.float32 else torch.complex128
    turn = turn.to(cdtype)
    if interleaved:
        z = torch.complex(x[..., 0::2], x[..., 1::2]) * turn
        return torch.view_as_real(z).flatten(-2).to(x.dtype)
    z = torch.complex(x[..., : d_head // 2], x[..., d_head // 2 :]) * turn
    return torch.cat([z.real, z.imag], dim=-1).to(x.dtype)
