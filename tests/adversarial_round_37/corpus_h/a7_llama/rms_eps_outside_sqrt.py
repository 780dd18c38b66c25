# expect: loses rms_norm -- eps added to the root mean square, x / (sqrt(mean x^2) + eps), instead of inside the square root; the visible tests use rows of RMS ~3 or eps = 0; differs for rows of small RMS, e.g. x = 1e-3 * randn(4, 16) with eps=1e-5 (outputs off by a factor ~3-4), or any x with eps=0.1
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    rms = x.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return gain * x / (rms + eps)
