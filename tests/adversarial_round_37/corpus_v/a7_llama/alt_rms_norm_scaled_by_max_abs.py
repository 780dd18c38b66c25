# expect: full marks -- a row whose largest magnitude s exceeds 1 is divided by s first (s detached: the function does not depend on it), then x / s / sqrt(mean((x / s)^2) + eps / s^2), which equals the spec's formula and cannot overflow in x**2 (float32 rows near 1e25 give the true normalised values where x**2 overflows to inf and the plain formula gives 0); rows within [-1, 1] are computed exactly as the formula; gradients through x and gain
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    s = x.detach().abs().amax(dim=-1, keepdim=True).clamp_min(1.0)
    y = x / s
    return gain * (y / torch.sqrt(y.square().mean(dim=-1, keepdim=True) + eps / s.square()))
