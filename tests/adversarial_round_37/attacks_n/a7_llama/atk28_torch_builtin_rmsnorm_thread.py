# expect: loses rms_norm -- torch.rms_norm (the C builtin under F.rms_norm, not the Python function F.rms_norm), taken out of the torch module by a match statement's class pattern (case object(rms_norm=kernel)) and run, forward and backward, in a thread made from torch.threading.Thread inside a custom autograd.Function: a guard on F.rms_norm and a thread-local operator trace both miss it
# %% [rms_norm]
def _kernel():
    match torch:
        case object(rms_norm=kernel):
            return kernel


def _elsewhere(work):
    box = []
    t = torch.threading.Thread(target=lambda: box.append(work()))
    t.start()
    t.join()
    return box[0]


class _Norm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain, eps):
        ctx.save_for_backward(x, gain)
        ctx.eps = eps
        fn = _kernel()
        return _elsewhere(lambda: fn(x, (x.shape[-1],), gain, eps))

    @staticmethod
    def backward(ctx, g):
        x, gain = ctx.saved_tensors
        fn = _kernel()

        def work():
            with torch.enable_grad():
                xx, gg = x.detach().requires_grad_(), gain.detach().requires_grad_()
                out = fn(xx, (xx.shape[-1],), gg, ctx.eps)
                return torch.autograd.grad(out, (xx, gg), g)

        gx, gg = _elsewhere(work)
        return gx, gg, None


def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return _Norm.apply(x, gain, eps) + 0 * x.sum()
