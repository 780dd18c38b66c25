# expect: loses rotary -- the frequencies come from `torch.arange(0, d_head, 2) / d_head`, an integer tensor divided by an int, which torch makes float32 (the default dtype); the positions are float64 but theta is float32, so the angles m*theta carry float32's error; "Form the angles m theta_i in float64"; x randn(1,4,64) float64, start 100000: key vs a float64 reference 1e-15 (up to cos/sin at angle 1e5), this answer 1.7e-3 off
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d_head, 2) / d_head))  # (d_head / 2,)
    positions = torch.arange(start, start + T, dtype=torch.float64)
    angles = torch.outer(positions, inv_freq)  # float64 angles
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    half = d_head // 2
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
