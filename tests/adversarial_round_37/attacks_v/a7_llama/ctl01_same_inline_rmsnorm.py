# expect: loses rms_norm (uses torch.rms_norm with the modes switched off; the same code as atk01, named directly: held)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return _Unseen.apply(x + 0, gain, eps)
# %% [new after rms_norm]
_K = torch.rms_norm
_NOFN = torch._C.DisableTorchFunction
_NODISPATCH = torch._C._DisableTorchDispatch


class _Unseen(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, g, eps):
        ctx.save_for_backward(x, g)
        ctx.eps = eps
        with _NOFN(), _NODISPATCH():
            return _K(x, x.shape[-1:], g, eps)

    @staticmethod
    def backward(ctx, go):
        x, g = ctx.saved_tensors
        with torch.enable_grad(), _NOFN(), _NODISPATCH():
            x2, g2 = x.detach().requires_grad_(), g.detach().requires_grad_()
            return (*torch.autograd.grad(_K(x2, x2.shape[-1:], g2, ctx.eps), (x2, g2), go), None)
