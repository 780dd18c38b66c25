# expect: loses rms_norm -- computes in float32 and casts back (Hugging Face's LlamaRMSNorm), against "computed in that dtype: in float64 the hidden tests ask for float64's precision": float64 inputs come back with ~1e-7 relative error instead of ~1e-16
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    dtype = x.dtype
    h = x.to(torch.float32)  # normalise in float32, as Llama does
    h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + eps)
    return gain * h.to(dtype)
