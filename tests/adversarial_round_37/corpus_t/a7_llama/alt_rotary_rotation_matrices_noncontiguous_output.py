# expect: full marks -- each pair turned by its 2 x 2 rotation matrix [[cos, -sin], [sin, cos]] (built in float64, cast to x's dtype) with einsum over stacked (a, b) pairs, and the result written into a fresh buffer allocated features-first (so the new tensor returned is not contiguous: the spec asks for a new tensor of x's shape and dtype, not a layout)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = 1.0 / torch.pow(torch.tensor(float(base), dtype=torch.float64), torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.int64).to(torch.float64)[:, None] * theta  # (T, half)
    c, s = angles.cos(), angles.sin()
    rotation = torch.stack([torch.stack([c, -s], dim=-1), torch.stack([s, c], dim=-1)], dim=-2).to(x.dtype)  # (T, half, 2, 2)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :half], x[..., half:]
    pairs = torch.stack([a, b], dim=-1)  # (..., T, half, 2)
    turned = torch.einsum("tpij,...tpj->...tpi", rotation, pairs)  # (..., T, half, 2)
    out = torch.empty((d_head,) + tuple(x.shape[:-1]), dtype=x.dtype).movedim(0, -1)  # features outermost in memory
    if interleaved:
        out[..., 0::2], out[..., 1::2] = turned[..., 0], turned[..., 1]
    else:
        out[..., :half], out[..., half:] = turned[..., 0], turned[..., 1]
    return out
