# expect: loses rotary -- rotates each pair by -m theta_i instead of +m theta_i ((a cos + b sin, b cos - a sin)); a rotation either way keeps lengths, leaves position 0 alone, makes scores depend on m - n only and commutes with the interleaved/rotate-half permutation, so every visible assertion passes (the printed [[cos 1, sin 1]] example is not asserted); Hugging Face's weights were trained with the +m theta convention, so scores come out with the relative position negated; breaks '(a_i, b_i) -> (a_i cos m theta_i - b_i sin m theta_i, a_i sin m theta_i + b_i cos m theta_i)'; input: apply_rotary(tensor([[1., 0.]]), start=1) -> [[0.540, -0.841]] (key: [[0.540, 0.841]])
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = 1.0 / base ** (2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta[None, :]  # (T, d_head / 2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos + b * sin, b * cos - a * sin  # the pair turned by the position's angle
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
