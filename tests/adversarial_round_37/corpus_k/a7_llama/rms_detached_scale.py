# expect: loses rms_norm -- the 1/rms factor is computed under .detach() (treated as a constant), so the forward is exact but d(out)/dx misses the term through the mean square: every gradient with respect to x is wrong (e.g. x (4, 16) requires_grad, loss = (rms_norm(x, g) * w).sum()); the gain's gradient is right
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    inv_rms = torch.rsqrt(x.detach().pow(2).mean(dim=-1, keepdim=True) + eps)  # a per-row constant scale
    return gain * (x * inv_rms)
