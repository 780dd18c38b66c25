# expect: full marks -- RMSNorm computed on each row divided by its largest magnitude m when m > 1 (x / sqrt(mean(x^2) + eps) = (x/m) / sqrt(mean((x/m)^2) + eps/m^2), the same function), so that squares of large rows never overflow; rows with m <= 1 (zeros included) use the formula as written, so a row of zeros gives 0 with finite gradients; computed in x's dtype (float64 stays float64), eps = 0 allowed, gain (d,) broadcast over any leading dimensions; m is taken without gradient, and for any fixed m > 0 the rescaled expression is the same function of x, so its gradient is the formula's
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    m = x.detach().abs().amax(dim=-1, keepdim=True)
    scale = torch.where(m > 1, m, torch.ones_like(m))  # only large rows are rescaled
    y = x / scale
    return gain * y * torch.rsqrt(y.pow(2).mean(dim=-1, keepdim=True) + eps / scale.pow(2))
