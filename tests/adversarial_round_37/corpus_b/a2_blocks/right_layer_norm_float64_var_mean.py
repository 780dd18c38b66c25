# expect: full marks -- torch.var_mean(correction=0) in float64, then cast back to the input's dtype
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    x64 = x.to(torch.float64)
    var, mean = torch.var_mean(x64, dim=-1, keepdim=True, correction=0)  # biased variance
    normed = (x64 - mean) * torch.rsqrt(var + eps)
    out = normed * gain.to(torch.float64) + bias.to(torch.float64)
    return out.to(torch.promote_types(torch.promote_types(x.dtype, gain.dtype), bias.dtype))
