# expect: full marks (the root mean square from torch.linalg.vector_norm: sqrt(||x||^2 / d + eps), x divided by it, then the gain)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    mean_square = torch.linalg.vector_norm(x, dim=-1, keepdim=True).square() / x.shape[-1]
    return gain * (x / torch.sqrt(mean_square + eps))
