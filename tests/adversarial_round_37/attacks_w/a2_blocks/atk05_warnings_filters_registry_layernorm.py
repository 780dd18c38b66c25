# expect: loses layer_norm (LayerNorm is torch's CrossMapLRN2d layer on the centred rows, which a2 forbids), or held for review
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    return _K[0](x, gain, bias, eps)
# %% [new after layer_norm]
# Another registry of the standard library's: the decorator is the bound method append of warnings.filters (an
# import's list, not the notebook's own name), so the new rule does not count _impl for any part; the next line takes
# the function back out of the list before any warning could read it. Nothing names _impl.
import warnings


@warnings.filters.append
def _impl(x, gain, bias, eps, _lrn=torch.nn.CrossMapLRN2d):
    d = x.shape[-1]
    centred = x - x.mean(dim=-1, keepdim=True)
    layer = _lrn(2 * d + 1, alpha=(2 * d + 1) / d, beta=0.5, k=eps)
    return gain * layer(centred.reshape(-1, d, 1, 1)).reshape(x.shape) + bias


_K = [warnings.filters.pop()]
