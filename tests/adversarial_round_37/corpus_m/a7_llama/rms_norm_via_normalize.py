# expect: loses rms_norm -- RMSNorm as F.normalize(x) * sqrt(d) (x over its L2 norm, times sqrt(d)), which ignores eps (normalize clamps the norm at 1e-12 instead); breaks 'eps is added inside the square root'; input: rms_norm(torch.full((4,), 1e-3), torch.ones(4), eps=1e-6) -> key 1e-3 / sqrt(1e-6 + 1e-6) = 0.7071 per entry, this 1.0 (the visible tests use eps=0 or rows far larger than eps)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return gain * F.normalize(x, dim=-1) * math.sqrt(x.shape[-1])  # x / ||x|| = x / (sqrt(d) rms(x))
