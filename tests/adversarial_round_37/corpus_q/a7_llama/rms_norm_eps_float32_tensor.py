# expect: loses rms_norm -- eps turned into torch.tensor(eps), a 0-d float32 tensor: added to float64 it keeps float64 but eps is rounded to float32 (1e-6 -> 9.99999997e-07); "in float64 the hidden tests ask for float64's precision"; float64 x = 1e-7 * randn(3,8), gain 1: key vs a float64 reference ~1e-16 relative, this answer 1.3e-9 relative ; float32: equal
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    eps = torch.tensor(eps)
    mean_square = (x * x).mean(dim=-1, keepdim=True)
    return gain * (x / torch.sqrt(mean_square + eps))
