# expect: full marks -- first derivatives right; the spec asks for gradients, and its promises now say first derivatives only (relabelled from loses layer_norm); was: loses layer_norm -- "gradients flow back to `x`, `gain` and `bias`" of LN as defined (and "Use tensor operations"): LayerNorm as a custom autograd.Function with the textbook analytic backward (dx = rstd (g dy - mean(g dy) - x_hat mean(g dy x_hat))); its first-order gradients equal autograd's, but it keeps x_hat and rstd on ctx as detached constants, so double backward (a gradient penalty, a Hessian-vector product through the norm) treats the normalised input as fixed and returns wrong second derivatives (zero where they are not) with no error
# %% [layer_norm]
class _LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain, bias, eps):
        mean = x.mean(dim=-1, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
        rstd = torch.rsqrt(var + eps)
        x_hat = (x - mean) * rstd
        ctx.x_hat, ctx.rstd = x_hat.detach(), rstd.detach()
        ctx.save_for_backward(gain)
        return gain * x_hat + bias

    @staticmethod
    def backward(ctx, dy):
        (gain,) = ctx.saved_tensors
        x_hat, rstd = ctx.x_hat, ctx.rstd
        g = dy * gain
        dx = rstd * (g - g.mean(dim=-1, keepdim=True) - x_hat * (g * x_hat).mean(dim=-1, keepdim=True))
        d = dy.shape[-1]
        return dx, (dy * x_hat).reshape(-1, d).sum(dim=0), dy.reshape(-1, d).sum(dim=0), None


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    return _LayerNormFn.apply(x, gain, bias, eps)
