# expect: full marks -- style: a (T, d_head/2, 2, 2) stack of rotation matrices built from float64 angles and cast, applied to the (a, b) pairs by einsum; the pairs gathered by unflatten (interleaved) or by stacking the two halves (rotate half)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = 1.0 / base ** (2 * torch.arange(half, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta  # (T, half)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    rotation = torch.stack([torch.stack([cos, -sin], dim=-1), torch.stack([sin, cos], dim=-1)], dim=-2)  # (T, half, 2, 2)
    if interleaved:
        pairs = x.unflatten(-1, (half, 2))  # (..., T, half, 2)
    else:
        pairs = torch.stack([x[..., :half], x[..., half:]], dim=-1)
    turned = torch.einsum("tpij,...tpj->...tpi", rotation, pairs)
    if interleaved:
        return turned.flatten(-2)
    return torch.cat([turned[..., 0], turned[..., 1]], dim=-1)
