# expect: loses rotary (subtle) -- a module-level cos/sin table of 4096 positions (Llama 2's context) sliced as table[start:start + T]: right up to position 4095, but for start + T > 4096 the slice is short: start=5000, T=1 silently returns an empty (..., 0, d_head) tensor, start=4094, T=4 raises a broadcast error; the spec allows any non-negative start
# %% [rotary]
MAX_POSITIONS = 4096  # Llama 2's context length
_TABLES = {}  # (d_head, base) -> (cos, sin), each (MAX_POSITIONS, d_head / 2) float64


def _rotary_table(d_head, base):
    if (d_head, base) not in _TABLES:
        theta = 1.0 / base ** (torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
        angles = torch.arange(MAX_POSITIONS, dtype=torch.float64)[:, None] * theta
        _TABLES[(d_head, base)] = (angles.cos(), angles.sin())
    return _TABLES[(d_head, base)]


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    cos, sin = _rotary_table(d_head, base)
    cos, sin = cos[start : start + T].to(x.dtype), sin[start : start + T].to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    a2, b2 = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([a2, b2], dim=-1).flatten(-2)
    return torch.cat([a2, b2], dim=-1)
