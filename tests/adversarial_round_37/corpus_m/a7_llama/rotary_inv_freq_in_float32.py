# expect: loses rotary -- forms the angles in float64 as the spec asks, but from Hugging Face's inv_freq computed in float32 (1 / base ** (arange(0, d, 2).float() / d)) and only then cast to float64, so theta_i carries float32's relative error ~6e-8 and the angle m*theta_i is off by up to ~m*6e-8; breaks 'Form the angles m theta_i in float64' (float32 rounds an angle by up to 0.004 at m = 100,000); input: x = randn(1, 2, 64) float64, start = 100000 -> outputs differ from the key's by ~1e-3 (the visible tests use positions below 20)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d_head, 2).float() / d_head))  # Hugging Face's inv_freq
    theta = inv_freq.double()  # the angles below are formed in float64
    positions = torch.arange(start, start + T, dtype=torch.float64)  # (T,)
    angles = positions[:, None] * theta[None, :]  # (T, d_head / 2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., T, d_head / 2) each
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)  # pairs back side by side
    return torch.cat([turned_a, turned_b], dim=-1)
