# expect: full marks -- torch.var_mean(correction=0) (a numerically stable variance), rsqrt and torch.addcmul for gain and bias; keeps the default eps
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return torch.addcmul(bias, (x - mean) * torch.rsqrt(var + eps), gain)
