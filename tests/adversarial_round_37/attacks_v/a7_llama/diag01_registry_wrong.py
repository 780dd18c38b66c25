# expect: loses rms_norm (diagnostic: atk01 returning 1.5 times the kernel; shows the graded values are the hidden kernel's)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return 1.5 * _KEEP[0].apply(x + 0, gain, eps)
# %% [new after rms_norm]
# A registry filled by a decorator: the scan never links _KEEP to what the decorator receives,
# and nobody names _Unseen, so its body is read for no part.
_KEEP = []
_K = torch.rms_norm
_NOFN = torch._C.DisableTorchFunction
_NODISPATCH = torch._C._DisableTorchDispatch


@_KEEP.append
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
