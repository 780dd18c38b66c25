# expect: loses rotary — memoises the cos/sin tables in a module-level dict keyed by (start, T, d_head, dtype) but not by base, so after one call with the default base a call with another base reuses the stale table (state kept between calls); the visible tests use the default base only; input: apply_rotary(x, 3) then apply_rotary(x, 3, base=500000) with x = randn(2, 5, 8) -> the second differs from the key's (max abs diff ~1)
# %% [rotary]
_TABLES = {}


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    key = (start, T, d_head, x.dtype)
    if key not in _TABLES:
        theta = base ** (-2 * torch.arange(d_head // 2, dtype=torch.float64) / d_head)
        angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
        _TABLES[key] = (angles.cos().to(x.dtype), angles.sin().to(x.dtype))
    cos, sin = _TABLES[key]
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
