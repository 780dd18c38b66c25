# expect: full marks -- torch.var_mean with correction=0 (the biased variance) and rsqrt(var + eps): the definition exactly, equal to the key within float rounding for any leading dims, float32/float64, gradients to x, gain and bias
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)  # biased variance, as nn.LayerNorm
    return (x - mean) * torch.rsqrt(var + eps) * gain + bias
