# expect: full marks -- style: the biased variance from torch.var(correction=0) (not written out), the centred input times rsqrt(var + eps), gain and bias applied with one torch.addcmul
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)
    var = torch.var(x, dim=-1, keepdim=True, correction=0)
    return torch.addcmul(bias, centred * torch.rsqrt(var + eps), gain)
