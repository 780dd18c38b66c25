# expect: loses rotary -- the base argument is never read (10000 hard-coded in theta); the visible tests never pass base; differs for any base != 10000 at positions >= 1 with d_head >= 4, e.g. apply_rotary(randn(3, 8), base=500000.0) (Llama 3's base)
# %% [rotary]
ROPE_THETA = 10000.0  # Llama's rotary base


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = ROPE_THETA ** (-2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    out_a, out_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([out_a, out_b], dim=-1).flatten(-2)
    return torch.cat([out_a, out_b], dim=-1)
