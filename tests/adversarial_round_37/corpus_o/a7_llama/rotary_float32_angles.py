# expect: loses rotary — forms the angles m * theta_i in float32 (positions and frequencies as float32 tensors, as Hugging Face's code does), where the spec says 'Form the angles in float64 and cast their cos and sin to x's dtype: float32 rounds an angle by up to 0.004 at m = 100,000'; invisible at the visible tests' small positions; input: x = randn(1, 4, 64) float64, start = 100000 -> outputs differ from the key's by ~2.6e-3 (at start 5: 4e-7)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    pos = torch.arange(start, start + T, dtype=torch.float32)
    ang = torch.outer(pos, inv_freq)
    cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
