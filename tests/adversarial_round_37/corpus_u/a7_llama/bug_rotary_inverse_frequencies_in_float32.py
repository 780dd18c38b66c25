# expect: loses rotary (the inverse frequencies theta_i formed in float32, Hugging Face's inv_freq, and only their product with the positions in float64: theta's rounding is multiplied by m: x randn(1, 4, 64) float64: the answer differs from the key by 1.6e-5 at start 1,000, 1.7e-3 at start 100,000 and 0.28 at start 2**24 + 1; start 0 agrees to 5e-8)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d_head, 2).float() / d_head))  # (d_head / 2,), as Hugging Face builds it
    positions = torch.arange(start, start + T, dtype=torch.float64)
    angles = positions[:, None] * inv_freq.double()[None, :]  # the angles in float64
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
