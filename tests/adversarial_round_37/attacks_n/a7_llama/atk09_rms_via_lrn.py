# expect: loses rms_norm -- RMSNorm computed by torch's F.local_response_norm (a library normalisation layer, not on the part's list) with a window spanning every feature: div = (alpha * sum(x^2) / (2d - 1) + k) ** beta with alpha = (2d - 1) / d, k = eps, beta = 1/2 is exactly sqrt(mean(x^2) + eps)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    d = x.shape[-1]
    rows = x.reshape(-1, d, 1)  # features as channels
    out = F.local_response_norm(rows, size=2 * d - 1, alpha=(2 * d - 1) / d, beta=0.5, k=eps)
    return out.reshape(x.shape) * gain
