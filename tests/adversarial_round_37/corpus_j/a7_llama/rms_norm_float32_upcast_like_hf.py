# expect: loses rms_norm -- copies Hugging Face's LlamaRMSNorm, which computes in float32 and casts back, so a float64 input gets float32 precision (the spec: keep the input's dtype): x = randn(4, 16, dtype=float64) differs from the float64 formula by about 1e-7 (dtype float64, values rounded)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    input_dtype = x.dtype
    hidden = x.to(torch.float32)
    variance = hidden.pow(2).mean(-1, keepdim=True)
    hidden = hidden * torch.rsqrt(variance + eps)
    return gain * hidden.to(input_dtype)
