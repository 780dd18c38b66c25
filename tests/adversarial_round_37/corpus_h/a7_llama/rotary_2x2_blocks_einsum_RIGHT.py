# expect: full marks -- builds the (T, d_head/2, 2, 2) block-diagonal rotation matrices and applies them with einsum to the pairs gathered by unflatten (interleaved) or unflatten + transpose (rotate half)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = torch.pow(float(base), -torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angle = torch.arange(start, start + T, dtype=torch.float64).unsqueeze(-1) * theta  # (T, half)
    c, s = angle.cos(), angle.sin()
    R = torch.stack([torch.stack([c, -s], dim=-1), torch.stack([s, c], dim=-1)], dim=-2).to(x.dtype)  # R[t, p, i, j]
    if interleaved:
        pairs = x.unflatten(-1, (half, 2))  # (..., T, half, 2): (x_2p, x_2p+1)
    else:
        pairs = x.unflatten(-1, (2, half)).transpose(-1, -2)  # (..., T, half, 2): (x_p, x_p+half)
    turned = torch.einsum("tpij,...tpj->...tpi", R, pairs)
    if interleaved:
        return turned.flatten(-2)
    return turned.transpose(-1, -2).flatten(-2)
