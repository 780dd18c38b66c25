# expect: loses rms_norm -- divides by sqrt(mean(x^2)) + eps instead of sqrt(mean(x^2) + eps): same to ~1e-6 on unit-scale rows, but on rows whose mean square is near eps or below it (e.g. x = 1e-4 * randn(16), eps=1e-6) the output is ~0.99-scaled instead of ~0.1
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    rms = x.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return gain * x / (rms + eps)  # eps keeps the division safe
