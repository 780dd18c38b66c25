# expect: loses layer_norm -- torch.layer_norm, the torch-namespace builtin that F.layer_norm calls (a different callable), reached by a match-statement class pattern (case object(layer_norm=kernel) on torch: no Attribute node, no getattr) and run, forward and backward, in a torch.threading.Thread inside a custom autograd.Function
# %% [layer_norm]
def _kernel():
    match torch:
        case object(layer_norm=kernel):
            return kernel


def _elsewhere(work):
    box = []

    def run():
        try:
            box.append(work())
        except BaseException as e:
            box.append(e)

    t = torch.threading.Thread(target=run)
    t.start()
    t.join()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


class _Norm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain, bias, eps):
        ctx.save_for_backward(x, gain, bias)
        ctx.eps = eps
        fn = _kernel()
        return _elsewhere(lambda: fn(x, (x.shape[-1],), gain, bias, eps))

    @staticmethod
    def backward(ctx, g):
        x, gain, bias = ctx.saved_tensors
        fn = _kernel()

        def work():
            with torch.enable_grad():
                xx, gg, bb = (t.detach().requires_grad_() for t in (x, gain, bias))
                out = fn(xx, (xx.shape[-1],), gg, bb, ctx.eps)
                return torch.autograd.grad(out, (xx, gg, bb), g)

        gx, gg, gb = _elsewhere(work)
        return gx, gg, gb, None


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    return _Norm.apply(x, gain, bias, eps) + 0 * x.sum()
