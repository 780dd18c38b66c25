# expect: loses rotary -- grows one module-level cos/sin table per (d_head, base) as longer sequences come, and keeps it in the dtype of the first call that built it: after a float32 call, a float64 call reuses float32 cos/sin (cast up), so its float64 output has float32's error (about 1e-7 relative). Breaks "float32 and float64 inputs, floating outputs in the inputs' dtype and at its precision" and "Form the angles in float64 and cast their cos and sin to x's dtype"; input: apply_rotary(torch.randn(1, 4, 64), start=0) first, then x = torch.randn(3, 50, 64, dtype=float64), start=10 -> key vs this answer max abs diff 1.2e-7 (key vs a complex128 reference 2.2e-16)
# %% [rotary]
_TABLES = {}  # (d_head, base) -> (cos, sin) for positions 0 .. n - 1, grown on demand


def _table(n, d_head, base, dtype):
    key = (d_head, float(base))
    if key not in _TABLES or _TABLES[key][0].shape[0] < n:
        size = max(n, 2 * _TABLES[key][0].shape[0] if key in _TABLES else 256)
        pair = torch.arange(d_head // 2, dtype=torch.float64)
        theta = 1.0 / float(base) ** (2 * pair / d_head)
        angles = torch.arange(size, dtype=torch.float64)[:, None] * theta[None, :]
        _TABLES[key] = (angles.cos().to(dtype), angles.sin().to(dtype))
    return _TABLES[key]


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    cos_t, sin_t = _table(start + T, d_head, base, x.dtype)
    cos, sin = cos_t[start : start + T].to(x.dtype), sin_t[start : start + T].to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([ra, rb], dim=-1).flatten(-2)
    return torch.cat([ra, rb], dim=-1)
