# expect: loses rotary -- the angles are formed in float64 but their cos and sin are cast with .float() ("the model's dtype") instead of to x's dtype: for float32 inputs this is exactly right (all the visible tests, including parts 4 and 5 that call it), for float64 inputs the output is still float64 (type promotion) but carries float32's ~6e-8 error in every rotation; breaks "Form the angles m theta_i in float64 and cast their cos and sin to x's dtype" with "float32 and float64 inputs"; input: apply_rotary(torch.randn(5, 8, dtype=torch.float64), start=3) -> differs from the float64 rotation by ~1e-7 (spec: float64 precision, ~1e-16)
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    half = d_head // 2
    theta = base ** (-2.0 * torch.arange(half, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta[None, :]
    cos, sin = angles.cos().float(), angles.sin().float()  # back to the model's dtype
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
