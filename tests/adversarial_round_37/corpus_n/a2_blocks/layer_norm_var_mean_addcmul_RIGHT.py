# expect: full marks -- the biased variance and the mean from one torch.var_mean(correction=0) call, the normalisation as a product with torch.rsqrt(var + eps), and gain and bias applied with a single torch.addcmul(bias, normalised, gain); same values (to rounding), dtypes and gradients for x, gain and bias as the key, for none/one/several leading dims, d = 1, float32 and float64, non-contiguous x
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    var, mean = torch.var_mean(x, dim=-1, correction=0, keepdim=True)  # biased variance, as nn.LayerNorm
    return torch.addcmul(bias, (x - mean) * torch.rsqrt(var + eps), gain)
