# expect: loses rotary -- wraps the rotation in a torch.autograd.Function ('saves the memory of the intermediate products') whose backward turns the incoming gradient by the SAME angle as the forward ('a rotation's backward is a rotation too'), instead of by the opposite angle (the transpose of a rotation is its inverse); values are exact and the visible tests check no gradient; breaks the hidden-tests line 'gradients flow back to x' (the true gradient); input: x = randn(2, 3, 5, 8), start = 3, random cotangent -> x.grad differs from the key's by ~5 (equal only at position 0)
# %% [rotary]
class _Turn(torch.autograd.Function):
    """(a, b) -> (a cos - b sin, a sin + b cos), with a hand-written backward."""

    @staticmethod
    def forward(ctx, a, b, cos, sin):
        ctx.save_for_backward(cos, sin)
        return a * cos - b * sin, a * sin + b * cos

    @staticmethod
    def backward(ctx, grad_a, grad_b):
        cos, sin = ctx.saved_tensors
        # the gradient of a rotation is a rotation too
        return grad_a * cos - grad_b * sin, grad_a * sin + grad_b * cos, None, None


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = 1.0 / base ** (2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = _Turn.apply(a, b, cos, sin)
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)
    return torch.cat([turned_a, turned_b], dim=-1)
