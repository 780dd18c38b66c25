# expect: loses rms_norm -- RMSNorm computed by torch's layer_norm on [x, -x] (mean 0, variance mean(x^2)): a library normalisation in the part that forbids torch's own RMSNorm
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    d = x.shape[-1]
    both = torch.cat([x, -x], dim=-1)
    return F.layer_norm(both, (2 * d,), eps=eps)[..., :d] * gain
