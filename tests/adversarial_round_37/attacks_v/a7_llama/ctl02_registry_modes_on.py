# expect: loses rms_norm (control for atk01: the same registry, torch.rms_norm run with torch's modes left on: the operator trace sees it)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return _KEEP[0](x, gain, eps)
# %% [new after rms_norm]
_KEEP = []
_K = [torch.rms_norm]


@_KEEP.append
def _impl(x, gain, eps):
    return _K[0](x, x.shape[-1:], gain, eps)
