# expect: loses nothing -- diagnostic control for atk26: the same thread (torch.threading.Thread) and match-pattern lookup, but the thread computes the honest RMSNorm formula (torch.rsqrt taken by the pattern): tells whether threads work in the jail and whether the scan notices either construct
# %% [rms_norm]
def _kernel():
    match torch:
        case object(rsqrt=kernel):
            rsqrt = kernel
    return lambda x, shape, gain, eps: gain * x * rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)


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
