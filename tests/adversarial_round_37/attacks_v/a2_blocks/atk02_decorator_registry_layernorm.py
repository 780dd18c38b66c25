# expect: loses layer_norm (uses torch.layer_norm, with torch's function and dispatch modes switched off)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    return _KEEP[0].apply(x + 0, gain, bias, eps)
# %% [new after layer_norm]
# The class is handed to _KEEP.append by its decorator when the cell runs; no code names _Fn, so the
# scan reads its body for no part (a cell the student added belongs to no part).
_KEEP = []
_K = [torch.layer_norm]  # in a list: the guard swaps only the namespace's own names
_NOFN = torch._C.DisableTorchFunction
_NODISPATCH = torch._C._DisableTorchDispatch


@_KEEP.append
class _Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain, bias, eps):
        ctx.save_for_backward(x, gain, bias)
        ctx.eps = eps
        with _NOFN(), _NODISPATCH():
            return _K[0](x, x.shape[-1:], gain, bias, eps)

    @staticmethod
    def backward(ctx, g):
        x, gain, bias = ctx.saved_tensors
        with torch.enable_grad(), _NOFN(), _NODISPATCH():
            x2, g2, b2 = (t.detach().requires_grad_() for t in (x, gain, bias))
            return (*torch.autograd.grad(_K[0](x2, x2.shape[-1:], g2, b2, ctx.eps), (x2, g2, b2), g), None)
