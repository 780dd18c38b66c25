# expect: loses rotary -- positions and frequencies multiplied in float32 (as Hugging Face does), against "Form the angles m*theta_i in float64 and cast their cos and sin": at large positions the angle is off by up to ~0.004 rad (e.g. start=100000, float64 x: errors ~1e-3, far above float64 precision)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    inv_freq = 1.0 / (base ** (torch.arange(0, d_head, 2, dtype=torch.int64).float() / d_head))
    positions = torch.arange(start, start + T).float()
    angles = torch.outer(positions, inv_freq)  # (T, d_head / 2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
