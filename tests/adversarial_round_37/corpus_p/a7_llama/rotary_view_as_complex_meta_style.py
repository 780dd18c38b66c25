# expect: loses rotary -- for the interleaved layout it follows Meta's reference code, torch.view_as_complex(x.reshape(..., d_head / 2, 2)), which needs the pair axis at stride 1 and every other stride even; on a transposed x or a slice of odd-width rows the reshape is a view that breaks this, and view_as_complex raises ("Tensor must have a last dimension with stride 1" / "stride divisible by 2"). Breaks "its tensor arguments may be any tensors of the shapes its part gives, contiguous or not (a slice, a transpose)"; input: x = torch.randn(2, 8, 5).transpose(-1, -2) (T = 5, d_head = 8), start = 3, interleaved = True -> key returns a (2, 5, 8) tensor, this answer raises RuntimeError; x = torch.randn(2, 5, 9)[..., :8] likewise
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = base ** (-2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    complex_dtype = torch.complex64 if x.dtype == torch.float32 else torch.complex128
    turn = torch.polar(torch.ones_like(angles), angles).to(complex_dtype)  # e^{i m theta}, (T, d_head / 2)
    if interleaved:  # Meta's layout: (x_2i, x_2i+1) are the real and imaginary parts
        xc = torch.view_as_complex(x.reshape(*x.shape[:-1], d_head // 2, 2))
        return torch.view_as_real(xc * turn).flatten(-2)
    a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    z = torch.complex(a, b) * turn
    return torch.cat([z.real, z.imag], dim=-1)
