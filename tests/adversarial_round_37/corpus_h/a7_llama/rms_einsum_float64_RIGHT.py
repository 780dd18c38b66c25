# expect: full marks -- mean square by einsum in float64, eps inside the square root, divided (not rsqrt), gain applied in float64, cast back to x's dtype
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    x64 = x.to(torch.float64)
    mean_square = torch.einsum("...d,...d->...", x64, x64).unsqueeze(-1) / x.shape[-1]
    return (gain.to(torch.float64) * (x64 / torch.sqrt(mean_square + eps))).to(x.dtype)
