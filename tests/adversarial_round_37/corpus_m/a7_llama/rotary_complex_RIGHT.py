# expect: full marks -- builds e^{i m theta} from float64 angles (cos/sin cast to x's dtype), pairs (a_i, b_i) as torch.complex(a, b) in either layout, multiplies, and writes real and imaginary parts back where the pair came from: the key's rotation exactly up to a rounding of the complex product, any leading dims, start, int base, float32/float64, gradients to x
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    positions = torch.arange(start, start + T, dtype=torch.float64)
    theta = 1.0 / base ** (2 * torch.arange(half, dtype=torch.float64) / d_head)
    angles = positions[:, None] * theta  # (T, d_head / 2), float64
    turn = torch.complex(angles.cos().to(x.dtype), angles.sin().to(x.dtype))  # e^{i m theta_i}
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    z = torch.complex(a, b) * turn  # each pair turned by its angle
    if interleaved:
        return torch.stack([z.real, z.imag], dim=-1).flatten(-2)
    return torch.cat([z.real, z.imag], dim=-1)
