# expect: loses rotary -- caches the cos/sin table keyed by (start, T, d_head), ignoring base: after apply_rotary(x), apply_rotary(x, base=500000.0) (same shape) reuses the base-10000 table; the visible tests never change base
# %% [rotary]
_TABLES = {}  # (start, T, d_head) -> (cos, sin) in float64


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    key = (start, T, d_head)
    if key not in _TABLES:
        theta = base ** (-2 * torch.arange(d_head // 2, dtype=torch.float64) / d_head)
        angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
        _TABLES[key] = (angles.cos(), angles.sin())
    cos, sin = (t.to(x.dtype) for t in _TABLES[key])
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
