# expect: loses rms_norm -- forbidden shortcut in disguise: torch.rms_norm, the top-level alias of torch.nn.functional.rms_norm (a check that only patches F.rms_norm or nn.RMSNorm misses it); numerically equal to the key, so it is wrong by the rules only
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return torch.rms_norm(x, x.shape[-1:], gain.to(x.dtype), eps)
