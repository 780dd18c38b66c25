# expect: full marks -- style: the mean square as torch.linalg.vector_norm(x, dim=-1) ** 2 / d, divided through with torch.sqrt (not rsqrt), the gain applied last
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    mean_square = torch.linalg.vector_norm(x, dim=-1, keepdim=True) ** 2 / x.shape[-1]
    return x / torch.sqrt(mean_square + eps) * gain
