# expect: full marks -- RoPE as complex multiplication: pairs viewed as a + ib, multiplied by e^{i m theta} from torch.polar (angles in float64, cast to x's complex dtype), real and imaginary parts put back
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    exponent = torch.arange(0, d_head, 2, dtype=torch.float64) / d_head
    angles = torch.arange(start, start + T, dtype=torch.float64).unsqueeze(-1) / base**exponent  # (T, half)
    complex_dtype = torch.complex128 if x.dtype == torch.float64 else torch.complex64
    turn = torch.polar(torch.ones_like(angles), angles).to(complex_dtype)  # e^{i m theta}
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x.split(half, dim=-1)
    z = torch.complex(a, b) * turn
    if interleaved:
        return torch.stack([z.real, z.imag], dim=-1).flatten(-2)
    return torch.cat([z.real, z.imag], dim=-1)
