# expect: full marks -- each pair as one complex number (torch.complex of the pair in float64) multiplied by torch.polar(1, m theta) with theta = 1 / base ** (2i/d) in float64, the real and imaginary parts cast back to x's dtype and put back by cat or stack
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = 1.0 / float(base) ** (2 * torch.arange(half, dtype=torch.float64) / d_head)  # float64
    angles = (torch.arange(T, dtype=torch.float64) + start)[:, None] * theta  # (T, half), float64
    turn = torch.polar(torch.ones_like(angles), angles)  # e^{i m theta}
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    z = torch.complex(a.double(), b.double()) * turn
    turned_a, turned_b = z.real.to(x.dtype), z.imag.to(x.dtype)
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
