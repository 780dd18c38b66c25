# expect: loses rms_norm -- the root mean square is computed from x.detach() ("the statistics are constants"): the forward pass equals the key's, the gradient with respect to x misses the normaliser's term; differs on any x that requires grad, e.g. the gradient of rms_norm(x, g).sum() for x = randn(2, 8)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    with torch.no_grad():
        inv_rms = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)  # a per-row constant
    return gain * (x * inv_rms)
