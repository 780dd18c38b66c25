# expect: full marks — layer_norm: statistics and normalisation computed in float64 whatever the input dtype (two-pass variance via torch.var(correction=0)), cast back to x's dtype at the end
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    x64 = x.double()
    mu = x64.mean(-1, keepdim=True)
    var = torch.var(x64, dim=-1, keepdim=True, correction=0)
    y = (x64 - mu) * torch.rsqrt(var + eps) * gain.double() + bias.double()
    return y.to(x.dtype)
