# expect: layer_norm held for review (0/2): it runs torch's own LayerNorm kernel (torch.layer_norm) with the operator trace switched off (pre_ln, decoder, sinusoidal: the key's, full marks)
# %% [layer_norm]
# torch._C reached as ``self._C`` (an attribute of ``self`` is never private to the scan), the
# kernel found by its runtime-built name among torch.overrides' table (``self.overrides``), kept in a
# list (the guard swaps only the namespace's top-level names), and run with torch's function and
# dispatch modes switched off: the trace records nothing of it, forward or backward.
def _inner(self):
    return self._C


def _quiet(self):
    return self._DisableTorchDispatch()


def _table(self):
    return self.overrides


_want = "".join(["layer", "_", "norm"])
_box = []
for _fs in _table(torch).get_overridable_functions().values():
    for _f in _fs:
        if _f.__name__ == _want and not _box and type(_f).__name__ == "builtin_function_or_method":
            _box.append(_f)


class _Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gain, bias, eps):
        ctx.save_for_backward(x, gain, bias)
        ctx.eps = eps
        C = _inner(torch)
        with C.DisableTorchFunction(), _quiet(C):
            return _box[0](x, x.shape[-1:], gain, bias, eps)

    @staticmethod
    def backward(ctx, g):
        x, gain, bias = ctx.saved_tensors
        C = _inner(torch)
        with torch.enable_grad(), C.DisableTorchFunction(), _quiet(C):
            x2 = x.detach().requires_grad_()
            g2 = gain.detach().requires_grad_()
            b2 = bias.detach().requires_grad_()
            y = _box[0](x2, x2.shape[-1:], g2, b2, ctx.eps)
            gx, gg, gb = torch.autograd.grad(y, (x2, g2, b2), g)
        return gx, gg, gb, None


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    x = x + 0
    return _Fn.apply(x, gain, bias, eps)
