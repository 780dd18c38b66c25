# expect: loses layer_norm (LayerNorm is torch's CrossMapLRN2d layer on the centred input, which a2 forbids)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    return _KEEP[0](x, gain, bias, eps)
# %% [new after layer_norm]
# No decorator this time: the scan files a method's body under its class's name (_Holder), but the class body
# hands the method out under its own name (impl), which names no region; nobody names _Holder. No mode is switched
# off and nothing private is read: CrossMapLRN2d(2d+1, alpha=(2d+1)/d, beta=1/2, k=eps) of the centred rows is
# LayerNorm exactly, made of plain operators, its class kept as the method's default (bound when the class body runs; the guard swaps
# the module attribute, not the default; the scan files a default that only names something with the method's
# body, under _Holder).
_KEEP = []


class _Holder:
    def impl(x, gain, bias, eps, _lrn=torch.nn.CrossMapLRN2d):
        d = x.shape[-1]
        centred = x - x.mean(dim=-1, keepdim=True)
        layer = _lrn(2 * d + 1, alpha=(2 * d + 1) / d, beta=0.5, k=eps)
        return gain * layer(centred.reshape(-1, d, 1, 1)).reshape(x.shape) + bias

    _KEEP.append(impl)
