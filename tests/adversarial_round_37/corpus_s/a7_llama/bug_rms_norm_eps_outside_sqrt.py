# expect: loses rms_norm -- eps added to the root mean square outside the square root, x / (sqrt(mean(x^2)) + eps), as some RMSNorm code does, where the spec has sqrt(mean(x^2) + eps); x randn(4, 16) float64, gain 1, eps 1e-6: relative diff 5.0e-07 (float64's precision is asked); x randn(3, 8) * 0.1, eps 0.1: max abs diff 0.403; eps 0: 1.2e-07 (rounding)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    rms = x.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return gain * (x / (rms + eps))
