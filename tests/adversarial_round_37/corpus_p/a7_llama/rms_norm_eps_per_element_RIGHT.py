# expect: full marks -- adds eps to every squared entry before the mean, mean(x**2 + eps) = mean(x**2) + eps exactly in real arithmetic, then divides by the square root (torch.sqrt, not rsqrt)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    mean_square = (x * x + eps).mean(dim=-1, keepdim=True)  # (..., 1): eps inside, spread over the entries
    return x / torch.sqrt(mean_square) * gain
