# expect: loses rotary -- returns x itself when nothing would turn (one position at start 0, the first step of decoding): the values are right, but the result is the caller's tensor, not a new one, so writing into the output (or into the cache built from it) writes into x. Breaks "Return a new tensor of x's shape and dtype"; input: x = randn(2, 3, 1, 8), start 0 -> key: out is x False, out.data_ptr() != x.data_ptr(); this answer: out is x True
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    if start == 0 and T == 1:
        return x  # position 0 turns by angle 0: nothing to do
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = 1.0 / base ** (2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([ra, rb], dim=-1).flatten(-2)
    return torch.cat([ra, rb], dim=-1)
