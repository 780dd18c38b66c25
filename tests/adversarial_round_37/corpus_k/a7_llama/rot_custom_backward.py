# expect: loses rotary -- a custom autograd.Function whose backward rotates the incoming gradient by +m*theta like the forward, but the gradient of a rotation is the transposed rotation (by -m*theta): forward exact, d(out)/dx wrong at every position m > 0 (e.g. x (2, 5, 8) requires_grad, loss = (apply_rotary(x, 3) * w).sum())
# %% [rotary]
def _rotate(x, cos, sin, interleaved):
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)


class _Rotary(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cos, sin, interleaved):
        ctx.save_for_backward(cos, sin)
        ctx.interleaved = interleaved
        return _rotate(x, cos, sin, interleaved)

    @staticmethod
    def backward(ctx, grad):
        cos, sin = ctx.saved_tensors
        return _rotate(grad, cos, sin, ctx.interleaved), None, None, None  # a rotation is linear


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    theta = 1.0 / base ** (torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    return _Rotary.apply(x, angles.cos().to(x.dtype), angles.sin().to(x.dtype), interleaved)
