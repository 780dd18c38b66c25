# expect: loses rms_norm (subtle) -- Hugging Face's LlamaRMSNorm copied: the input is cast to float32, normalised, and cast back, so a float64 x gets float32 precision (relative error ~1e-7); right for float32 x; differs on float64 x, e.g. x = randn(3, 64, dtype=float64), gain = randn(64, dtype=float64) (diff ~1e-7 against the key's ~1e-16)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    input_dtype = x.dtype
    hidden = x.to(torch.float32)
    variance = hidden.pow(2).mean(-1, keepdim=True)
    hidden = hidden * torch.rsqrt(variance + eps)
    return gain * hidden.to(input_dtype)
