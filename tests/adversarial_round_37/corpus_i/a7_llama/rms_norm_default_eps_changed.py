# expect: loses rms_norm -- the default eps changed to 1e-5 (Llama 2's config value) instead of the signature's 1e-6: rms_norm(1e-3 * randn(4, 8), ones(8)) with the default eps gives rows of RMS ~0.3 instead of ~0.7
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-5):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    ms = (x * x).mean(dim=-1, keepdim=True)
    return x / torch.sqrt(ms + eps) * gain
