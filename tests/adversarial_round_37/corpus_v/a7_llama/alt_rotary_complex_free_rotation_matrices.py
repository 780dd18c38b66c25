# expect: full marks -- the rotation applied as 2 x 2 matrices: pairs gathered into (..., T, d_head/2, 2) (by an index permutation for rotate-half), multiplied by a float64-built (T, d_head/2, 2, 2) table of [[cos, -sin], [sin, cos]] cast to x's dtype via einsum, scattered back by the inverse permutation
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2], x.shape[-1]
    half = d // 2
    i = torch.arange(half, dtype=torch.float64)
    angle = torch.arange(start, start + T, dtype=torch.float64)[:, None] * (float(base) ** (-2.0 * i / d))[None, :]
    c, s = angle.cos(), angle.sin()
    rot = torch.stack([torch.stack([c, -s], -1), torch.stack([s, c], -1)], -2).to(x.dtype)  # (T, half, 2, 2)
    if interleaved:
        perm = torch.arange(d)
    else:
        perm = torch.stack([torch.arange(half), torch.arange(half, d)], -1).reshape(-1)  # a_0, b_0, a_1, b_1, ...
    pairs = x[..., perm].unflatten(-1, (half, 2))
    turned = torch.einsum("tpij,...tpj->...tpi", rot, pairs).flatten(-2)
    return turned[..., torch.argsort(perm)]
